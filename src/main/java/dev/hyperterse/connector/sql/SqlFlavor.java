package dev.hyperterse.connector.sql;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.connector.StatementDialect;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;

import java.util.List;

/**
 * What differs between the SQL databases behind {@link ReactiveSqlConnector}: how a statement is
 * checked, how values are bound and rows read, how a running statement is stopped, and how the
 * driver words a failure. Everything else (pooling, time limits, cancellation, release) is shared.
 */
public interface SqlFlavor {

    StatementDialect dialect();

    /** Prepares the statement on a connection the caller holds, without running it. */
    Future<Void> check(SqlConnection conn, CompiledStatement statement);

    /**
     * Checks the statement as {@link #check} does and describes its result columns without
     * running anything that could change data; null when they cannot be told. Only a failed
     * check fails.
     */
    Future<ResultColumns> describe(SqlConnection conn, CompiledStatement statement);

    /**
     * Runs the statement on a connection the caller holds. Calls {@link StatementRun#start} before
     * anything that may wait on the server for the statement (a describe or prepare of it too)
     * and fails with {@link StatementRun#notStarted()} when that refuses. Keeps the rows the
     * budget admits, and reads no more than it needs to find a cut.
     */
    Future<QueryResult> execute(SqlConnection conn, CompiledStatement statement, List<Object> values,
                                ResultBudget budget, StatementRun run);

    /**
     * Whether a run of this statement may share a connection with other such runs, each sent
     * behind the others without waiting for their answers ({@link ReactiveSqlConnector}'s shared
     * connections). Only a read that runs alone in no transaction qualifies; none does by default.
     */
    default boolean shareable(CompiledStatement statement) {
        return false;
    }

    /** Makes a connection taken from the pool fit for sharing (PostgreSQL: read-only). */
    default Future<Void> share(SqlConnection conn) {
        return Future.succeededFuture();
    }

    /** Undoes {@link #share} before the connection goes back to the pool; failed: it must not go back. */
    default Future<Void> unshare(SqlConnection conn) {
        return Future.succeededFuture();
    }

    /**
     * Runs a {@linkplain #shareable shareable} statement on a connection other calls' statements
     * are sent on too: in no transaction, and never stopped by a cancel request (which would stop
     * whichever statement runs). Fails with {@link OwnConnectionNeeded} when the run cannot finish
     * there (its result needs more than one fetch, it writes, its prepared statement went stale,
     * or a row too large ended the connection), so that it runs again on a connection of its own.
     */
    default Future<QueryResult> executeShared(SqlConnection conn, CompiledStatement statement, List<Object> values,
                                              ResultBudget budget) {
        return Future.failedFuture(new OwnConnectionNeeded());
    }

    /**
     * Gives a shared connection up: asks the database to stop the statement it runs and ends the
     * connection, so nothing queued on it runs.
     *
     * @return completes once the connection has ended (at once when it cannot be ended: it then
     *         goes back to the pool once its statements are answered)
     */
    default Future<Void> abandon(SqlConnection conn) {
        return Future.succeededFuture();
    }

    /**
     * Whether the connection has ended (a row too large ended it, it was given up, or lost): the
     * pool learns of it only after the statements on it have failed, and until then may lend it
     * again. Nothing can run on it.
     */
    default boolean ended(SqlConnection conn) {
        return false;
    }

    /** A run on a shared connection that has to run again on a connection of its own. */
    final class OwnConnectionNeeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public OwnConnectionNeeded() {
            super("the statement needs a connection of its own", null, false, false);
        }
    }

    /** The driver's reason for a failed statement, in one line: no stack trace, no secrets. */
    String reason(Throwable failure);

    /** Whether the statement failed because a table it names does not exist. */
    boolean missingTable(Throwable failure);

    /** The connector keyword ({@code postgres}, {@code mysql}), for messages. */
    String connectorType();
}
