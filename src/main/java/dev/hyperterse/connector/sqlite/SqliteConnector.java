package dev.hyperterse.connector.sqlite;

import dev.hyperterse.model.Counted;
import dev.hyperterse.connector.BindText;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.connector.StatementDialect;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.SqlResult;
import io.vertx.sqlclient.Tuple;
import org.sqlite.SQLiteConnection;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.TemporalAccessor;
import java.util.List;

/**
 * One sqlite adapter: a Vert.x JDBC pool over xerial's driver. Every JDBC call runs on the
 * client's worker threads; this class only composes futures and runs a timer on the event loop.
 */
final class SqliteConnector implements Connector {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SqliteConnector.class);
    private final Vertx vertx;
    private final String adapterName;
    private final Pool pool;
    private final TrackedDataSource dataSource;
    /** Keeps an in-memory database alive while the pool has no open connection; null for files. */
    private final SQLiteConnection anchor;

    SqliteConnector(Vertx vertx, String adapterName, Pool pool, TrackedDataSource dataSource, SQLiteConnection anchor) {
        this.vertx = vertx;
        this.adapterName = adapterName;
        this.pool = pool;
        this.dataSource = dataSource;
        this.anchor = anchor;
    }

    @Override
    public String adapterName() {
        return adapterName;
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.SQLITE;
    }

    @Override
    public Future<Void> check(CompiledStatement statement) {
        return prepared(statement, ps -> null);
    }

    @Override
    public Future<ResultColumns> describe(CompiledStatement statement) {
        String text = statement.text();
        return prepared(statement, ps -> {
            try {
                return SqliteResultColumns.of(ps, text);
            } catch (java.sql.SQLException | RuntimeException e) {
                // the statement prepared: only its description is lost
                LOG.debug("describing the result columns of a statement failed", e);
                return null;
            }
        });
    }

    /**
     * Prepares the statement and reads what it needs from it, on a worker thread. Preparing
     * compiles the statement as running it would (syntax, tables, columns) without running it. It
     * uses a connection of its own, outside the pool: a check through the pool left a read
     * transaction open on a pooled connection, which then served a stale snapshot of the database
     * to every later read.
     */
    private <T> Future<T> prepared(CompiledStatement statement, java.util.function.Function<java.sql.PreparedStatement, T> read) {
        if (statement.dialect() != StatementDialect.SQLITE) {
            return Future.failedFuture(new IllegalArgumentException("statement compiled for " + statement.dialect()));
        }
        String text = statement.text();
        return vertx.<T>executeBlocking(() -> {
            try (java.sql.Connection c = dataSource.getConnection();
                 java.sql.PreparedStatement ps = c.prepareStatement(text)) {
                return read.apply(ps);
            }
        }, false).recover(e -> Future.failedFuture(new ConnectorException(reason(e), e)));
    }

    @Override
    public Future<Void> ping() {
        return pool.query("SELECT 1").execute()
                .<Void>mapEmpty()
                .recover(e -> Future.failedFuture(new ConnectorException(reason(e), e)));
    }

    @Override
    public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
        int rowLimit = options.rowLimit();
        Duration timeout = options.timeout();
        if (statement.dialect() != StatementDialect.SQLITE) {
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
        Tuple tuple;
        try {
            tuple = bindValues(values);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        RowBuffer buffer = new RowBuffer(options.budget());
        StatementRun run = new StatementRun();
        long runId = dataSource.register(run);
        String sql = TrackedDataSource.tagged(statement.text(), runId);
        Promise<QueryResult> result = Promise.promise();
        boolean limited = timeout != null && !timeout.isZero() && !timeout.isNegative();
        long timer = !limited ? -1 : vertx.setTimer(Math.max(1, timeout.toMillis()), id -> {
            run.expire();
            result.tryFail(Failures.timedOut(timeout));
        });
        options.cancellation().onSuccess(ignored -> {
            run.expire();
            result.tryFail(new ConnectorException("statement cancelled"));
        });
        // withConnection, not pool.preparedQuery: the connection must stay ours until run.end(),
        // so a late cancel can never reach the connection's next statement.
        pool.withConnection(conn -> conn.preparedQuery(sql).collecting(buffer).execute(tuple)
                        .andThen(ignored -> run.end())
                        .transform(done -> {
                            if (done.succeeded()) {
                                SqlResult<RowBuffer> rows = done.result();
                                if (rows.columnsNames() == null || rows.columnsNames().isEmpty()) {
                                    return rowsAffected(conn, rows.rowCount(), run.changesBefore());
                                }
                                return Future.succeededFuture(new QueryResult(buffer.rows(), buffer.cut()));
                            }
                            if (done.cause() instanceof RowBuffer.Full) {
                                return Future.succeededFuture(new QueryResult(buffer.rows(), buffer.cut()));
                            }
                            return Future.failedFuture(done.cause());
                        }))
                .onComplete(done -> {
                    dataSource.unregister(runId);
                    if (timer >= 0) {
                        vertx.cancelTimer(timer);
                    }
                    if (done.succeeded()) {
                        result.tryComplete(done.result());
                    } else {
                        Throwable e = done.cause();
                        result.tryFail(e instanceof ConnectorException ? e : new ConnectorException(reason(e), e));
                    }
                });
        return result.future();
    }

    /**
     * SQLite's changes() (what JDBC reports) keeps the previous statement's count through DDL,
     * so a statement that changed nothing in total_changes() affected no rows.
     */
    private static Future<QueryResult> rowsAffected(SqlConnection conn, int reported, long changesBefore) {
        return conn.query("SELECT total_changes()").execute().map(after -> {
            long changed = after.iterator().next().getLong(0) - changesBefore;
            int affected = changed == 0 ? 0 : reported;
            return new QueryResult(new JsonArray().add(new JsonObject().put("rows_affected", affected)), ResultCut.NONE);
        });
    }

    /**
     * SQLite has integers, reals, text and blobs; booleans bind as 1 and 0, times as ISO-8601 text,
     * arrays and objects as JSON text (read with {@code json_each}, {@code json_extract}).
     */
    private static Tuple bindValues(List<Object> values) {
        Tuple tuple = Tuple.tuple();
        for (Object value : values) {
            if (value == null || value instanceof Long || value instanceof Double || value instanceof String
                    || value instanceof Boolean) {
                tuple.addValue(value);
            } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
                tuple.addValue(((Number) value).longValue());
            } else if (value instanceof Float || value instanceof BigDecimal) {
                tuple.addValue(((Number) value).doubleValue());
            } else if (value instanceof BigInteger && ((BigInteger) value).bitLength() < 64) {
                tuple.addValue(((BigInteger) value).longValue());
            } else if (value instanceof TemporalAccessor) {
                tuple.addValue(value.toString());
            } else if (value instanceof JsonArray || value instanceof JsonObject) {
                tuple.addValue(BindText.of(value));
            } else {
                throw new IllegalArgumentException("cannot bind a value of type " + value.getClass().getSimpleName());
            }
        }
        return tuple;
    }

    @Override
    public Future<Void> close() {
        return pool.close().eventually(() -> anchor == null
                ? Future.succeededFuture()
                : vertx.executeBlocking(() -> {
                    anchor.close();
                    return null;
                }, false));
    }

    /** The driver's reason, and for a table that does not exist, a hint at loading the schema. */
    private String reason(Throwable failure) {
        String reason = DriverMessages.of(failure);
        return reason.contains("no such table") ? reason + Failures.missingTableHint(adapterName, "sqlite") : reason;
    }
}
