package dev.hyperterse.connector.sql;

import dev.hyperterse.connector.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
 * keeps its first position and the last value), at most the row limit of them; a statement that
 * returns no columns (a write without RETURNING, DDL) becomes {@code [{"rows_affected": n}]}.
 */
public final class SqlRows {

    private SqlRows() {
    }

    /**
     * From rows read through a cursor that was asked for {@code limit + 1} rows.
     *
     * @param more   whether the cursor has rows left after these
     * @param counts whether the driver's row count means rows written (PostgreSQL's client reads a
     *               number out of every command tag, {@code CREATE TABLE} included)
     */
    public static QueryResult of(RowSet<Row> rows, int limit, boolean more, boolean counts,
                                 Function<Object, Object> special) {
        List<String> columns = rows.columnsNames();
        if (columns == null || columns.isEmpty()) {
            return affected(counts ? rows.rowCount() : 0);
        }
        JsonArray out = new JsonArray();
        for (Row row : rows) {
            if (out.size() == limit) {
                more = true;
                break;
            }
            out.add(object(row, special));
        }
        return new QueryResult(out, more);
    }

    /** From a result read to its end by {@link #collector}: keeps the rows the collector kept. */
    public static QueryResult of(SqlResult<Capped> result) {
        List<String> columns = result.columnsNames();
        if (columns == null || columns.isEmpty()) {
            return affected(result.rowCount());
        }
        Capped capped = result.value();
        return new QueryResult(capped.rows, capped.truncated);
    }

    public static QueryResult affected(long count) {
        return new QueryResult(new JsonArray().add(new JsonObject().put("rows_affected", count)), false);
    }

    private static JsonObject object(Row row, Function<Object, Object> special) {
        JsonObject object = new JsonObject();
        for (int i = 0; i < row.size(); i++) {
            object.put(row.getColumnName(i), SqlValues.json(row.getValue(i), special));
        }
        return object;
    }

    /**
     * For statements read without a cursor: keeps the first {@code limit} rows as JSON and only
     * notes that more came, so memory stays bounded whatever the statement returns.
     */
    public static Collector<Row, Capped, Capped> collector(int limit, Function<Object, Object> special) {
        return new Collector<>() {
            @Override
            public Supplier<Capped> supplier() {
                return Capped::new;
            }

            @Override
            public BiConsumer<Capped, Row> accumulator() {
                return (capped, row) -> {
                    if (capped.rows.size() < limit) {
                        capped.rows.add(object(row, special));
                    } else {
                        capped.truncated = true;
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
        private boolean truncated;
    }
}
