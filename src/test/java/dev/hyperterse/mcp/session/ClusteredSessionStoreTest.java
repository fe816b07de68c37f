package dev.hyperterse.mcp.session;

import dev.hyperterse.testing.MutableClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The clustered store makes room as the local one does. A Vert.x instance without a cluster
 * manager gives the same shared-data API over a local map, which is all these rules need.
 */
class ClusteredSessionStoreTest {
    private final Vertx vertx = Vertx.vertx();
    private final MutableClock clock = new MutableClock();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Sessions in use only by their streams do not lock a newcomer out of a full cluster. */
    @Test
    void aFullClusterTakesANewcomersPlaceFromTheClientHoldingTheMost() throws Exception {
        ClusteredSessionStore store = new ClusteredSessionStore(vertx, Duration.ofMinutes(5), 20, 5, clock);
        Set<String> streaming = new HashSet<>();
        Set<String> running = new HashSet<>();
        List<String> ended = new ArrayList<>();
        SessionUse use = new SessionUse() {
            @Override
            public boolean inUse(String sessionId) {
                return streaming.contains(sessionId) || running.contains(sessionId);
            }

            @Override
            public boolean callRunning(String sessionId) {
                return running.contains(sessionId);
            }

            @Override
            public void ended(String sessionId) {
                ended.add(sessionId);
            }
        };
        List<String> first = new ArrayList<>();
        for (int c = 1; c <= 4; c++) {
            for (int i = 0; i < 5; i++) {
                clock.advance(Duration.ofSeconds(1));
                String id = await(store.create("2025-11-25", "10.0.0." + c, use)).orElseThrow().id();
                streaming.add(id);
                if (c == 1) {
                    first.add(id);
                }
            }
        }
        running.add(first.get(0));
        assertTrue(await(store.create("2025-11-25", "10.0.0.9", use)).isPresent(), "the newcomer gets a session");
        assertEquals(List.of(first.get(1)), ended,
                "the first client to hold the most gives up its least recently used session that runs no call");

        // another map (one per Vert.x instance): clients holding about as many as the newcomer keep their streams
        Vertx other = Vertx.vertx();
        try {
            ClusteredSessionStore even = new ClusteredSessionStore(other, Duration.ofMinutes(5), 4, 4, clock);
            ended.clear();
            for (int c = 1; c <= 4; c++) {
                streaming.add(await(even.create("2025-11-25", "10.1.0." + c, use)).orElseThrow().id());
            }
            assertTrue(await(even.create("2025-11-25", "10.1.0.9", use)).isEmpty());
            assertEquals(List.of(), ended);
        } finally {
            await(other.close());
        }
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
