package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.AdapterOptions;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectionStrings;
import dev.hyperterse.connector.Endpoint;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.RedisOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A redis adapter's connection string ({@code redis://[user:password@]host[:port][/db]}, or
 * {@code rediss://} for TLS) and options.
 *
 * @param tls            {@code rediss://}: TLS, checked against the JVM's trusted CAs or {@code ssl_ca}
 * @param maxConnections {@code max_connections}: pool size (default 10)
 * @param connectTimeout {@code connect_timeout} (default 5s)
 * @param idleTimeout    {@code idle_timeout}: an unused connection is closed after this (default 10m)
 * @param sslCa          {@code ssl_ca}: PEM file of a CA to trust for {@code rediss://}, or null
 * @param warnings       options this connector does not use, each named as written
 */
record RedisSettings(Endpoint endpoint, boolean tls, int maxConnections, Duration connectTimeout,
                     Duration idleTimeout, String sslCa, java.util.List<String> warnings) {
    RedisSettings {
        warnings = java.util.List.copyOf(warnings);
    }

    static final Set<String> KNOWN = Set.of("max_connections", "connect_timeout", "idle_timeout", "ssl_ca");
    /** go-redis's names for the same settings, as Hyperterse's Redis options are written. */
    private static final Map<String, String> GO_REDIS_NAMES = Map.of("pool_size", "max_connections",
            "dial_timeout", "connect_timeout", "conn_max_idle_time", "idle_timeout");

    static RedisSettings parse(String adapter, String connectionString, Map<String, String> options) {
        String text = connectionString == null ? "" : connectionString.trim();
        if (!ConnectionStrings.isUrl(text, Set.of("redis", "rediss"))) {
            throw new ConnectorException("adapter '" + adapter + "': connection_string must be a URL such as"
                    + " redis://[user:password@]host:6379/0 (rediss:// for TLS)");
        }
        Endpoint endpoint = ConnectionStrings.url(adapter, "redis", text, 6379);
        Map<String, String> merged = new LinkedHashMap<>();
        String database = endpoint.database() == null || endpoint.database().isEmpty() ? "0" : endpoint.database();
        for (Map.Entry<String, String> e : endpoint.parameters().entrySet()) {
            if (e.getKey().equals("db")) {
                database = e.getValue();
            } else if (KNOWN.contains(e.getKey())) {
                merged.put(e.getKey(), e.getValue());
            } else {
                throw new ConnectorException("adapter '" + adapter + "': connection_string has the unknown setting '"
                        + e.getKey() + "'; known settings: db, " + String.join(", ", new java.util.TreeSet<>(KNOWN)));
            }
        }
        if (!database.matches("\\d{1,5}")) {
            throw ConnectionStrings.bad(adapter, "redis", "the database '" + database + "' is not a number");
        }
        options.forEach((key, value) -> {
            String ours = GO_REDIS_NAMES.get(key.toLowerCase(Locale.ROOT));
            merged.put(ours != null && !options.containsKey(ours) ? ours : key, value);
        });
        AdapterOptions o = AdapterOptions.of(adapter, "redis", merged, KNOWN);
        boolean tls = text.toLowerCase(Locale.ROOT).startsWith("rediss:");
        return new RedisSettings(new Endpoint(endpoint.host(), endpoint.port(), database, endpoint.user(),
                endpoint.password(), Map.of()), tls, o.positiveInt("max_connections", 10),
                o.duration("connect_timeout", Duration.ofSeconds(5), false),
                o.duration("idle_timeout", Duration.ofMinutes(10), true), o.string("ssl_ca", null), o.ignoredWarnings());
    }

    /** The same settings for one of several pools that share the adapter's connections. */
    RedisSettings withMaxConnections(int connections) {
        return new RedisSettings(endpoint, tls, connections, connectTimeout, idleTimeout, sslCa, warnings);
    }

    RedisOptions redisOptions(Path projectDir) {
        String host = endpoint.host().indexOf(':') >= 0 ? "[" + endpoint.host() + "]" : endpoint.host();
        NetClientOptions net = new NetClientOptions().setConnectTimeout((int) connectTimeout.toMillis());
        if (tls) {
            net.setSsl(true).setHostnameVerificationAlgorithm("HTTPS");
            if (sslCa != null) {
                net.setTrustOptions(new PemTrustOptions().addCertPath(projectDir.resolve(sslCa).toString()));
            }
        }
        RedisOptions options = new RedisOptions()
                .setConnectionString((tls ? "rediss://" : "redis://") + host + ":" + endpoint.port() + "/"
                        + endpoint.database())
                .setNetClientOptions(net)
                .setMaxPoolSize(maxConnections)
                // calls wait for a pooled connection rather than fail while the pool is busy
                .setMaxPoolWaiting(Math.max(1024, maxConnections * 100))
                .setMaxWaitingHandlers(Math.max(2048, maxConnections * 200))
                .setPoolRecycleTimeout(idleTimeout.isZero() ? -1 : (int) idleTimeout.toMillis())
                // RESP3 replies tell maps (HGETALL) from arrays
                .setPreferredProtocolVersion(ProtocolVersion.RESP3);
        if (endpoint.user() != null && !endpoint.user().isEmpty()) {
            options.setUser(endpoint.user());
        }
        if (endpoint.password() != null && !endpoint.password().isEmpty()) {
            options.setPassword(endpoint.password());
        }
        return options;
    }
}
