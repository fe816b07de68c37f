package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.SettingsConnectorFactory;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.sql.PoolSettings;
import dev.hyperterse.connector.sql.ReactiveSqlConnector;
import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Pool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

/**
 * {@code connector: postgres}: PostgreSQL over the Vert.x reactive client.
 *
 * <p>{@code connection_string}: {@code postgres://user:password@host:5432/database?sslmode=disable}
 * ({@code postgresql://} too) or libpq's key=value form. Options: {@code max_connections},
 * {@code connect_timeout}, {@code idle_timeout}, {@code max_lifetime} (pool), {@code sslmode},
 * {@code sslrootcert}, {@code application_name}, {@code search_path}; the last four may also be
 * given in the connection string. {@code row_limit} and {@code statement_timeout} are the
 * server's.
 */
public final class PostgresConnectorFactory extends SettingsConnectorFactory<PostgresSettings> {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresConnectorFactory.class);

    @Override
    public String type() {
        return "postgres";
    }

    @Override
    public StatementDialect dialect() {
        return StatementDialect.POSTGRES;
    }

    @Override
    protected PostgresSettings settings(AdapterDef adapter) {
        return PostgresSettings.parse(adapter.name(), adapter.connectionString(), adapter.options());
    }

    @Override
    protected List<String> warnings(PostgresSettings settings) {
        return settings.warnings();
    }

    @Override
    protected int maxConnections(PostgresSettings settings) {
        return settings.pool().maxConnections();
    }

    @Override
    protected Future<Connector> open(Vertx vertx, AdapterDef adapter, Path projectDir, PostgresSettings settings,
                                     int maxConnections) {
        PoolSettings poolSettings = maxConnections > 0 ? settings.pool().withMaxConnections(maxConnections)
                : settings.pool();
        Pool pool = PgBuilder.pool()
                .with(poolSettings.poolOptions(adapter.name()))
                .with(poolSettings.netClientOptions())
                .connectingTo(settings.connectOptions(projectDir))
                .using(vertx)
                .withConnectHandler(conn -> {
                    // the client logs each server notice ("table does not exist, skipping") as a warning
                    PgConnection.cast(conn).noticeHandler(notice ->
                            LOG.debug("adapter '{}': PostgreSQL notice: {}", adapter.name(), notice.getMessage()));
                    RowSizeGuard.install(conn);
                    conn.close();
                })
                .build();
        return pool.withConnection(conn -> conn.query("SELECT current_setting('TimeZone')").execute())
                .<Connector>map(rows -> new ReactiveSqlConnector(vertx, adapter.name(), pool,
                        new PostgresFlavor(zone(rows.iterator().next().getString(0)), poolSettings.maxConnections(),
                                new CancelRequests(vertx, settings.endpoint().host(), settings.endpoint().port(),
                                        settings.pool().netClientOptions())),
                        settings.endpoint(), settings.pipelining()))
                .recover(e -> pool.close().transform(closed -> Future.failedFuture(new ConnectorException(
                        "cannot connect to PostgreSQL at " + settings.endpoint().describe() + " as user '"
                                + settings.endpoint().user() + "': " + new PostgresFlavor(ZoneOffset.UTC, 1, null).reason(e),
                        e))));
    }

    /** The session's TimeZone setting; an offset-less date-time bound to timestamptz is read in it. */
    private static ZoneId zone(String setting) {
        try {
            return ZoneId.of(setting);
        } catch (DateTimeException e) {
            LOG.warn("PostgreSQL time zone '{}' is not one Java knows; date-times without an offset are read as UTC",
                    setting);
            return ZoneOffset.UTC;
        }
    }
}
