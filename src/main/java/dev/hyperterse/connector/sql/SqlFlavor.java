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

    /** The driver's reason for a failed statement, in one line: no stack trace, no secrets. */
    String reason(Throwable failure);

    /** Whether the statement failed because a table it names does not exist. */
    boolean missingTable(Throwable failure);

    /** The connector keyword ({@code postgres}, {@code mysql}), for messages. */
    String connectorType();
}
