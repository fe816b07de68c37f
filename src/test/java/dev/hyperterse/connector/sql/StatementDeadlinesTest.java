package dev.hyperterse.connector.sql;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementDeadlinesTest {
    private final Vertx vertx = Vertx.vertx();
    private final StatementDeadlines deadlines = new StatementDeadlines(vertx);

    @AfterEach
    void close() throws Exception {
        deadlines.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Watches {@code limit} from an event loop; completes with the context it expired on, and when. */
    private CompletableFuture<Context> expiry(Context on, Duration limit, long[] elapsed) {
        CompletableFuture<Context> fired = new CompletableFuture<>();
        on.runOnContext(v -> {
            long start = System.nanoTime();
            deadlines.watch(limit, () -> {
                elapsed[0] = System.nanoTime() - start;
                fired.complete(Vertx.currentContext());
            });
        });
        return fired;
    }

    @Test
    void aFarLimitActsAtItsTimeOnTheStatementsContextWithoutATimerUntilNear() throws Exception {
        Context context = vertx.getOrCreateContext();
        long[] elapsed = new long[1];
        CompletableFuture<Context> fired = expiry(context, Duration.ofMillis(700), elapsed);
        Thread.sleep(100);
        assertEquals(1, deadlines.watching(), "noted, no timer yet");
        assertSame(context, fired.get(10, TimeUnit.SECONDS));
        assertTrue(elapsed[0] >= TimeUnit.MILLISECONDS.toNanos(700), "not before its time: " + elapsed[0]);
        assertEquals(0, deadlines.watching());
    }

    @Test
    void aShortLimitActsAtItsTime() throws Exception {
        long[] elapsed = new long[1];
        Context context = vertx.getOrCreateContext();
        assertSame(context, expiry(context, Duration.ofMillis(50), elapsed).get(10, TimeUnit.SECONDS));
        assertTrue(elapsed[0] >= TimeUnit.MILLISECONDS.toNanos(50), "not before its time: " + elapsed[0]);
    }

    @Test
    void aStatementDoneInTimeIsNeverExpired() throws Exception {
        AtomicInteger expired = new AtomicInteger();
        CompletableFuture<Void> watched = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(v -> {
            deadlines.watch(Duration.ofMillis(300), expired::incrementAndGet).done();
            deadlines.watch(Duration.ofMillis(20), expired::incrementAndGet).done();
            StatementDeadlines.Deadline late = deadlines.watch(Duration.ofMillis(300), expired::incrementAndGet);
            // done once its timer is set (within the last two sweeps)
            vertx.setTimer(250, id -> {
                late.done();
                watched.complete(null);
            });
        });
        watched.get(10, TimeUnit.SECONDS);
        Thread.sleep(500);
        assertEquals(0, expired.get());
        assertEquals(0, deadlines.watching());
    }

    @Test
    void closingKeepsTheLimitsOfStatementsStillRunning() throws Exception {
        long[] elapsed = new long[1];
        CompletableFuture<Context> fired = expiry(vertx.getOrCreateContext(), Duration.ofMillis(600), elapsed);
        Thread.sleep(50);
        deadlines.close();
        fired.get(10, TimeUnit.SECONDS);
        assertTrue(elapsed[0] >= TimeUnit.MILLISECONDS.toNanos(600), "not before its time: " + elapsed[0]);
        // and one noted after closing acts too
        expiry(vertx.getOrCreateContext(), Duration.ofMillis(400), elapsed).get(10, TimeUnit.SECONDS);
    }

    @Test
    void theSweepStopsWhenIdleAndTheNextFarLimitStartsItAgain() throws Exception {
        Context context = vertx.getOrCreateContext();
        long[] elapsed = new long[1];
        assertSame(context, expiry(context, Duration.ofMillis(300), elapsed).get(10, TimeUnit.SECONDS));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (deadlines.sweeping() && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertTrue(!deadlines.sweeping(), "an idle connector sets no timer");
        // without a sweep started again, this limit would never act
        CompletableFuture<Context> again = expiry(context, Duration.ofMillis(400), elapsed);
        assertSame(context, again.get(10, TimeUnit.SECONDS));
        assertTrue(elapsed[0] >= TimeUnit.MILLISECONDS.toNanos(400), "not before its time: " + elapsed[0]);
    }
}
