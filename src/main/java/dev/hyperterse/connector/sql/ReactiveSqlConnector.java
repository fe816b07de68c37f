package dev.hyperterse.connector.sql;

import dev.hyperterse.model.Counted;
import dev.hyperterse.connector.Endpoint;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.connector.StatementDialect;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;

import java.time.Duration;
import java.util.List;

/**
 * An adapter on one of the Vert.x reactive SQL clients (PostgreSQL, MySQL/MariaDB): a pool, and
 * per call a connection held from just before the statement until any cancel request for it has
 * settled. Nothing here blocks; the clients do their I/O on the event loop.
 *
 * <p>A database that goes down fails calls at once (the pool's new connections are refused, or
 * time out after {@code connect_timeout}); the pool opens fresh connections on the next call, so
 * the database is used again as soon as it is back.
 */
public final class ReactiveSqlConnector implements Connector {
    /** How often a cancel request is repeated while a cancelled statement still runs. */
    private static final long CANCEL_AGAIN_MILLIS = 1000;

    private final Vertx vertx;
    private final String adapterName;
    private final Pool pool;
    private final SqlFlavor flavor;
    private final Endpoint endpoint;
    private final StatementDeadlines deadlines;

    public ReactiveSqlConnector(Vertx vertx, String adapterName, Pool pool, SqlFlavor flavor, Endpoint endpoint) {
        this.vertx = vertx;
        this.adapterName = adapterName;
        this.pool = pool;
        this.flavor = flavor;
        this.endpoint = endpoint;
        this.deadlines = new StatementDeadlines(vertx);
    }

    @Override
    public String adapterName() {
        return adapterName;
    }

    @Override
    public StatementDialect dialect() {
        return flavor.dialect();
    }

    @Override
    public Future<Void> check(CompiledStatement statement) {
        return onConnection(statement, conn -> flavor.check(conn, statement));
    }

    @Override
    public Future<ResultColumns> describe(CompiledStatement statement) {
        return onConnection(statement, conn -> flavor.describe(conn, statement));
    }

    private <T> Future<T> onConnection(CompiledStatement statement,
                                       java.util.function.Function<io.vertx.sqlclient.SqlConnection, Future<T>> work) {
        if (statement.dialect() != flavor.dialect()) {
            return Future.failedFuture(new IllegalArgumentException("statement compiled for " + statement.dialect()));
        }
        return pool.withConnection(work)
                .recover(e -> Future.failedFuture(Failures.of(e, endpoint.describe(), this::reason)));
    }

    @Override
    public Future<Void> ping() {
        return pool.query("SELECT 1").execute().<Void>mapEmpty()
                .recover(e -> Future.failedFuture(Failures.of(e, endpoint.describe(), this::reason)));
    }

    @Override
    public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
        int rowLimit = options.rowLimit();
        if (statement.dialect() != flavor.dialect()) {
            return Future.failedFuture(new IllegalArgumentException("statement compiled for " + statement.dialect()));
        }
        if (values.size() != statement.parameters().size()) {
            return Future.failedFuture(new IllegalArgumentException("statement has "
                    + Counted.of(statement.parameters().size(), "parameter") + " but "
                    + Counted.of(values.size(), "value was", "values were") + " given"));
        }
        if (rowLimit < 1) {
            return Future.failedFuture(new IllegalArgumentException("row limit must be at least 1, was " + rowLimit));
        }
        if (options.byteLimit() < 1) {
            return Future.failedFuture(new IllegalArgumentException("result size limit must be at least 1 byte, was "
                    + options.byteLimit()));
        }
        Promise<QueryResult> result = Promise.promise();
        StatementRun run = new StatementRun();
        Duration timeout = options.timeout();
        boolean limited = timeout != null && !timeout.isZero() && !timeout.isNegative();
        StatementDeadlines.Deadline deadline = !limited ? null : deadlines.watch(timeout, () -> {
            if (result.tryFail(Failures.timedOut(timeout))) {
                stop(run);
            }
        });
        options.cancellation().onSuccess(ignored -> {
            if (result.tryFail(new ConnectorException("statement cancelled"))) {
                stop(run);
            }
        });
        pool.getConnection()
                .compose(conn -> {
                    Future<QueryResult> running;
                    try {
                        running = flavor.execute(conn, statement, values, options.budget(), run);
                    } catch (RuntimeException e) {
                        running = Future.failedFuture(e);
                    }
                    // the connection goes back only once no cancel request can still reach it
                    return running.andThen(done -> run.finish().onComplete(settled -> conn.close()));
                })
                .onComplete(done -> {
                    run.finish();
                    if (deadline != null) {
                        deadline.done();
                    }
                    if (done.succeeded()) {
                        result.tryComplete(done.result());
                    } else {
                        result.tryFail(Failures.of(done.cause(), endpoint.describe(), this::reason));
                    }
                });
        return result.future();
    }

    /** The driver's reason, and for a table that does not exist, a hint at loading the schema. */
    private String reason(Throwable failure) {
        String reason = flavor.reason(failure);
        return flavor.missingTable(failure) ? reason + Failures.missingTableHint(adapterName, flavor.connectorType())
                : reason;
    }

    private void stop(StatementRun run) {
        run.expire();
        vertx.setPeriodic(CANCEL_AGAIN_MILLIS, id -> {
            if (!run.cancelAgain()) {
                vertx.cancelTimer(id);
            }
        });
    }

    @Override
    public Future<Void> close() {
        deadlines.close();
        return pool.close();
    }
}
