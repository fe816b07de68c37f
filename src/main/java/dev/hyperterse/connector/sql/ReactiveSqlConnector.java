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
import io.vertx.sqlclient.SqlConnection;

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
    /** Connections fast reads share (null: every statement runs on a connection of its own). */
    private final SharedConnections shared;
    /** Calls under way (counted only when statements may share). */
    private final java.util.concurrent.atomic.AtomicInteger underWay = new java.util.concurrent.atomic.AtomicInteger();

    public ReactiveSqlConnector(Vertx vertx, String adapterName, Pool pool, SqlFlavor flavor, Endpoint endpoint) {
        this(vertx, adapterName, pool, flavor, endpoint, 1);
    }

    /**
     * @param pipelining how many statements of fast reads may be sent on one connection before the
     *                   first one's answer ({@link SharedConnections}); 1: each runs on one of its own
     */
    public ReactiveSqlConnector(Vertx vertx, String adapterName, Pool pool, SqlFlavor flavor, Endpoint endpoint,
                                int pipelining) {
        this.vertx = vertx;
        this.adapterName = adapterName;
        this.pool = pool;
        this.flavor = flavor;
        this.endpoint = endpoint;
        this.deadlines = new StatementDeadlines(vertx);
        this.shared = pipelining > 1 ? new SharedConnections(vertx, pool, flavor, pipelining, this::alone, this::giveBack)
                : null;
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
        Call call = new Call(statement, values, options);
        Duration timeout = options.timeout();
        if (timeout != null && !timeout.isZero() && !timeout.isNegative()) {
            call.deadline = deadlines.watch(timeout, () -> call.giveUp(Failures.timedOut(timeout)));
        }
        options.cancellation().onSuccess(ignored -> call.giveUp(new ConnectorException("statement cancelled")));
        if (shared == null) {
            alone(call);
            return call.result.future();
        }
        if (call.over()) {
            // cancelled before it started
            return call.result.future();
        }
        boolean contended = underWay.getAndIncrement() > 0;
        call.result.future().onComplete(x -> underWay.decrementAndGet());
        if (!shared.eligible(statement) || !shared.run(call, contended)) {
            alone(call);
        }
        return call.result.future();
    }

    /** Runs the call's statement on a connection of its own, held until no cancel request for it can arrive. */
    void alone(Call call) {
        StatementRun run = new StatementRun();
        if (!call.runsAlone(run)) {
            return;
        }
        long[] started = new long[1];
        pool.getConnection()
                .compose(conn -> live(conn, 4))
                .compose(conn -> {
                    Future<QueryResult> running;
                    started[0] = System.nanoTime();
                    try {
                        running = flavor.execute(conn, call.statement, call.values, call.options.budget(), run);
                    } catch (RuntimeException e) {
                        running = Future.failedFuture(e);
                    }
                    // the connection goes back only once no cancel request can still reach it
                    return running.andThen(done -> run.finish().onComplete(settled -> giveBack(conn)));
                })
                .onComplete(done -> {
                    run.finish();
                    if (shared != null && started[0] != 0) {
                        shared.ran(call.statement, System.nanoTime() - started[0], false, done.succeeded());
                    }
                    call.done(done);
                });
    }

    /**
     * The connection, or another when the pool lent one again before it saw it end (nothing was
     * sent on it), at most {@code tries} more times.
     */
    private Future<SqlConnection> live(SqlConnection conn, int tries) {
        if (tries == 0 || !flavor.ended(conn)) {
            return Future.succeededFuture(conn);
        }
        Future<SqlConnection> other = pool.getConnection();
        giveBack(conn);
        return other.compose(next -> live(next, tries - 1));
    }

    /**
     * Returns a connection to the pool; one that has ended a moment later, once the pool has seen it
     * end, so that it is not lent again.
     */
    void giveBack(SqlConnection conn) {
        if (!flavor.ended(conn)) {
            conn.close();
            return;
        }
        vertx.runOnContext(v -> conn.close());
    }

    /** One call of {@link #execute}: its statement, its time limit, and where its statement runs. */
    final class Call {
        final CompiledStatement statement;
        final List<Object> values;
        final QueryOptions options;
        final Promise<QueryResult> result = Promise.promise();
        StatementDeadlines.Deadline deadline;
        /** When the statement was sent on a shared connection ({@link System#nanoTime()}; 0: not yet). */
        volatile long sent;
        /** The run of the statement on a connection of its own, if it has one. Guarded by this. */
        private StatementRun run;
        /** The shared connection the statement is on, if it is on one. Guarded by this. */
        private SharedConnections.Shared on;
        /** Whether the call was answered by its time limit or its cancellation. Guarded by this. */
        private boolean over;

        Call(CompiledStatement statement, List<Object> values, QueryOptions options) {
            this.statement = statement;
            this.values = values;
            this.options = options;
        }

        /** The time limit passed or the caller gave up: the call is answered, its statement stopped. */
        void giveUp(Throwable why) {
            if (!result.tryFail(why)) {
                return;
            }
            if (deadline != null) {
                deadline.done();
            }
            StatementRun alone;
            SharedConnections.Shared sharing;
            synchronized (this) {
                over = true;
                alone = run;
                sharing = on;
            }
            if (alone != null) {
                stop(alone);
            }
            if (sharing != null) {
                shared.givenUp(sharing);
            }
        }

        /** @return false when the call is already over: its statement must not start */
        synchronized boolean runsAlone(StatementRun alone) {
            on = null;
            run = alone;
            return !over;
        }

        /** @return false when the call is already over: its statement must not be sent */
        synchronized boolean runsOn(SharedConnections.Shared connection) {
            on = connection;
            return !over;
        }

        synchronized boolean over() {
            return over;
        }

        void done(io.vertx.core.AsyncResult<QueryResult> done) {
            if (deadline != null) {
                deadline.done();
            }
            if (done.succeeded()) {
                result.tryComplete(done.result());
            } else {
                result.tryFail(Failures.of(done.cause(), endpoint.describe(), ReactiveSqlConnector.this::reason));
            }
        }
    }

    /**
     * The most statements one shared connection has had sent and unanswered at once since the
     * connector opened (0: no statement has shared one).
     */
    public int deepestSharing() {
        return shared == null ? 0 : shared.deepest();
    }

    /** Whether the statement would now be sent on a shared connection when other calls are under way. */
    public boolean shares(CompiledStatement statement) {
        return shared != null && shared.eligible(statement);
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
