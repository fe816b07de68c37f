package dev.hyperterse.pipeline;

import dev.hyperterse.cache.CacheKey;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The callers waiting on each cached statement's load. Identical calls share one load, so no one
 * caller's cancellation may stop it while others wait; once every caller waiting on it has
 * cancelled, nobody wants its rows and the statement is cancelled, as an uncached one is.
 * Callers on any event loop join and leave; each leaves once, when its call ends or is cancelled.
 */
final class SharedLoads {
    private final ConcurrentHashMap<CacheKey, Waiting> byKey = new ConcurrentHashMap<>();

    /** The callers of one load, and what cancels it. Guarded by itself. */
    private static final class Waiting {
        int callers;
        final Promise<Void> cancel = Promise.promise();
    }

    /** One caller's place in a load: {@link #cancellation()} goes to the load, {@link #leave} ends the place. */
    final class Place {
        private final CacheKey key;
        private final Waiting waiting;
        private final AtomicBoolean left = new AtomicBoolean();

        private Place(CacheKey key, Waiting waiting) {
            this.key = key;
            this.waiting = waiting;
        }

        /** Completes once every caller of the load has cancelled. */
        Future<Void> cancellation() {
            return waiting.cancel.future();
        }

        /** This caller is done with the load: its call ended ({@code cancelled} false) or was cancelled. */
        void leave(boolean cancelled) {
            if (!left.compareAndSet(false, true)) {
                return;
            }
            boolean last;
            synchronized (waiting) {
                last = --waiting.callers == 0;
                if (last) {
                    // under the lock: a caller joining now finds it gone and makes a fresh one
                    byKey.remove(key, waiting);
                }
            }
            if (last && cancelled) {
                waiting.cancel.tryComplete();
            }
        }
    }

    /** A caller joins the load of {@code key} (started now or already running). */
    Place join(CacheKey key) {
        while (true) {
            Waiting waiting = byKey.computeIfAbsent(key, k -> new Waiting());
            synchronized (waiting) {
                // one whose last caller left was removed with it: not joined, a fresh one is made
                if (byKey.get(key) == waiting) {
                    waiting.callers++;
                    return new Place(key, waiting);
                }
            }
        }
    }

    /** How many loads have callers waiting (for tests). */
    int size() {
        return byKey.size();
    }
}
