package dev.hyperterse.connector.mongodb;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.ConnectorTestBase;
import dev.hyperterse.connector.QueryOptions;
import io.netty.channel.Channel;
import io.vertx.core.Promise;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.testing.Futures.await;
import static dev.hyperterse.testing.Futures.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A call that ends (cancelled, or past its time limit) while its first command is still on its
 * way leaves no cursor open on the server: the command's reply, when it comes, has its cursor
 * killed. The in-process server here answers a {@code find} on the collection {@code slow} only
 * after a pause, so the call ends while the command is in flight.
 */
class MongoCursorCleanupTest extends ConnectorTestBase {
    private static final long PAUSE_MILLIS = 600;

    /** An in-memory server whose finds on {@code slow} take {@value #PAUSE_MILLIS} ms, and which counts its open cursors. */
    private static final class SlowFinds extends MemoryBackend {
        private final java.util.concurrent.atomic.AtomicInteger slowAnswered = new java.util.concurrent.atomic.AtomicInteger();
        @Override
        public Document handleCommand(Channel channel, String database, String command, Document query) {
            if (!"find".equalsIgnoreCase(command) || !"slow".equals(query.get(command))) {
                return super.handleCommand(channel, database, command, query);
            }
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                return super.handleCommand(channel, database, command, query);
            } finally {
                slowAnswered.incrementAndGet();
            }
        }

        int openCursors() {
            return getCursorRegistry().size();
        }
    }

    private final MongoConnectorFactory factory = new MongoConnectorFactory();
    private final SlowFinds backend = new SlowFinds();
    private MongoServer server;
    private Connector mongo;

    MongoCursorCleanupTest() {
        super("docs");
    }

    @Override
    protected ConnectorFactory factory() {
        return factory;
    }

    @BeforeAll
    void start() {
        server = new MongoServer(backend);
        server.bind("127.0.0.1", 0);
        mongo = open("mongodb://127.0.0.1:" + server.getLocalAddress().getPort(), Map.of());
        StringBuilder docs = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            docs.append(i == 0 ? "" : ", ").append("{\"_id\": ").append(i).append("}");
        }
        for (String collection : List.of("slow", "fast")) {
            await(mongo.execute(statement("{\"insert\": \"" + collection + "\", \"documents\": [" + docs + "]}"),
                    List.of(), QueryOptions.of(10, TIMEOUT)));
        }
    }

    @AfterAll
    void stop() {
        await(mongo.close());
        server.shutdownNow();
    }

    private CompiledStatement statement(String command) {
        try {
            return factory.compile("{\"database\": \"cleanup\", \"command\": " + command + "}", Map.of());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Waits until the server answered {@code slowFinds} slow finds in all, then until it has no open
     * cursor more than {@code openBefore} (the killCursors that follows an answer nobody waits for),
     * up to a few seconds each; returns how many more are open.
     */
    private int cursorsLeftAfterSettling(int slowFinds, int openBefore) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (backend.slowAnswered.get() < slowFinds && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertEquals(slowFinds, backend.slowAnswered.get(), "the server answered the slow find");
        until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (backend.openCursors() > openBefore && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        return backend.openCursors() - openBefore;
    }

    @Test
    void aCallCancelledWhileItsFirstCommandRunsLeavesNoCursor() throws Exception {
        int before = backend.slowAnswered.get();
        int open = backend.openCursors();
        CompiledStatement find = statement("{\"find\": \"slow\", \"filter\": {}, \"batchSize\": 2}");
        Promise<Void> cancel = Promise.promise();
        vertx.setTimer(PAUSE_MILLIS / 4, id -> cancel.tryComplete());
        Throwable e = failure(mongo.execute(find, new ArrayList<>(), new QueryOptions(1000, 4L << 20, TIMEOUT,
                cancel.future())));
        assertEquals("statement cancelled", e.getMessage());
        assertEquals(0, cursorsLeftAfterSettling(before + 1, open), "the cursor the cancelled find opened is killed");
    }

    @Test
    void aCallPastItsTimeLimitWhileItsFirstCommandRunsLeavesNoCursor() throws Exception {
        int before = backend.slowAnswered.get();
        int open = backend.openCursors();
        CompiledStatement find = statement("{\"find\": \"slow\", \"filter\": {}, \"batchSize\": 2}");
        Throwable e = failure(mongo.execute(find, new ArrayList<>(), QueryOptions.of(1000,
                Duration.ofMillis(PAUSE_MILLIS / 4))));
        assertEquals("statement timed out after " + PAUSE_MILLIS / 4 + "ms", e.getMessage());
        assertEquals(0, cursorsLeftAfterSettling(before + 1, open), "the cursor the timed-out find opened is killed");
    }

    @Test
    void aCallCutByItsRowLimitLeavesNoCursor() throws Exception {
        int open = backend.openCursors();
        CompiledStatement find = statement("{\"find\": \"fast\", \"filter\": {}, \"batchSize\": 2}");
        assertEquals(5, await(mongo.execute(find, new ArrayList<>(), QueryOptions.of(5, TIMEOUT))).rows().size());
        assertEquals(0, cursorsLeftAfterSettling(backend.slowAnswered.get(), open), "the cursor the row limit cut is killed");
    }
}
