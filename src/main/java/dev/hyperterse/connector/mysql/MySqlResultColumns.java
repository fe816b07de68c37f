package dev.hyperterse.connector.mysql;

import dev.hyperterse.connector.ResultColumns;
import io.vertx.sqlclient.desc.ColumnDescriptor;

import java.util.ArrayList;
import java.util.List;

/**
 * The JSON types MySQL and MariaDB column values become ({@link dev.hyperterse.connector.sql.SqlValues}),
 * by the MySQL client's name for the column's type.
 */
final class MySqlResultColumns {

    private MySqlResultColumns() {
    }

    static ResultColumns of(List<ColumnDescriptor> descriptors) {
        List<ResultColumns.Column> columns = new ArrayList<>(descriptors.size());
        for (ColumnDescriptor d : descriptors) {
            columns.add(column(d.name(), d.typeName()));
        }
        return new ResultColumns(columns);
    }

    /**
     * @param typeName the client's name for the type ({@code INT32}, {@code U_INT64}, {@code VARSTRING},
     *                 {@code DATETIME}, …)
     */
    static ResultColumns.Column column(String name, String typeName) {
        switch (typeName) {
            case "INT8":
            case "INT16":
            case "INT24":
            case "INT32":
            case "INT64":
            case "U_INT8":
            case "U_INT16":
            case "U_INT24":
            case "U_INT32":
            case "YEAR":
            case "BIT":
                return ResultColumns.Column.of(name, "integer");
            case "U_INT64":
                // past 2^53 a double would round it, so it comes as a string of its digits
                return ResultColumns.Column.of(name, "integer", "string");
            case "DOUBLE":
            case "FLOAT":
                return ResultColumns.Column.of(name, "number");
            case "NUMERIC":
                return ResultColumns.Column.of(name, "number", "string");
            case "STRING":
            case "VARSTRING":
            case "TINY_TEXT":
            case "TEXT":
            case "MEDIUM_TEXT":
            case "LONG_TEXT":
            case "BINARY":
            case "VARBINARY":
            case "TINY_BLOB":
            case "BLOB":
            case "MEDIUM_BLOB":
            case "LONG_BLOB":
            case "DATE":
            case "TIME":
            case "DATETIME":
            case "TIMESTAMP":
                return ResultColumns.Column.of(name, "string");
            default:
                // JSON (any JSON value), GEOMETRY, NULL
                return ResultColumns.Column.any(name);
        }
    }
}
