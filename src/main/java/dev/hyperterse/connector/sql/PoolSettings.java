package dev.hyperterse.connector.sql;

import dev.hyperterse.connector.AdapterOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.sqlclient.PoolOptions;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Pool options shared by the SQL connectors, read from an adapter's {@code options} (never from
 * the connection string, which Hyperterse forwarded to the driver).
 *
 * @param maxConnections {@code max_connections}: most open connections (default 10)
 * @param connectTimeout {@code connect_timeout}: how long opening a connection may take (default 5s),
 *                       so a database that does not answer fails calls fast instead of hanging them
 * @param idleTimeout    {@code idle_timeout}: an unused connection is closed after this (default 10m; 0: never)
 * @param maxLifetime    {@code max_lifetime}: a connection is replaced after this (default 0: never)
 */
public record PoolSettings(int maxConnections, Duration connectTimeout, Duration idleTimeout, Duration maxLifetime) {
    public static final Set<String> KEYS = Set.of("max_connections", "connect_timeout", "idle_timeout", "max_lifetime");

    public static PoolSettings read(AdapterOptions options) {
        return new PoolSettings(
                options.positiveInt("max_connections", 10),
                options.duration("connect_timeout", Duration.ofSeconds(5), false),
                options.duration("idle_timeout", Duration.ofMinutes(10), true),
                options.duration("max_lifetime", Duration.ZERO, true));
    }

    /** The same settings for a pool holding {@code max} of the adapter's connections (one of several pools). */
    public PoolSettings withMaxConnections(int max) {
        return new PoolSettings(max, connectTimeout, idleTimeout, maxLifetime);
    }

    /** @param name the adapter's name, so pool metrics tell adapters apart */
    public PoolOptions poolOptions(String name) {
        return new PoolOptions()
                .setName(name)
                .setMaxSize(maxConnections)
                .setIdleTimeout((int) idleTimeout.toMillis()).setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setMaxLifetime((int) maxLifetime.toMillis()).setMaxLifetimeUnit(TimeUnit.MILLISECONDS);
    }

    public NetClientOptions netClientOptions() {
        return new NetClientOptions().setConnectTimeout((int) connectTimeout.toMillis());
    }
}
