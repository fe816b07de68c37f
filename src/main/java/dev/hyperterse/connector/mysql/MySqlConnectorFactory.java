package dev.hyperterse.connector.mysql;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.SettingsConnectorFactory;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.sql.PoolSettings;
import dev.hyperterse.connector.sql.ReactiveSqlConnector;
import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.Pool;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code connector: mysql}: MySQL and MariaDB over the Vert.x reactive client.
 *
 * <p>{@code connection_string}: {@code mysql://user:password@host:3306/database} ({@code mariadb://}
 * too), the Go driver's {@code user:password@tcp(host:3306)/database?parseTime=true} (as Hyperterse
 * projects write it), or key=value pairs. Options: {@code max_connections}, {@code connect_timeout},
 * {@code idle_timeout}, {@code max_lifetime} (pool), {@code ssl_mode}, {@code ssl_ca},
 * {@code charset}, {@code collation}; the last four may also be given in the connection string.
 */
public final class MySqlConnectorFactory extends SettingsConnectorFactory<MySqlSettings> {

    @Override
    public String type() {
        return "mysql";
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.MYSQL;
    }

    @Override
    protected MySqlSettings settings(AdapterDef adapter) {
        return MySqlSettings.parse(adapter.name(), adapter.connectionString(), adapter.options());
    }

    @Override
    protected List<String> warnings(MySqlSettings settings) {
        return settings.warnings();
    }

    @Override
    protected int maxConnections(MySqlSettings settings) {
        return settings.pool().maxConnections();
    }

    @Override
    protected Future<Connector> open(Vertx vertx, AdapterDef adapter, Path projectDir, MySqlSettings settings,
                                     int maxConnections) {
        PoolSettings poolSettings = maxConnections > 0 ? settings.pool().withMaxConnections(maxConnections)
                : settings.pool();
        MySQLConnectOptions connectOptions = settings.connectOptions(projectDir);
        Pool pool = MySQLBuilder.pool()
                .with(poolSettings.poolOptions(adapter.name()))
                .with(poolSettings.netClientOptions())
                .connectingTo(connectOptions)
                .using(vertx)
                .build();
        MySqlFlavor flavor = new MySqlFlavor(vertx, connectOptions, settings.pool().connectTimeout());
        return pool.withConnection(conn -> conn.query("SELECT 1").execute())
                .<Connector>map(ok -> new ReactiveSqlConnector(vertx, adapter.name(), pool, flavor, settings.endpoint()))
                .recover(e -> pool.close().transform(closed -> Future.failedFuture(new ConnectorException(
                        "cannot connect to MySQL at " + settings.endpoint().describe() + " as user '"
                                + settings.endpoint().user() + "': " + flavor.reason(e), e))));
    }
}
