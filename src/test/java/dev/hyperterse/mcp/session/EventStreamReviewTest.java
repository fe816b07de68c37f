package dev.hyperterse.mcp.session;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A POST stream whose large response is still encoding when it is finished twice (the exchange
 * completes, then the session ends: DELETE, shutdown's closeAll, the idle sweep) ends, and its
 * event loop stays free.
 */
class EventStreamReviewTest {
    @Test
    void aStreamFinishedTwiceWhileALargeMessageEncodesEnds() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            Context ctx = vertx.getOrCreateContext();
            EventStream stream = new EventStream("e", 1, true, 10);
            JsonObject big = new JsonObject().put("s", "x".repeat(200_000));
            CountDownLatch queued = new CountDownLatch(1);
            ctx.runOnContext(v -> {
                stream.send(big);   // large: encoded on a worker
                stream.finish();    // PostExchange.completeIfDone
                stream.finish();    // LiveSession.end
                queued.countDown();
            });
            assertTrue(queued.await(5, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            CountDownLatch alive = new CountDownLatch(1);
            Thread.sleep(500);
            ctx.runOnContext(v -> alive.countDown());
            assertTrue(alive.await(5, TimeUnit.SECONDS), "the event loop is stuck");
            // finished() takes the stream's lock, which a spinning encoded() would hold forever
            CountDownLatch got = new CountDownLatch(1);
            boolean[] finished = new boolean[1];
            Thread t = new Thread(() -> {
                finished[0] = stream.finished();
                got.countDown();
            });
            t.setDaemon(true);
            t.start();
            assertTrue(got.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS), "the stream's lock is held");
            assertTrue(finished[0]);
        } finally {
            vertx.close();
        }
    }
}
