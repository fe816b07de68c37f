package dev.hyperterse.connector.sql;

import io.vertx.core.Future;

import java.util.function.Supplier;

/**
 * The life of one {@code execute} call against its time limit and its caller. The timer, the
 * caller's cancellation and the statement's own completion race on different threads; this
 * decides, under one lock, whether the statement may still start and whether cancelling may touch
 * the connection (only between {@link #start} and {@link #finish}, while the call holds it).
 */
public final class StatementRun {
    private Supplier<Future<Void>> canceller;
    private boolean expired;
    private boolean finished;
    private Future<Void> cancelling = Future.succeededFuture();

    /**
     * Called before the statement, or anything that prepares it, goes to the database.
     *
     * @param canceller asks the database to stop the statement (PostgreSQL's cancel request, MySQL's KILL QUERY)
     * @return false when the call already ended (timed out or cancelled while it waited): do not start
     */
    public synchronized boolean start(Supplier<Future<Void>> canceller) {
        if (expired) {
            return false;
        }
        this.canceller = canceller;
        return true;
    }

    /** The time limit passed or the caller gave up: stop the statement if it runs. */
    synchronized void expire() {
        if (!expired) {
            expired = true;
            cancel();
        }
    }

    /**
     * Asks again for a statement that is still running after being cancelled (a cancel request
     * that reached the server just before the statement did is ignored there).
     *
     * @return false once the statement has finished, so nothing more is to be sent
     */
    synchronized boolean cancelAgain() {
        cancel();
        return !finished;
    }

    private void cancel() {
        if (canceller == null || finished) {
            return;
        }
        Future<Void> request;
        try {
            request = canceller.get();
        } catch (RuntimeException e) {
            request = Future.failedFuture(e);
        }
        Future<Void> before = cancelling;
        // a failed cancel request is not the caller's failure: the time limit already answered it
        cancelling = Future.join(before, request).transform(x -> Future.succeededFuture());
    }

    /**
     * The statement has returned.
     *
     * @return completes when no cancel request for this statement is still travelling: only then
     *         may the connection serve another statement, which a late cancel would hit instead
     */
    synchronized Future<Void> finish() {
        finished = true;
        return cancelling;
    }

    /** The failure of a statement that was not started because its call had already ended. */
    public static Throwable notStarted() {
        return new IllegalStateException("the call ended before its statement started");
    }
}
