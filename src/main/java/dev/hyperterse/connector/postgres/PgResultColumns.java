package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.ResultColumns;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.desc.ColumnDescriptor;
import io.vertx.sqlclient.internal.PreparedStatement;
import io.vertx.sqlclient.internal.RowDesc;
import io.vertx.sqlclient.internal.SqlConnectionBase;
import io.vertx.sqlclient.internal.command.CloseStatementCommand;
import io.vertx.sqlclient.internal.command.PrepareStatementCommand;

import java.util.ArrayList;
import java.util.List;

/**
 * The result columns of a statement as PostgreSQL describes it at prepare time (its
 * RowDescription), with the JSON types {@link PgResultValues} and
 * {@link dev.hyperterse.connector.sql.SqlValues} turn their values into.
 *
 * <p>The public {@link io.vertx.sqlclient.PreparedStatement} of Vert.x 5 does not expose the row
 * description; the client's internal {@link PreparedStatement#rowDesc()} does. This class is the
 * only place that uses the client's internal API: it schedules the same prepare command a
 * connection's own {@code prepare} sends, reads the column descriptors, and closes the statement
 * again. {@code PgResultColumnsTest} pins it to the client version in use; should the internal
 * API change, the description fails, and a failed description only means the tool has no output
 * schema.
 */
final class PgResultColumns {

    private PgResultColumns() {
    }

    /** Prepares {@code sql} on the connection, reads its result columns and closes it. */
    static Future<ResultColumns> describe(SqlConnection conn, String sql) {
        return descriptors(conn, sql).map(PgResultColumns::of);
    }

    /** The client's descriptors of the result columns of {@code sql}, prepared on the connection and closed. */
    static Future<List<ColumnDescriptor>> descriptors(SqlConnection conn, String sql) {
        if (!(conn instanceof SqlConnectionBase)) {
            return Future.failedFuture(new IllegalStateException("not a Vert.x SQL client connection: "
                    + conn.getClass().getName()));
        }
        SqlConnectionBase<?> base = (SqlConnectionBase<?>) conn;
        Promise<PreparedStatement> prepared = Promise.promise();
        base.schedule(new PrepareStatementCommand(sql, new PrepareOptions(), true), prepared);
        return prepared.future().compose(statement -> {
            RowDesc rows = statement.rowDesc();
            List<ColumnDescriptor> columns = rows == null ? List.of() : List.copyOf(rows.columnDescriptor());
            Promise<Void> closed = Promise.promise();
            base.schedule(new CloseStatementCommand(statement), closed);
            return closed.future().map(columns);
        });
    }

    /** Each column with the JSON types its values become; a type not listed here may be anything. */
    static ResultColumns of(List<ColumnDescriptor> descriptors) {
        List<ResultColumns.Column> columns = new ArrayList<>(descriptors.size());
        for (ColumnDescriptor d : descriptors) {
            columns.add(column(d.name(), d.typeName(), d.isArray()));
        }
        return new ResultColumns(columns);
    }

    /**
     * @param typeName the client's name for the type ({@code INT4}, {@code TIMESTAMPTZ}; {@code UNKNOWN}
     *                 for types it has no codec for, such as enums, domains and extensions' types)
     */
    static ResultColumns.Column column(String name, String typeName, boolean array) {
        if (array) {
            // elements follow the element type, but a PostgreSQL array may have several dimensions
            return ResultColumns.Column.of(name, "array");
        }
        switch (typeName) {
            case "BOOL":
                return ResultColumns.Column.of(name, "boolean");
            case "INT2":
            case "INT4":
            case "INT8":
                return ResultColumns.Column.of(name, "integer");
            case "FLOAT4":
            case "FLOAT8":
            case "NUMERIC":
            case "MONEY":
                // NaN and infinities, and decimals a double would round, are strings
                return ResultColumns.Column.of(name, "number", "string");
            case "UUID":
                return new ResultColumns.Column(name, List.of("string"), "uuid");
            case "CHAR":
            case "VARCHAR":
            case "BPCHAR":
            case "TEXT":
            case "NAME":
            case "DATE":
            case "TIME":
            case "TIMETZ":
            case "TIMESTAMP":
            case "TIMESTAMPTZ":
            case "INTERVAL":
            case "BYTEA":
            case "INET":
            case "CIDR":
                // dates and times keep no format: 'infinity' is a PostgreSQL date too
                return ResultColumns.Column.of(name, "string");
            default:
                return ResultColumns.Column.any(name);
        }
    }
}
