package dev.hyperterse.server;

import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls running on one snapshot. A retired snapshot is closed once this drains, so calls
 * finish on the snapshot they started on. Lock-free: entering and leaving are an atomic count,
 * and whichever of the last leave and {@link #drain()} comes second completes the drain.
 */
final class InFlight {
    private final AtomicInteger count = new AtomicInteger();
    /** Every lease ever taken on this snapshot (how many times requests read it). */
    private final java.util.concurrent.atomic.LongAdder taken = new java.util.concurrent.atomic.LongAdder();
    private final Promise<Void> drained = Promise.promise();
    private volatile boolean draining;

    void enter() {
        count.incrementAndGet();
        taken.increment();
    }

    /** Leases taken on this snapshot since it was built. */
    long taken() {
        return taken.sum();
    }

    void leave() {
        if (count.decrementAndGet() == 0 && draining) {
            drained.tryComplete();
        }
    }

    int count() {
        return count.get();
    }

    /** Completes when no call is running any more (at once when none is). */
    Future<Void> drain() {
        draining = true;
        if (count.get() == 0) {
            drained.tryComplete();
        }
        return drained.future();
    }
}
