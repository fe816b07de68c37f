package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.model.ByteSizes;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.sql.SqlFlavor;
import dev.hyperterse.connector.sql.SqlRows;
import dev.hyperterse.connector.sql.SqlText;
import dev.hyperterse.connector.sql.StatementRun;
import io.vertx.core.Future;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Cursor;
import io.vertx.sqlclient.impl.UnnamedPortalCursor;
import io.vertx.sqlclient.PreparedStatement;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's part of a {@link dev.hyperterse.connector.sql.ReactiveSqlConnector}.
 *
 * <p>Each statement is described once per connector: {@code PREPARE} with every parameter of
 * type {@code unknown} makes the server infer the types from context, and
 * {@code pg_prepared_statements} reports them, so each value can be converted to exactly what the
 * parameter needs ({@link PgParameters}). A parameter the server cannot infer
 * ({@code {{ inputs.x }} IS NULL}) gets a {@code ::text} cast, found by the marker offsets the
 * template compiler recorded. The client's own retry for such parameters does not work through a
 * pool, and only for un-prepared queries. A statement with {@code numeric} result columns is run
 * with them cast to text ({@link PgNumericText}), which the client does not read on the event loop.
 *
 * <p>Rows are read through a cursor in fetches sized by the call's {@link ResultBudget}, asking
 * for no more than one row past the row limit, so the server stops there (an endless query
 * included) instead of sending everything, and rows too many for the size limit never arrive. The
 * statement under the cursor is prepared once per connection ({@link ConnectionStatements}). A
 * result the first fetch does not settle is read in a transaction (see {@link #read}). A row too
 * large for the result is refused before it is read, by ending its connection ({@link RowSizeGuard}).
 * A running statement is stopped with PostgreSQL's cancel request.
 */
final class PostgresFlavor implements SqlFlavor {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresFlavor.class);
    /** The statements {@code PREPARE} accepts; the others (DDL, CALL, DO) are checked by a plain prepare. */
    private static final Set<String> DESCRIBABLE = Set.of("SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE",
            "VALUES", "TABLE");
    private static final Pattern UNDETERMINED = Pattern.compile("parameter \\$(\\d+)");
    /** Failures after which a statement's cached shape may be out of date (a column changed type). */
    private static final Set<String> STALE_SHAPE_STATES = Set.of("42804", "42P18", "42883", "0A000", "22P02");

    /** cannot execute … in a read-only transaction */
    private static final String READ_ONLY_TRANSACTION = "25006";
    /** cached plan must not change result type */
    private static final String STALE_PLAN = "0A000";
    /** prepared statement … does not exist */
    private static final String NO_SUCH_STATEMENT = "26000";

    /** How PostgreSQL's detail of a NOT NULL or CHECK violation starts. */
    private static final String FAILING_ROW = "Failing row contains";

    private final ZoneId sessionZone;
    /** Statement text → what the server made of it; a failed description is not kept. */
    private final Map<String, Future<PgStatementShape>> shapes = new ConcurrentHashMap<>();
    private final AtomicLong describeNames = new AtomicLong();
    private final ConnectionStatements prepared;
    /** Reads (statement text) whose last result needed more than one fetch: they start in a transaction. */
    private final Set<String> longReads = ConcurrentHashMap.newKeySet();
    /** Reads (statement text) that failed as writing on a read-only shared connection: never shared again. */
    private final Set<String> writingReads = ConcurrentHashMap.newKeySet();
    private final CancelRequests cancels;

    /**
     * @param sessionZone the connections' {@code TimeZone} setting
     * @param poolSize    the pool's most connections (bounds the statements kept per connection)
     * @param cancels     how a running statement is stopped (null: not at all, for messages only)
     */
    PostgresFlavor(ZoneId sessionZone, int poolSize, CancelRequests cancels) {
        this.sessionZone = sessionZone;
        this.prepared = new ConnectionStatements(poolSize);
        this.cancels = cancels;
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.POSTGRES;
    }

    @Override
    public Future<Void> check(SqlConnection conn, CompiledStatement statement) {
        return shape(conn, statement).mapEmpty();
    }

    /** The statement as it is run (with any {@code ::text} casts), described by the server. */
    @Override
    public Future<ResultColumns> describe(SqlConnection conn, CompiledStatement statement) {
        return shape(conn, statement).compose(shape -> PgResultColumns.describe(conn, shape.text())
                .otherwise(e -> {
                    LOG.debug("describing the result columns of a statement failed", e);
                    return null;
                }));
    }

    @Override
    public Future<QueryResult> execute(SqlConnection conn, CompiledStatement statement, List<Object> values,
                                       ResultBudget budget, StatementRun run) {
        // the cancel request covers the statement's first describe too: its PREPARE waits on the
        // locks the statement needs, as long as the statement itself would
        if (!run.start(() -> cancels.cancel(conn))) {
            return Future.failedFuture(StatementRun.notStarted());
        }
        RowSizeGuard guard = RowSizeGuard.of(conn);
        return shape(conn, statement).compose(shape -> {
            Tuple tuple = PgParameters.bind(statement, shape, values, sessionZone);
            if (guard != null) {
                guard.arm(budget.byteLimit());
            }
            return prepared.on(conn, shape.runText())
                    .compose(ps -> read(conn, ps, tuple, budget, shape))
                    // a kept statement that failed (a changed table, a broken connection) is prepared afresh
                    .onFailure(e -> prepared.forget(conn, shape.runText()));
        }).transform(done -> {
            long refused = 0;
            if (guard != null) {
                guard.disarm();
                refused = guard.tripped();
            }
            if (refused > 0) {
                return Future.failedFuture(rowTooLarge(refused, budget.byteLimit()));
            }
            return done.succeeded() ? Future.succeededFuture(done.result()) : Future.failedFuture(done.cause());
        }).onFailure(e -> forgetIfStale(statement, e));
    }

    /**
     * A read (SELECT, VALUES, TABLE, SHOW; no WITH, which may write) already described, whose
     * last result one fetch held, and that has not been seen to write: it runs in the unnamed
     * portal with no transaction, so it may be sent behind other statements on one connection.
     */
    @Override
    public boolean shareable(CompiledStatement statement) {
        Future<PgStatementShape> known = shapes.get(statement.text());
        if (known == null || !known.succeeded()) {
            return false;
        }
        PgStatementShape shape = known.result();
        return shape.reads() && !shape.writesRows() && !longReads.contains(shape.text())
                && !writingReads.contains(shape.text());
    }

    /**
     * A shared connection runs read-only ({@code default_transaction_read_only}), so that no
     * statement on it can change anything: a statement that runs again alone after its connection
     * was given up, or a row too large ended it, changed nothing the first time.
     */
    @Override
    public Future<Void> share(SqlConnection conn) {
        return conn.query("SET default_transaction_read_only = on").execute().mapEmpty();
    }

    @Override
    public Future<Void> unshare(SqlConnection conn) {
        RowSizeGuard guard = RowSizeGuard.of(conn);
        if (guard != null) {
            guard.disarm();
        }
        // back to the session's own setting (an adapter option may set it)
        return conn.query("RESET default_transaction_read_only").execute().mapEmpty();
    }

    @Override
    public Future<QueryResult> executeShared(SqlConnection conn, CompiledStatement statement, List<Object> values,
                                             ResultBudget budget) {
        RowSizeGuard guard = RowSizeGuard.of(conn);
        return shape(conn, statement).compose(shape -> {
            Tuple tuple = PgParameters.bind(statement, shape, values, sessionZone);
            if (guard != null) {
                guard.armAtLeast(budget.byteLimit());
            }
            int fetch = budget.nextFetch();
            return prepared.on(conn, shape.runText()).compose(ps -> readFirstFetch(ps, tuple, budget, fetch, shape)
                    .transform(done -> {
                        if (done.succeeded() && done.result() != null) {
                            return Future.succeededFuture(done.result());
                        }
                        if (done.succeeded()) {
                            // more rows than one fetch: read again in a transaction, alone; its next calls start so
                            longReads.add(shape.text());
                            return Future.failedFuture(new OwnConnectionNeeded());
                        }
                        String state = sqlState(done.cause());
                        if (READ_ONLY_TRANSACTION.equals(state)) {
                            // a read that writes (a function, FOR UPDATE, nextval): it runs alone from now on
                            writingReads.add(shape.text());
                            return Future.failedFuture(new OwnConnectionNeeded());
                        }
                        forgetIfStale(statement, done.cause());
                        if (STALE_PLAN.equals(state) || NO_SUCH_STATEMENT.equals(state)) {
                            // the table changed under the kept plan: other calls' statements may be
                            // queued on this one, so only it is dropped, and the call runs again alone
                            prepared.forget(conn, shape.runText(), ps);
                            return Future.failedFuture(new OwnConnectionNeeded());
                        }
                        return Future.failedFuture(done.cause());
                    }));
        }).transform(done -> {
            if (guard != null && guard.tripped() > 0) {
                // some statement's row was too large (perhaps another call's): each runs again alone
                return Future.failedFuture(new OwnConnectionNeeded());
            }
            return done.succeeded() ? Future.succeededFuture(done.result()) : Future.failedFuture(done.cause());
        });
    }

    @Override
    public boolean ended(SqlConnection conn) {
        RowSizeGuard guard = RowSizeGuard.of(conn);
        return guard != null && guard.tripped() > 0 || RowSizeGuard.closed(conn);
    }

    @Override
    public Future<Void> abandon(SqlConnection conn) {
        Future<Void> cancelled = cancels == null ? Future.succeededFuture()
                : cancels.cancel(conn).otherwise(e -> {
                    LOG.debug("a cancel request for a given-up connection failed", e);
                    return null;
                });
        Future<Void> ended = RowSizeGuard.end(conn);
        // given back (and so lent again) only once the cancel request cannot reach another statement
        return Future.join(cancelled, ended).transform(x -> Future.succeededFuture());
    }

    /** Why a statement whose row the {@link RowSizeGuard} refused failed. */
    static ConnectorException rowTooLarge(long rowBytes, long byteLimit) {
        return new ConnectorException("the result exceeds result_max_bytes (" + ByteSizes.show(byteLimit)
                + "): a row of " + rowBytes + " bytes came from PostgreSQL, too large to read; the statement was"
                + " stopped. Select fewer or shorter columns");
    }

    /**
     * Outside a transaction, a cursor's portal ends with the implicit transaction of its first
     * fetch, so only one fetch can be read from it. A read whose first fetch settles the result (a
     * row limit under the first fetch, or fewer rows than it) takes one round trip and no
     * transaction; a read that needs more is read again from its start in a transaction (reading
     * changes nothing), and its later calls start in one while their results stay that long (so
     * a statement that always returns many rows runs once per call, not twice); a write that may
     * return more rows than one fetch runs in a transaction from the start (so it is never run
     * twice). Other statements (DDL, {@code CALL}, {@code DO}, {@code VACUUM}: some cannot run in a
     * transaction block) run without one, and fail clearly should they return more rows than one
     * fetch.
     */
    private Future<QueryResult> read(SqlConnection conn, PreparedStatement ps, Tuple tuple,
                                     ResultBudget budget, PgStatementShape shape) {
        boolean oneFetchSettles = budget.settledByFirstFetch();
        if (!oneFetchSettles && shape.writesRows()) {
            return readAllInTransaction(conn, ps, tuple, budget, shape);
        }
        int fetch = budget.nextFetch();
        if (!oneFetchSettles && shape.reads() && longReads.contains(shape.text())) {
            return readAllInTransaction(conn, ps, tuple, budget, shape).onSuccess(result -> {
                if (result.cut() == ResultCut.NONE && result.rows().size() < fetch) {
                    // one fetch would have done: the next call tries without a transaction again
                    longReads.remove(shape.text());
                }
            });
        }
        return readFirstFetch(ps, tuple, budget, fetch, shape).compose(result -> {
            if (result != null) {
                return Future.succeededFuture(result);
            }
            if (shape.reads()) {
                longReads.add(shape.text());
                return readAllInTransaction(conn, ps, tuple, budget.fresh(), shape);
            }
            return Future.failedFuture(new ConnectorException("the " + SqlText.leadingKeyword(shape.text())
                    + " statement returned more than " + fetch + " rows, more than PostgreSQL lets one fetch outside"
                    + " a transaction read; return the rows from a SELECT, or set a row_limit under " + fetch));
        });
    }

    /**
     * The first fetch of a read, in the unnamed portal (no portal name to make, none to close);
     * null when it did not settle the result.
     */
    private static Future<QueryResult> readFirstFetch(PreparedStatement ps, Tuple tuple, ResultBudget budget,
                                                      int fetch, PgStatementShape shape) {
        Cursor cursor = UnnamedPortalCursor.readOnce(ps, tuple);
        return closingAfter(cursor, SqlRows.readFirstFetch(cursor, budget, fetch, shape.counts(),
                PgResultValues::special, shape.decimalText()));
    }

    private static Future<QueryResult> readAllInTransaction(SqlConnection conn, PreparedStatement ps, Tuple tuple,
                                                            ResultBudget budget, PgStatementShape shape) {
        return inTransaction(conn, () -> readAll(ps, tuple, budget, shape));
    }

    private static Future<QueryResult> readAll(PreparedStatement ps, Tuple tuple, ResultBudget budget,
                                               PgStatementShape shape) {
        Cursor cursor = ps.cursor(tuple);
        return closingAfter(cursor, SqlRows.read(cursor, budget, shape.counts(), PgResultValues::special,
                shape.decimalText()));
    }

    private static Future<QueryResult> closingAfter(Cursor cursor, Future<QueryResult> reading) {
        return reading.andThen(done -> {
            // queued on the connection ahead of whatever it runs next, so not waited for
            if (cursor.hasMore()) {
                cursor.close().onFailure(e -> LOG.debug("closing a cursor failed", e));
            }
        });
    }

    /** Runs the work in a transaction, committed when it succeeds (a write counts only then). */
    private static Future<QueryResult> inTransaction(SqlConnection conn, Supplier<Future<QueryResult>> work) {
        return conn.begin().compose(tx -> work.get().transform(done -> {
            if (done.succeeded()) {
                return tx.commit().map(done.result());
            }
            return tx.rollback().transform(ignored -> Future.<QueryResult>failedFuture(done.cause()));
        }));
    }

    private void forgetIfStale(CompiledStatement statement, Throwable failure) {
        if (staleShape(failure)) {
            shapes.remove(statement.text());
        }
    }

    private static boolean staleShape(Throwable failure) {
        return STALE_SHAPE_STATES.contains(sqlState(failure));
    }

    /** The failure's SQLSTATE when PostgreSQL reported it; else "". */
    private static String sqlState(Throwable failure) {
        return failure instanceof PgException e && e.getSqlState() != null ? e.getSqlState() : "";
    }

    /** The statement's shape, described on this connection the first time it is needed. */
    private Future<PgStatementShape> shape(SqlConnection conn, CompiledStatement statement) {
        Future<PgStatementShape> known = shapes.get(statement.text());
        if (known != null && known.succeeded()) {
            // a new future without a context: the kept one belongs to the context that described
            // the statement, and composing on it would hand every call to that context (another
            // event loop, often) and back
            return Future.succeededFuture(known.result());
        }
        if (known != null && !known.failed()) {
            return known;
        }
        Future<PgStatementShape> fresh = describeShape(conn, statement);
        shapes.put(statement.text(), fresh);
        fresh.onFailure(e -> shapes.remove(statement.text(), fresh));
        return fresh;
    }

    private Future<PgStatementShape> describeShape(SqlConnection conn, CompiledStatement statement) {
        String[] types = new String[statement.parameters().size()];
        Arrays.fill(types, "unknown");
        if (!DESCRIBABLE.contains(SqlText.leadingKeyword(statement.text()))) {
            return describeByClientPrepare(conn, statement, types);
        }
        return describeShape(conn, statement, types).compose(shape -> numericsAsText(conn, shape));
    }

    /**
     * The statement run so that its {@code numeric} result columns come as text
     * ({@link PgNumericText}), when it has any and PostgreSQL takes it so; else run as it is. The
     * rewritten statement is prepared here once, so that one PostgreSQL refuses never reaches a
     * call. Any other failure (a broken connection) fails the description, which is then not kept:
     * a shape kept without the rewrite would leave the statement's numbers to the client for good.
     */
    private static Future<PgStatementShape> numericsAsText(SqlConnection conn, PgStatementShape shape) {
        return PgResultColumns.descriptors(conn, shape.text()).compose(columns -> {
            Set<Integer> numeric = PgNumericText.numericColumns(columns);
            if (numeric.isEmpty()) {
                return Future.succeededFuture(shape);
            }
            String rewritten = PgNumericText.rewrite(shape.text(), columns, numeric);
            return PgResultColumns.descriptors(conn, rewritten).map(checked -> shape.runAs(rewritten, numeric))
                    .recover(e -> {
                        if (!(e instanceof PgException)) {
                            return Future.failedFuture(e);
                        }
                        // the client then reads its numeric values itself, as it reads a CALL's
                        LOG.debug("a statement's numeric columns stay numeric: PostgreSQL refused it rewritten: {}",
                                reasonOf((PgException) e));
                        return Future.succeededFuture(shape);
                    });
        });
    }

    private static String reasonOf(PgException e) {
        return e.getErrorMessage() + " (SQLSTATE " + e.getSqlState() + ")";
    }

    /**
     * For statements PREPARE does not take ({@code CALL}, DDL): the client's own prepare is a named
     * statement, which the server lists with its parameter types too. Without those types a
     * {@code CALL}'s arguments would go to the client as they come, which cuts a 64-bit value for
     * an {@code integer} argument to 32 bits and refuses text for a {@code date}.
     */
    private static Future<PgStatementShape> describeByClientPrepare(SqlConnection conn, CompiledStatement statement,
                                                                   String[] types) {
        return conn.prepare(statement.text()).compose(ps -> conn.preparedQuery("SELECT parameter_types::oid[]::int8[],"
                                + " parameter_types::text[] FROM pg_prepared_statements WHERE NOT from_sql"
                                + " AND statement = $1 LIMIT 1")
                        .execute(Tuple.of(statement.text()))
                        .eventually(ps::close))
                .map(rows -> rows.size() == 0 ? PgStatementShape.untyped(statement.text())
                        : shapeOf(statement, types, rows));
    }

    /** PREPARE with the given types; each undeterminable parameter found becomes text, and it is tried again. */
    private Future<PgStatementShape> describeShape(SqlConnection conn, CompiledStatement statement, String[] types) {
        String name = "hyperterse_describe_" + describeNames.incrementAndGet();
        String prepare = "PREPARE " + name + (types.length == 0 ? "" : " (" + String.join(", ", types) + ")")
                + " AS " + statement.text() + "\n";
        return conn.query(prepare).execute()
                .compose(prepared -> conn.preparedQuery("SELECT parameter_types::oid[]::int8[],"
                                + " parameter_types::text[] FROM pg_prepared_statements WHERE name = $1")
                        .execute(Tuple.of(name))
                        .eventually(() -> conn.query("DEALLOCATE " + name).execute()))
                .map(rows -> shapeOf(statement, types, rows))
                .recover(e -> {
                    int undetermined = undetermined(e);
                    if (undetermined >= 1 && undetermined <= types.length && types[undetermined - 1].equals("unknown")) {
                        types[undetermined - 1] = "text";
                        return describeShape(conn, statement, types);
                    }
                    return Future.failedFuture(e);
                });
    }

    /** The parameter number in "could not determine data type of parameter $n", or -1. */
    private static int undetermined(Throwable e) {
        if ("42P18".equals(sqlState(e))) {
            Matcher m = UNDETERMINED.matcher(String.valueOf(((PgException) e).getErrorMessage()));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return -1;
    }

    private static PgStatementShape shapeOf(CompiledStatement statement, String[] types, RowSet<Row> rows) {
        Row row = rows.iterator().next();
        Long[] oids = row.getArrayOfLongs(0);
        String[] names = row.getArrayOfStrings(1);
        List<Integer> typeOids = new ArrayList<>(oids.length);
        for (Long oid : oids) {
            typeOids.add(oid.intValue());
        }
        return new PgStatementShape(withTextCasts(statement, types), typeOids, Arrays.asList(names));
    }

    /** The statement with {@code ($n::text)} for each parameter that had to be given a type. */
    private static String withTextCasts(CompiledStatement statement, String[] types) {
        String text = statement.text();
        List<Integer> offsets = statement.markerOffsets();
        StringBuilder out = new StringBuilder(text.length() + 16);
        int copied = 0;
        for (int i = 0; i < types.length; i++) {
            if (!types[i].equals("text")) {
                continue;
            }
            if (offsets.isEmpty()) {
                throw new ConnectorException("PostgreSQL cannot infer the type of parameter $" + (i + 1)
                        + "; give it one in the statement, e.g. {{ inputs.x }}::text");
            }
            String marker = "$" + (i + 1);
            int at = offsets.get(i);
            if (!text.startsWith(marker, at)) {
                throw new IllegalStateException("marker " + marker + " is not at offset " + at + " of the statement");
            }
            out.append(text, copied, at).append('(').append(marker).append("::text)");
            copied = at + marker.length();
        }
        return out.append(text, copied, text.length()).toString();
    }

    /** SQLSTATE 42P01, undefined_table. */
    @Override
    public boolean missingTable(Throwable failure) {
        return "42P01".equals(sqlState(failure));
    }

    @Override
    public String connectorType() {
        return "postgres";
    }

    /**
     * {@code column "nope" does not exist (SQLSTATE 42703)}, with the server's detail (unless it
     * shows a whole row) and hint.
     */
    @Override
    public String reason(Throwable failure) {
        if (failure instanceof PgException) {
            PgException e = (PgException) failure;
            StringBuilder out = new StringBuilder(String.valueOf(e.getErrorMessage()));
            out.append(" (SQLSTATE ").append(e.getSqlState()).append(')');
            // "Failing row contains (...)" (NOT NULL, CHECK) is the whole row, columns the tool
            // never returns included, so it stays out of what the caller reads
            if (e.getDetail() != null && !e.getDetail().isBlank() && !e.getDetail().startsWith(FAILING_ROW)) {
                out.append(": ").append(e.getDetail());
            }
            if (e.getHint() != null && !e.getHint().isBlank()) {
                out.append(" Hint: ").append(e.getHint());
            }
            return Failures.oneLine(new RuntimeException(out.toString()));
        }
        return Failures.oneLine(failure);
    }
}
