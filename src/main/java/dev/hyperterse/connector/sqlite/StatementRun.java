package dev.hyperterse.connector.sqlite;

/**
 * The life of one {@code execute} call against its time limit. The timer and the statement's
 * completion race on different threads; this decides, under one lock, whether the statement
 * may start and whether cancelling may touch the connection (only while this call holds it, so
 * a cancel can never hit the next user of the connection).
 */
final class StatementRun {
    private enum State { WAITING, RUNNING, DONE, EXPIRED }

    private State state = State.WAITING;
    private TrackedDataSource.Handle connection;
    private long changesBefore;

    /**
     * Called on the worker thread that is about to run the statement.
     *
     * @param totalChanges the connection's {@code total_changes()} before the statement
     * @return false when the time limit passed while waiting for a connection: do not start
     */
    synchronized boolean begin(TrackedDataSource.Handle handle, long totalChanges) {
        if (state != State.WAITING) {
            return false;
        }
        state = State.RUNNING;
        connection = handle;
        changesBefore = totalChanges;
        return true;
    }

    /** The connection's {@code total_changes()} just before the statement ran. */
    synchronized long changesBefore() {
        return changesBefore;
    }

    /** Called when the statement has returned, before the connection goes back to the pool. */
    synchronized void end() {
        if (connection != null) {
            connection.reset();
            connection = null;
        }
        if (state == State.RUNNING) {
            state = State.DONE;
        }
    }

    /** The time limit passed: stop the statement if it runs, and refuse to start it otherwise. */
    synchronized void expire() {
        if (state == State.RUNNING && connection != null) {
            connection.cancel();
        }
        if (state != State.DONE) {
            state = State.EXPIRED;
        }
    }
}
