package dev.hyperterse.connector.postgres;

import io.vertx.sqlclient.desc.ColumnDescriptor;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A statement with {@code numeric} result columns, rewritten so that PostgreSQL sends their values
 * as text.
 *
 * <p>The client turns a {@code numeric} value into a {@code BigDecimal} as its row arrives, on the
 * event loop, in time growing with the square of its digits. A {@code numeric} holds up to 131,072
 * digits before its point, which a caller can have the server make out of a few characters
 * ({@code {{ inputs.n }}::text::numeric} given {@code 1e131000}): a quarter of a second per value,
 * the loop held throughout. Sent as text, a value costs what its bytes cost, and
 * {@link dev.hyperterse.connector.sql.SqlValues#decimalText} reads it as a number only when it is
 * short.
 *
 * <p>The statement becomes a {@code WITH} query whose columns are renamed by position (so a repeated
 * or odd name needs nothing special), selected in order, the numeric ones cast to text, each under
 * its own name again:
 * <pre>
 * WITH hyperterse_rows (c1, c2) AS (statement) SELECT c1 AS "id", c2::text AS "price" FROM hyperterse_rows
 * </pre>
 * A {@code WITH} query may be a {@code SELECT}, {@code VALUES}, {@code TABLE}, or an
 * {@code INSERT}, {@code UPDATE} or {@code DELETE} with {@code RETURNING} (run once and to the
 * end, as it is on its own); the rows keep the statement's order, as a sorted query is not merged
 * into the one reading it. PostgreSQL refuses some statements there (a {@code WITH} whose own
 * queries write), so a rewritten statement is prepared once before it is used, and a statement
 * refused stays as written.
 */
final class PgNumericText {
    private static final String ROWS = "hyperterse_rows";

    private PgNumericText() {
    }

    /** The positions of the columns holding {@code numeric} values or arrays of them. */
    static Set<Integer> numericColumns(List<ColumnDescriptor> columns) {
        Set<Integer> numeric = new LinkedHashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            String type = columns.get(i).typeName();
            if (type.equals("NUMERIC") || type.equals("NUMERIC_ARRAY")) {
                numeric.add(i);
            }
        }
        return numeric;
    }

    /**
     * The statement returning the same rows, with the columns at {@code numeric} as text.
     *
     * @param columns the statement's result columns, as the server described them
     */
    static String rewrite(String statement, List<ColumnDescriptor> columns, Set<Integer> numeric) {
        StringBuilder names = new StringBuilder();
        StringBuilder select = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            String position = "c" + (i + 1);
            if (i > 0) {
                names.append(", ");
                select.append(", ");
            }
            names.append(position);
            select.append(ROWS).append('.').append(position);
            if (numeric.contains(i)) {
                select.append(columns.get(i).isArray() ? "::text[]" : "::text");
            }
            select.append(" AS ").append(quoted(columns.get(i).name()));
        }
        // the line break ends a comment the statement may end with
        return "WITH " + ROWS + " (" + names + ") AS (\n" + statement + "\n) SELECT " + select + " FROM " + ROWS;
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
