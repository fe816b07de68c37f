package dev.hyperterse.connector.mysql;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectorFactory;
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

/**
 * {@code connector: mysql}: MySQL and MariaDB over the Vert.x reactive client.
 *
 * <p>{@code connection_string}: {@code mysql://user:password@host:3306/database} ({@code mariadb://}
 * too), the Go driver's {@code user:password@tcp(host:3306)/database?parseTime=true} (as Hyperterse
 * projects write it), or key=value pairs. Options: {@code max_connections}, {@code connect_timeout},
 * {@code idle_timeout}, {@code max_lifetime} (pool), {@code ssl_mode}, {@code ssl_ca},
 * {@code charset}, {@code collation}; the last four may also be given in the connection string.
 */
public final class MySqlConnectorFactory implements ConnectorFactory {

    @Override
    public String type() {
        return "mysql";
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.MYSQL;
    }

    @Override
    public java.util.List<String> check(AdapterDef adapter, Path projectDir) {
        return MySqlSettings.parse(adapter.name(), adapter.connectionString(), adapter.options()).warnings();
    }

    @Override
    public int splittableConnections(AdapterDef adapter) {
        try {
            return MySqlSettings.parse(adapter.name(), adapter.connectionString(), adapter.options()).pool()
                    .maxConnections();
        } catch (ConnectorException e) {
            return 0;
        }
    }

    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir) {
        return connect(vertx, adapter, projectDir, 0);
    }

    /** @param maxConnections this pool's share of the adapter's connections, or 0 for all of them */
    @Override
    public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir, int maxConnections) {
        MySqlSettings settings;
        try {
            settings = MySqlSettings.parse(adapter.name(), adapter.connectionString(), adapter.options());
        } catch (ConnectorException e) {
            return Future.failedFuture(e);
        }
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
