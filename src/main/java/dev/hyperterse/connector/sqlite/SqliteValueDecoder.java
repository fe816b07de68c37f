package dev.hyperterse.connector.sqlite;

import io.vertx.jdbcclient.spi.JDBCColumnDescriptorProvider;
import io.vertx.jdbcclient.spi.JDBCDecoderImpl;
import org.sqlite.core.CoreResultSet;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Reads SQLite values by their storage class (integer, real, text, blob, null). The Vert.x JDBC
 * client's default decoder goes by the declared column type instead, which SQLite does not
 * enforce: a {@code DATE} column holding {@code 'soon'} would fail the whole query. Registered
 * through {@code META-INF/services} (the only hook a DataSource-backed JDBC pool offers), so it
 * applies to every JDBC pool in the process; result sets of other drivers keep the default.
 */
public final class SqliteValueDecoder extends JDBCDecoderImpl {

    @Override
    public Object parse(ResultSet rs, int pos, JDBCColumnDescriptorProvider provider) throws SQLException {
        if (rs instanceof CoreResultSet) {
            // xerial returns Integer/Long, Double, String, byte[] or null by storage class.
            return rs.getObject(pos);
        }
        return super.parse(rs, pos, provider);
    }
}
