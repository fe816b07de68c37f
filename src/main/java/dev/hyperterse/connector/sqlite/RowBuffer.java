package dev.hyperterse.connector.sqlite;

import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.model.ResultCut;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

import java.util.Base64;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collector;

/**
 * Turns rows into JSON on the worker thread that reads them, one at a time as the driver steps
 * through them, and stops reading at the first row the call's {@link ResultBudget} does not admit
 * (one past the row limit, or one that would pass the size limit). The Vert.x JDBC client reads
 * a result set to its end and offers no per-statement cap, so the collector throws {@link Full}
 * to stop it; the client then closes the statement and the caller takes the rows gathered so far.
 */
final class RowBuffer implements Collector<Row, RowBuffer, RowBuffer> {
    private final ResultBudget budget;
    private final JsonArray rows = new JsonArray();

    RowBuffer(ResultBudget budget) {
        this.budget = budget;
    }

    JsonArray rows() {
        return rows;
    }

    ResultCut cut() {
        return budget.cut();
    }

    private void add(Row row) {
        JsonObject object = new JsonObject();
        for (int i = 0; i < row.size(); i++) {
            // A repeated column name keeps its first position and the last value.
            object.put(row.getColumnName(i), json(row.getValue(i)));
        }
        if (!budget.admit(object)) {
            throw new Full();
        }
        rows.add(object);
    }

    private static Object json(Object value) {
        if (value instanceof byte[]) {
            return Base64.getEncoder().encodeToString((byte[]) value);
        }
        if (value instanceof Double && !Double.isFinite((Double) value)) {
            // JSON has no infinities; SQLite stores 1e999 as Inf.
            return value.toString();
        }
        if (value == null || value instanceof Number || value instanceof String || value instanceof Boolean) {
            return value;
        }
        return value.toString();
    }

    @Override
    public Supplier<RowBuffer> supplier() {
        return () -> this;
    }

    @Override
    public BiConsumer<RowBuffer, Row> accumulator() {
        return RowBuffer::add;
    }

    @Override
    public BinaryOperator<RowBuffer> combiner() {
        return (a, b) -> a;
    }

    @Override
    public Function<RowBuffer, RowBuffer> finisher() {
        return Function.identity();
    }

    @Override
    public Set<Characteristics> characteristics() {
        return Set.of(Characteristics.IDENTITY_FINISH);
    }

    /** Thrown to stop reading; carries no stack trace because it is control flow, not an error. */
    static final class Full extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Full() {
            super("result limit reached", null, false, false);
        }
    }
}
