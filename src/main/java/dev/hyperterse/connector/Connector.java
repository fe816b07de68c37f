package dev.hyperterse.connector;

import io.vertx.core.Future;

import java.util.List;

/**
 * A live connection pool for one adapter. Every method returns at once; the work runs on the
 * client's own I/O threads or on worker threads, never blocking the caller's event loop.
 */
public interface Connector {

    /** The adapter this connector serves. */
    String adapterName();

    /** The placeholder style this connector's statements are compiled to. */
    StatementDialect dialect();

    /**
     * Checks a statement against the database without running it (prepare), so a syntax error
     * or an unknown column is reported at start-up. Fails with the database's reason.
     */
    Future<Void> check(CompiledStatement statement);

    /**
     * Checks a statement as {@link #check} does (failing the same way when it does not prepare)
     * and describes its rows from what the database says about the prepared statement, without
     * running it. Completes with null when the rows cannot be told that way (the default, and
     * Redis and MongoDB, whose results have no declared columns); a description that fails
     * after the statement prepared is also null, never a failure.
     */
    default Future<ResultColumns> describe(CompiledStatement statement) {
        return check(statement).map((ResultColumns) null);
    }

    /**
     * Runs a statement with its bind values (one per {@link CompiledStatement#parameters()}).
     * At most {@code options.rowLimit()} rows are returned; the statement is cancelled after
     * {@code options.timeout()} or when {@code options.cancellation()} completes. Failures are
     * {@link ConnectorException}s with a message safe to show callers.
     */
    Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options);

    /**
     * A cheap round trip that proves the database answers now (for {@code /ready}), e.g.
     * {@code SELECT 1} or Redis {@code PING}. Fails with a {@link ConnectorException} whose
     * message is safe to show (no password). The default claims success without asking: a
     * connector should override it.
     */
    default Future<Void> ping() {
        return Future.succeededFuture();
    }

    /** Closes the pool; in-flight statements may complete or fail. */
    Future<Void> close();
}
