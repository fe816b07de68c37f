package dev.hyperterse.connector.mysql;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.BindText;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.sql.SqlFlavor;
import dev.hyperterse.connector.sql.SqlRows;
import dev.hyperterse.connector.sql.SqlText;
import dev.hyperterse.connector.sql.StatementRun;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.MySQLException;
import io.vertx.sqlclient.Cursor;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.PreparedStatement;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * MySQL's and MariaDB's part of a {@link dev.hyperterse.connector.sql.ReactiveSqlConnector}.
 *
 * <p>MySQL converts bound values itself, so they go as they are (datetimes as their ISO-8601
 * text, which MySQL reads). A running statement is stopped with {@code KILL QUERY} from a
 * separate connection, for which each call first asks its connection's id.
 *
 * <p>Plain {@code SELECT}s are read through a server-side cursor in fetches sized by the call's
 * {@link ResultBudget}, so no more rows cross the network than it needs. Other statements are
 * read without one and only the rows the budget admits are kept: the client hangs when a cursor is opened on a statement that returns no
 * rows (an UPDATE, or {@code SELECT ... INTO}), and it cannot tell beforehand.
 */
final class MySqlFlavor implements SqlFlavor {
    private static final Logger LOG = LoggerFactory.getLogger(MySqlFlavor.class);
    private static final Pattern INTO = Pattern.compile("(?i)\\binto\\b");
    private static final Pattern RETURNING = Pattern.compile("(?i)\\breturning\\b");
    /** Statements described by reading the columns of an empty result. */
    private static final java.util.Set<String> READS = java.util.Set.of("SELECT", "WITH", "VALUES");
    /** Statements without result columns unless they say RETURNING (MariaDB). */
    private static final java.util.Set<String> WRITES = java.util.Set.of("INSERT", "UPDATE", "DELETE", "REPLACE");
    private static final Function<Object, Object> NO_SPECIAL = value -> null;

    /**
     * The longest a KILL QUERY connection may take to connect, whatever the adapter's
     * {@code connect_timeout}: the pool's connections reached the server moments ago. The
     * client's own default is a minute.
     */
    static final Duration KILL_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /**
     * How long a KILL QUERY may take in all (connecting, logging in, the KILL), as long as
     * PostgreSQL's cancel request is waited for. The call's connection goes back to the pool only
     * once its kill settled, so a server that accepts the connection and never answers would
     * otherwise keep it from the pool for good.
     */
    static final Duration KILL_GIVE_UP = Duration.ofSeconds(5);

    private final Vertx vertx;
    /** For the short connection that sends KILL QUERY (the pool may have none free). */
    private final MySQLConnectOptions killerOptions;
    private final NetClientOptions killerNet;

    /** @param connectTimeout the adapter's {@code connect_timeout}; a kill's connection takes no longer (nor 2 s) */
    MySqlFlavor(Vertx vertx, MySQLConnectOptions killerOptions, Duration connectTimeout) {
        this.vertx = vertx;
        this.killerOptions = killerOptions;
        Duration connect = connectTimeout.isZero() || connectTimeout.isNegative()
                || connectTimeout.compareTo(KILL_CONNECT_TIMEOUT) > 0 ? KILL_CONNECT_TIMEOUT : connectTimeout;
        this.killerNet = new NetClientOptions().setConnectTimeout((int) Math.max(1, connect.toMillis()));
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.MYSQL;
    }

    @Override
    public Future<Void> check(SqlConnection conn, CompiledStatement statement) {
        return conn.prepare(statement.text()).compose(PreparedStatement::close);
    }

    /**
     * The MySQL client reads the column definitions a prepare returns but keeps none of them, so
     * a read is described by running it in a form that returns no rows: as a derived table under
     * {@code LIMIT 0}, every parameter null, and reading the columns of the empty result. Writes
     * without {@code RETURNING} return no columns. Anything else (a CALL, a SHOW, a read the
     * derived table refuses, such as one that repeats a column name) is not described.
     */
    @Override
    public Future<ResultColumns> describe(SqlConnection conn, CompiledStatement statement) {
        String sql = statement.text();
        String keyword = SqlText.leadingKeyword(sql);
        return check(conn, statement).compose(checked -> {
            if (WRITES.contains(keyword)) {
                return Future.succeededFuture(RETURNING.matcher(sql).find() ? null : ResultColumns.NONE);
            }
            if (!READS.contains(keyword) || INTO.matcher(sql).find()) {
                return Future.succeededFuture(null);
            }
            Tuple nulls = Tuple.tuple();
            statement.parameters().forEach(p -> nulls.addValue(null));
            return conn.preparedQuery("SELECT * FROM (\n" + withoutFinalSemicolon(sql) + "\n) AS hyperterse_columns LIMIT 0")
                    .execute(nulls)
                    .map(rows -> MySqlResultColumns.of(rows.columnDescriptors()))
                    .otherwise(e -> {
                        LOG.debug("describing the result columns of a statement failed", e);
                        return null;
                    });
        });
    }

    private static String withoutFinalSemicolon(String sql) {
        String trimmed = sql.strip();
        return trimmed.endsWith(";") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }

    @Override
    public Future<QueryResult> execute(SqlConnection conn, CompiledStatement statement, List<Object> values,
                                       ResultBudget budget, StatementRun run) {
        Tuple tuple = bind(values);
        return conn.query("SELECT CONNECTION_ID()").execute().compose(ids -> {
            long id = ids.iterator().next().getLong(0);
            if (!run.start(() -> kill(id))) {
                return Future.failedFuture(StatementRun.notStarted());
            }
            String sql = statement.text();
            if (cursorable(sql)) {
                return conn.prepare(sql).compose(ps -> read(ps, tuple, budget));
            }
            // rows past the budget still cross the network, but are dropped as they arrive: stopping a
            // statement that writes (INSERT ... RETURNING) halfway would undo its writes
            return conn.preparedQuery(sql).collecting(SqlRows.collector(() -> budget, NO_SPECIAL)).execute(tuple)
                    .map(SqlRows::of);
        });
    }

    static boolean cursorable(String sql) {
        return SqlText.leadingKeyword(sql).equals("SELECT") && !INTO.matcher(sql).find();
    }

    private static Future<QueryResult> read(PreparedStatement ps, Tuple tuple, ResultBudget budget) {
        Cursor cursor = ps.cursor(tuple);
        return SqlRows.read(cursor, budget, true, NO_SPECIAL)
                .andThen(done -> {
                    // queued on the connection ahead of whatever it runs next, so not waited for
                    if (cursor.hasMore()) {
                        cursor.close().onFailure(e -> LOG.debug("closing a cursor failed", e));
                    }
                    ps.close().onFailure(e -> LOG.debug("closing a prepared statement failed", e));
                });
    }

    /**
     * Sends {@code KILL QUERY} on a connection of its own, which connects within
     * {@link #KILL_CONNECT_TIMEOUT} (or the adapter's shorter {@code connect_timeout}); given up
     * after {@link #KILL_GIVE_UP} in all.
     */
    private Future<Void> kill(long connectionId) {
        SqlClient killer = MySQLBuilder.client()
                .with(new PoolOptions().setMaxSize(1))
                .with(killerNet)
                .connectingTo(killerOptions)
                .using(vertx)
                .build();
        return killer.query("KILL QUERY " + connectionId).execute()
                .timeout(KILL_GIVE_UP.toMillis(), TimeUnit.MILLISECONDS)
                .eventually(killer::close)
                .onFailure(e -> LOG.debug("KILL QUERY {} failed", connectionId, e))
                .mapEmpty();
    }

    /** Tool inputs bind as they are; other numbers and JSON as text, which MySQL converts exactly. */
    private static Tuple bind(List<Object> values) {
        Tuple tuple = Tuple.tuple();
        for (Object value : values) {
            if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
                tuple.addValue(((Number) value).longValue());
            } else if (value instanceof Float) {
                tuple.addValue(((Float) value).doubleValue());
            } else if (value instanceof BigDecimal || value instanceof BigInteger || value instanceof JsonObject
                    || value instanceof JsonArray) {
                tuple.addValue(BindText.of(value));
            } else {
                tuple.addValue(value);
            }
        }
        return tuple;
    }

    /** Error 1146, {@code Table 'db.t' doesn't exist} (the same number on MySQL and MariaDB). */
    @Override
    public boolean missingTable(Throwable failure) {
        return failure instanceof MySQLException && ((MySQLException) failure).getErrorCode() == 1146;
    }

    @Override
    public String connectorType() {
        return "mysql";
    }

    /** {@code Unknown column 'nope' in 'SELECT' (error 1054, SQLSTATE 42S22)}. */
    @Override
    public String reason(Throwable failure) {
        if (failure instanceof MySQLException) {
            MySQLException e = (MySQLException) failure;
            String message = e.getMessage();
            // the client wraps the server's words as {errorMessage=..., errorCode=..., sqlState=...}
            String suffix = ", errorCode=" + e.getErrorCode() + ", sqlState=" + e.getSqlState() + "}";
            if (message != null && message.startsWith("{errorMessage=") && message.endsWith(suffix)) {
                message = message.substring("{errorMessage=".length(), message.length() - suffix.length());
            }
            return Failures.oneLine(new RuntimeException(message + " (error " + e.getErrorCode()
                    + (e.getSqlState() == null ? "" : ", SQLSTATE " + e.getSqlState()) + ")"));
        }
        return Failures.oneLine(failure);
    }
}
