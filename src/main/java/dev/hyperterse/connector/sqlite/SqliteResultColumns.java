package dev.hyperterse.connector.sqlite;

import dev.hyperterse.connector.ResultColumns;
import org.sqlite.core.CoreResultSet;

import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The result columns of a prepared SQLite statement, from its JDBC metadata ({@code sqlite3_column_decltype}
 * and {@code sqlite3_column_table_name} underneath).
 *
 * <p>SQLite's declared types are affinities, not rules: a column declared {@code INTEGER} keeps
 * {@code 'abc'} as text, and an expression has no declared type at all. Every SQLite value is an
 * integer, a real, text or a blob, which become a number or a string in JSON (a blob as base64,
 * an infinite real as {@code "Infinity"}), so that is what a column is described as. The one
 * exception is a table column of TEXT affinity: SQLite stores every value written to it as text
 * (or leaves a blob a blob), so it is a string. Not so in a compound {@code SELECT}
 * ({@code UNION}, {@code INTERSECT}, {@code EXCEPT}), whose column reports the first arm's table
 * column while the other arms may bring numbers; such a statement is described without it.
 */
final class SqliteResultColumns {
    private static final Pattern COMPOUND = Pattern.compile("(?i)\\b(?:union|intersect|except)\\b");

    private SqliteResultColumns() {
    }

    static ResultColumns of(PreparedStatement prepared, String sql) throws SQLException {
        ResultSetMetaData meta = prepared.getMetaData();
        // xerial's getColumnCount() throws for a statement without result columns; the column
        // names it read when preparing (a public field of its result set) tell without throwing
        if (meta == null || meta instanceof CoreResultSet && ((CoreResultSet) meta).colsMeta != null
                && ((CoreResultSet) meta).colsMeta.length == 0) {
            return ResultColumns.NONE;
        }
        boolean compound = COMPOUND.matcher(sql).find();
        int count = meta.getColumnCount();
        List<ResultColumns.Column> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String table = meta.getTableName(i);
            boolean tableColumn = table != null && !table.isEmpty();
            columns.add(!compound && tableColumn && textAffinity(meta.getColumnTypeName(i))
                    ? ResultColumns.Column.of(meta.getColumnLabel(i), "string")
                    : ResultColumns.Column.of(meta.getColumnLabel(i), "number", "string"));
        }
        return new ResultColumns(columns);
    }

    /** SQLite's rule: a declared type with INT is INTEGER; else one with CHAR, CLOB or TEXT is TEXT. */
    static boolean textAffinity(String declared) {
        if (declared == null) {
            return false;
        }
        String type = declared.toUpperCase(Locale.ROOT);
        return !type.contains("INT") && (type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT"));
    }
}
