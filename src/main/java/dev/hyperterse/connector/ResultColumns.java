package dev.hyperterse.connector;

import java.util.List;

/**
 * What each row of a statement holds, as the database described the prepared statement: its
 * columns in order, each with the JSON types its values take once the connector has turned them
 * into JSON. Any column may also be null (a NOT NULL column read through an outer join is null,
 * and no database's description says so). An empty list is a statement without result columns,
 * whose result is {@code [{"rows_affected": n}]}.
 *
 * @param columns in result order; a repeated name is one key of the row, holding the last column's value
 */
public record ResultColumns(List<Column> columns) {
    /** A statement that returns no columns (a write without RETURNING, DDL). */
    public static final ResultColumns NONE = new ResultColumns(List.of());

    public ResultColumns {
        columns = List.copyOf(columns);
    }

    /** True for a statement without result columns. */
    public boolean affectsRows() {
        return columns.isEmpty();
    }

    /**
     * One result column.
     *
     * @param jsonTypes the JSON Schema types of its non-null values ({@code integer}, {@code number},
     *                  {@code string}, {@code boolean}, {@code array}, {@code object}); empty when any
     *                  JSON value may come
     * @param format    a JSON Schema {@code format} every non-null value keeps ({@code uuid}), or null
     */
    public record Column(String name, List<String> jsonTypes, String format) {
        public Column {
            jsonTypes = List.copyOf(jsonTypes);
        }

        /** A column whose values may be any JSON value. */
        public static Column any(String name) {
            return new Column(name, List.of(), null);
        }

        public static Column of(String name, String... jsonTypes) {
            return new Column(name, List.of(jsonTypes), null);
        }
    }
}
