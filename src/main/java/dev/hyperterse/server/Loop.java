package dev.hyperterse.server;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.function.Supplier;

/**
 * The event loop one of the server's HTTP listeners runs on: its context, and the thread that
 * context always runs on (an event-loop context never changes threads), by which work finds out
 * which listener's loop it is on.
 */
record Loop(Context context, Thread thread) {

    /** Whether the calling thread is this loop. */
    boolean isCurrent() {
        return Thread.currentThread() == thread;
    }

    /**
     * Runs {@code work} on this loop (at once when already on it), so what it opens lives here.
     * The outcome reaches the caller on the caller's own context when it has one (a worker stays
     * a worker), else on this loop.
     */
    <T> Future<T> call(Supplier<Future<T>> work) {
        if (isCurrent()) {
            return start(work);
        }
        Promise<T> outcome = Promise.promise();
        Handler<AsyncResult<T>> toCaller = toCaller(outcome);
        context.runOnContext(v -> start(work).onComplete(toCaller));
        return outcome.future();
    }

    /**
     * Opens something that lives on this loop (a database pool) from a worker, with this loop's
     * context current: what the work makes belongs to this loop as with {@link #call}, but the
     * classes a first open loads and links (a process's first connection) do not hold the loop.
     * The outcome reaches the caller as with {@link #call}.
     */
    <T> Future<T> open(Supplier<Future<T>> work) {
        Promise<T> outcome = Promise.promise();
        context.executeBlocking(() -> start(work), false).compose(opened -> opened).onComplete(toCaller(outcome));
        return outcome.future();
    }

    /**
     * Completes {@code outcome}, from an outcome reached on this loop, on the calling context (read
     * now): on that context when it is another one, at once when it is this loop's or there is none.
     */
    private <T> Handler<AsyncResult<T>> toCaller(Promise<T> outcome) {
        Context caller = Vertx.currentContext();
        return ar -> {
            if (caller == null || caller == context) {
                outcome.handle(ar);
            } else {
                caller.runOnContext(x -> outcome.handle(ar));
            }
        };
    }

    private static <T> Future<T> start(Supplier<Future<T>> work) {
        try {
            return work.get();
        } catch (RuntimeException | Error e) {
            // an error too: the caller waits on the outcome, which must come
            return Future.failedFuture(e);
        }
    }
}
