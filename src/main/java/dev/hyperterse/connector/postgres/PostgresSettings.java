package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.AdapterOptions;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectionStrings;
import dev.hyperterse.connector.sql.PoolSettings;
import dev.hyperterse.connector.Endpoint;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A postgres adapter's connection string and options.
 *
 * @param sslMode     {@code sslmode} (libpq's names; default {@code prefer}, libpq's default)
 * @param sslRootCert {@code sslrootcert}: PEM file of the CA for {@code verify-ca}/{@code verify-full}, or null
 * @param startup     run-time parameters sent when a connection opens ({@code application_name}, {@code search_path},
 *                    and the session settings of {@link #SESSION_SETTINGS} given as options)
 * @param warnings    options this connector does not use, each named as written
 * @param pipelining  {@code pipelining}: how many statements of fast reads may be sent on one
 *                    connection before the first is answered (default {@value #DEFAULT_PIPELINING};
 *                    1: every statement runs on a connection of its own)
 */
record PostgresSettings(Endpoint endpoint, PoolSettings pool, SslMode sslMode, String sslRootCert,
                        Map<String, String> startup, java.util.List<String> warnings, int pipelining) {
    static final int DEFAULT_PIPELINING = 16;
    static final int DEFAULT_PORT = 5432;
    /** Settings a connection string may carry besides host, port, database, user and password. */
    static final Set<String> CONNECTION_KEYS = Set.of("sslmode", "sslrootcert", "application_name", "search_path",
            "connect_timeout");
    static final Set<String> KNOWN;

    static {
        Set<String> known = new TreeSet<>(PoolSettings.KEYS);
        known.addAll(CONNECTION_KEYS);
        known.add("pipelining");
        KNOWN = Set.copyOf(known);
    }

    /**
     * Session settings an option may set, sent as run-time parameters when a connection opens (as
     * pgx sends a DSN's unknown parameters). Only these: a name the server does not know would
     * otherwise fail every connection at start, where {@code validate} could not have seen it.
     */
    static final Set<String> SESSION_SETTINGS = Set.of("timezone", "datestyle", "intervalstyle", "lock_timeout",
            "idle_in_transaction_session_timeout", "default_transaction_read_only", "work_mem", "extra_float_digits");
    /** pgxpool's names for pool settings (Hyperterse's PostgreSQL options), as this server names them. */
    private static final Map<String, String> PGX_POOL_NAMES = Map.of("pool_max_conns", "max_connections",
            "pool_max_conn_lifetime", "max_lifetime", "pool_max_conn_idle_time", "idle_timeout");

    private static final Map<String, SslMode> SSL_MODES = Map.of("disable", SslMode.DISABLE, "allow", SslMode.ALLOW,
            "prefer", SslMode.PREFER, "require", SslMode.REQUIRE, "verify-ca", SslMode.VERIFY_CA,
            "verify-full", SslMode.VERIFY_FULL);

    PostgresSettings {
        startup = Map.copyOf(startup);
        warnings = java.util.List.copyOf(warnings);
    }

    /**
     * Reads {@code postgres://user:password@host:5432/db?sslmode=disable} (or {@code postgresql://})
     * and libpq's {@code host=... port=... dbname=... user=... password=...}; the connection
     * string's settings and {@code options} are merged, {@code options} winning.
     */
    static PostgresSettings parse(String adapter, String connectionString, Map<String, String> options) {
        String text = connectionString == null ? "" : connectionString.trim();
        Endpoint endpoint;
        if (ConnectionStrings.isUrl(text, Set.of("postgres", "postgresql"))) {
            endpoint = ConnectionStrings.url(adapter, "postgres", text, DEFAULT_PORT);
        } else if (text.indexOf('=') > 0) {
            endpoint = fromKeyValues(adapter, ConnectionStrings.keyValues(adapter, "postgres", text));
        } else {
            throw new ConnectorException("adapter '" + adapter + "': connection_string must be a URL such as"
                    + " postgres://user:password@host:5432/database, or key=value pairs such as"
                    + " 'host=localhost port=5432 dbname=app user=app password=secret'");
        }
        for (String key : endpoint.parameters().keySet()) {
            if (!CONNECTION_KEYS.contains(key)) {
                throw new ConnectorException("adapter '" + adapter + "': connection_string has the unknown setting '"
                        + key + "'; known settings: " + String.join(", ", new TreeSet<>(CONNECTION_KEYS))
                        + " (pool settings go in options)");
            }
        }
        Map<String, String> merged = new LinkedHashMap<>(endpoint.parameters());
        options.forEach((key, value) -> {
            String ours = PGX_POOL_NAMES.get(key.toLowerCase(java.util.Locale.ROOT));
            merged.put(ours != null && !options.containsKey(ours) ? ours : key, value);
        });
        AdapterOptions o = AdapterOptions.of(adapter, "postgres", merged, KNOWN);
        String user = endpoint.user() == null || endpoint.user().isEmpty() ? System.getProperty("user.name")
                : endpoint.user();
        String database = endpoint.database() == null || endpoint.database().isEmpty() ? user : endpoint.database();
        Endpoint resolved = new Endpoint(endpoint.host(), endpoint.port(), database, user, endpoint.password(),
                Map.of());
        SslMode sslMode = o.choice("sslmode", SSL_MODES, SslMode.PREFER);
        String rootCert = o.string("sslrootcert", null);
        if ((sslMode == SslMode.VERIFY_CA || sslMode == SslMode.VERIFY_FULL) && rootCert == null) {
            throw new ConnectorException("adapter '" + adapter + "': sslmode " + sslMode.value
                    + " needs sslrootcert, a PEM file with the certificate authority that signed the server's certificate");
        }
        Map<String, String> startup = new HashMap<>();
        startup.put("application_name", o.string("application_name", "hyperterse"));
        String searchPath = o.string("search_path", null);
        if (searchPath != null) {
            startup.put("search_path", searchPath);
        }
        java.util.List<String> warnings = new java.util.ArrayList<>();
        o.unknown().forEach((key, value) -> {
            if (SESSION_SETTINGS.contains(key.toLowerCase(java.util.Locale.ROOT))) {
                startup.put(key.toLowerCase(java.util.Locale.ROOT), value.trim());
            } else {
                warnings.add(o.ignored(key));
            }
        });
        int pipelining = o.positiveInt("pipelining", DEFAULT_PIPELINING);
        if (pipelining > 256) {
            throw new ConnectorException("adapter '" + adapter + "': pipelining must be from 1 to 256, was " + pipelining);
        }
        return new PostgresSettings(resolved, PoolSettings.read(o), sslMode, rootCert, startup, warnings, pipelining);
    }

    private static Endpoint fromKeyValues(String adapter, Map<String, String> kv) {
        Map<String, String> rest = new LinkedHashMap<>(kv);
        String host = ConnectionStrings.takeFirst(rest, "host", "hostaddr");
        if (host != null && host.indexOf(',') >= 0) {
            throw ConnectionStrings.bad(adapter, "postgres", "it names several hosts; give one");
        }
        String port = ConnectionStrings.takeFirst(rest, "port");
        String database = ConnectionStrings.takeFirst(rest, "dbname", "database");
        String user = ConnectionStrings.takeFirst(rest, "user", "username");
        String password = ConnectionStrings.takeFirst(rest, "password");
        return new Endpoint(host == null || host.isEmpty() ? "localhost" : host,
                port == null ? DEFAULT_PORT : ConnectionStrings.port(adapter, "postgres", port),
                database, user, password, rest);
    }

    PgConnectOptions connectOptions(Path projectDir) {
        PgConnectOptions options = new PgConnectOptions()
                .setHost(endpoint.host())
                .setPort(endpoint.port())
                .setDatabase(endpoint.database())
                .setUser(endpoint.user())
                .setSslMode(sslMode)
                .setProperties(new HashMap<>(startup));
        if (endpoint.password() != null) {
            options.setPassword(endpoint.password());
        }
        ClientSSLOptions ssl = new ClientSSLOptions();
        if (sslMode == SslMode.VERIFY_CA || sslMode == SslMode.VERIFY_FULL) {
            ssl.setTrustOptions(new PemTrustOptions().addCertPath(projectDir.resolve(sslRootCert).toString()));
            ssl.setHostnameVerificationAlgorithm(sslMode == SslMode.VERIFY_FULL ? "HTTPS" : "");
        } else {
            // libpq's allow, prefer and require encrypt without checking who answers
            ssl.setTrustAll(true);
        }
        return options.setSslOptions(ssl);
    }
}
