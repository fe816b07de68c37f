package dev.hyperterse.connector.sql;

import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.model.ResultCut;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Cursor;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlResult;

import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collector;

/**
 * Rows of a statement as a {@link QueryResult}: objects in column order (a repeated column name
 * keeps its first position and the last value), as many as the call's {@link ResultBudget}
 * admits; a statement that returns no columns (a write without RETURNING, DDL) becomes
 * {@code [{"rows_affected": n}]}.
 */
public final class SqlRows {

    private SqlRows() {
    }

    /**
     * Reads a cursor in fetches the budget sizes ({@link ResultBudget#nextFetch()}), turning each
     * row into JSON as it comes and stopping at the first row that does not fit, so no more than
     * one fetch of rows beyond what the result keeps is ever in memory. The cursor is left open
     * when rows remain; the caller closes it.
     *
     * @param counts      whether the driver's row count means rows written (PostgreSQL's client reads a
     *                    number out of every command tag, {@code CREATE TABLE} included)
     * @param decimalText the positions of the columns whose values are decimals sent as text
     *                    ({@link SqlValues#decimalText})
     */
    public static Future<QueryResult> read(Cursor cursor, ResultBudget budget, boolean counts,
                                           Function<Object, Object> special, Set<Integer> decimalText) {
        return read(cursor, budget, counts, new Columns(special, decimalText), new JsonArray(), true, 0);
    }

    /** As {@link #read(Cursor, ResultBudget, boolean, Function, Set)}, with no column of decimal text. */
    public static Future<QueryResult> read(Cursor cursor, ResultBudget budget, boolean counts,
                                           Function<Object, Object> special) {
        return read(cursor, budget, counts, special, Set.of());
    }

    /**
     * As {@link #read}, but one fetch only, of {@code fetch} rows (the budget's
     * {@link ResultBudget#nextFetch()}, taken by the caller): null when the cursor has rows the
     * budget still wants, for a caller whose cursor cannot be read further (its portal ended with
     * the fetch).
     */
    public static Future<QueryResult> readFirstFetch(Cursor cursor, ResultBudget budget, int fetch, boolean counts,
                                                     Function<Object, Object> special, Set<Integer> decimalText) {
        return read(cursor, budget, counts, new Columns(special, decimalText), new JsonArray(), true, fetch);
    }

    /** @param once the size of the only fetch to read, or 0 for fetches sized by the budget until the end */
    private static Future<QueryResult> read(Cursor cursor, ResultBudget budget, boolean counts,
                                            Columns columns, JsonArray out, boolean first, int once) {
        return cursor.read(once > 0 ? once : budget.nextFetch()).compose(rows -> {
            List<String> names = rows.columnsNames();
            if (first && (names == null || names.isEmpty())) {
                return Future.succeededFuture(affected(counts ? rows.rowCount() : 0));
            }
            take(rows, budget, columns, out);
            if (budget.full() || !cursor.hasMore()) {
                return Future.succeededFuture(new QueryResult(out, budget.cut()));
            }
            return once > 0 ? Future.succeededFuture(null) : read(cursor, budget, counts, columns, out, false, 0);
        });
    }

    private static void take(RowSet<Row> rows, ResultBudget budget, Columns columns, JsonArray out) {
        for (Row row : rows) {
            JsonObject object = object(row, columns);
            if (!budget.admit(object)) {
                return;
            }
            out.add(object);
        }
    }

    /** From a result read to its end by {@link #collector}: keeps the rows the collector kept. */
    public static QueryResult of(SqlResult<Capped> result) {
        List<String> columns = result.columnsNames();
        if (columns == null || columns.isEmpty()) {
            return affected(result.rowCount());
        }
        Capped capped = result.value();
        return new QueryResult(capped.rows, capped.budget.cut());
    }

    public static QueryResult affected(long count) {
        return new QueryResult(new JsonArray().add(new JsonObject().put("rows_affected", count)), ResultCut.NONE);
    }

    private static JsonObject object(Row row, Columns columns) {
        JsonObject object = new JsonObject();
        for (int i = 0; i < row.size(); i++) {
            Object value = row.getValue(i);
            object.put(row.getColumnName(i), columns.decimalText.contains(i) ? SqlValues.decimalText(value)
                    : SqlValues.json(value, columns.special));
        }
        return object;
    }

    /** How a statement's column values become JSON. */
    private record Columns(Function<Object, Object> special, Set<Integer> decimalText) {
    }

    /**
     * For statements read without a cursor: keeps rows as JSON while the budget admits them and
     * then drops the rest as they arrive, so memory stays bounded whatever the statement returns.
     * Rows after a cut are not even turned into JSON.
     */
    public static Collector<Row, Capped, Capped> collector(Supplier<ResultBudget> budgets,
                                                           Function<Object, Object> special) {
        Columns columns = new Columns(special, Set.of());
        return new Collector<>() {
            @Override
            public Supplier<Capped> supplier() {
                return () -> new Capped(budgets.get());
            }

            @Override
            public BiConsumer<Capped, Row> accumulator() {
                return (capped, row) -> {
                    if (capped.budget.full()) {
                        return;
                    }
                    JsonObject object = object(row, columns);
                    if (capped.budget.admit(object)) {
                        capped.rows.add(object);
                    }
                };
            }

            @Override
            public BinaryOperator<Capped> combiner() {
                return (a, b) -> a;
            }

            @Override
            public Function<Capped, Capped> finisher() {
                return Function.identity();
            }

            @Override
            public Set<Characteristics> characteristics() {
                return Set.of(Characteristics.IDENTITY_FINISH);
            }
        };
    }

    /** What {@link #collector} keeps. */
    public static final class Capped {
        private final JsonArray rows = new JsonArray();
        private final ResultBudget budget;

        Capped(ResultBudget budget) {
            this.budget = budget;
        }
    }
}
