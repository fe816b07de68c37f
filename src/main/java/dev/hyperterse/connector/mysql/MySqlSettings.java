package dev.hyperterse.connector.mysql;

import dev.hyperterse.connector.AdapterOptions;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectionStrings;
import dev.hyperterse.connector.sql.PoolSettings;
import dev.hyperterse.connector.Endpoint;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.SslMode;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A mysql adapter's connection string and options (MySQL and MariaDB).
 *
 * @param sslMode   {@code ssl_mode} (MySQL's names; default {@code preferred}, MySQL clients' default)
 * @param sslCa     {@code ssl_ca}: PEM file of the CA for {@code verify_ca}/{@code verify_identity}, or null
 * @param charset   {@code charset} (default utf8mb4)
 * @param collation {@code collation}, or null for the charset's default
 * @param warnings  options this connector does not use, each named as written
 */
record MySqlSettings(Endpoint endpoint, PoolSettings pool, SslMode sslMode, String sslCa, String charset,
                     String collation, java.util.List<String> warnings) {
    MySqlSettings {
        warnings = java.util.List.copyOf(warnings);
    }

    static final int DEFAULT_PORT = 3306;
    static final Set<String> CONNECTION_KEYS = Set.of("ssl_mode", "ssl_ca", "charset", "collation", "connect_timeout");
    static final Set<String> KNOWN;
    /**
     * Settings of the Go driver (go-sql-driver/mysql) that Hyperterse projects carry in their
     * DSN; they tune that driver only, so they are accepted and have no effect here.
     */
    static final Set<String> GO_DRIVER_ONLY = Set.of("parsetime", "loc", "allownativepasswords", "interpolateparams",
            "multistatements", "readtimeout", "writetimeout", "maxallowedpacket", "clientfoundrows",
            "columnswithalias", "rejectreadonly", "checkconnliveness", "allowcleartextpasswords", "allowoldpasswords");
    /** {@code [user[:password]@][net(address)]/dbname[?params]}: the Go driver's DSN. */
    private static final Pattern GO_DSN = Pattern.compile("(?:(.*)@)?(?:(\\w+)\\(([^)]*)\\))?/([^?]*)(?:\\?(.*))?",
            Pattern.DOTALL);

    static {
        Set<String> known = new TreeSet<>(PoolSettings.KEYS);
        known.addAll(CONNECTION_KEYS);
        KNOWN = Set.copyOf(known);
    }

    private static final Map<String, SslMode> SSL_MODES = Map.of("disabled", SslMode.DISABLED,
            "preferred", SslMode.PREFERRED, "required", SslMode.REQUIRED, "verify_ca", SslMode.VERIFY_CA,
            "verify_identity", SslMode.VERIFY_IDENTITY);
    /** The Go driver's {@code tls} values, as MySQL's ssl modes. */
    private static final Map<String, String> GO_TLS = Map.of("true", "verify_identity", "skip-verify", "required",
            "preferred", "preferred", "false", "disabled");

    /**
     * Reads {@code mysql://user:password@host:3306/db} (or {@code mariadb://}), the Go driver's
     * {@code user:password@tcp(host:3306)/db?parseTime=true}, and key=value pairs
     * ({@code host=... port=... user=... password=... database=...}, separated by spaces or {@code ;}).
     */
    static MySqlSettings parse(String adapter, String connectionString, Map<String, String> options) {
        String text = connectionString == null ? "" : connectionString.trim();
        Endpoint endpoint;
        Matcher go = GO_DSN.matcher(text);
        if (ConnectionStrings.isUrl(text, Set.of("mysql", "mariadb"))) {
            endpoint = ConnectionStrings.url(adapter, "mysql", text, DEFAULT_PORT);
        } else if (text.indexOf("://") < 0 && go.matches()) {
            endpoint = fromGoDsn(adapter, go);
        } else if (text.indexOf('=') > 0 && text.indexOf("://") < 0) {
            endpoint = fromKeyValues(adapter, ConnectionStrings.keyValues(adapter, "mysql", text));
        } else {
            throw new ConnectorException("adapter '" + adapter + "': connection_string must be a URL such as"
                    + " mysql://user:password@host:3306/database, a Go DSN such as user:password@tcp(host:3306)/database,"
                    + " or key=value pairs such as 'host=localhost port=3306 user=app password=secret database=app'");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : endpoint.parameters().entrySet()) {
            String key = canonical(e.getKey());
            if (GO_DRIVER_ONLY.contains(key.replace("_", ""))) {
                continue;
            }
            if (key.equals("tls")) {
                String mode = GO_TLS.get(e.getValue().trim().toLowerCase(java.util.Locale.ROOT));
                if (mode == null) {
                    throw new ConnectorException("adapter '" + adapter + "': connection_string has tls='" + e.getValue()
                            + "'; expected true, false, skip-verify or preferred (or use ssl_mode and ssl_ca)");
                }
                settings.put("ssl_mode", mode);
            } else if (key.equals("timeout")) {
                settings.put("connect_timeout", e.getValue());
            } else if (CONNECTION_KEYS.contains(key)) {
                settings.put(key, e.getValue());
            } else {
                throw new ConnectorException("adapter '" + adapter + "': connection_string has the unknown setting '"
                        + e.getKey() + "'; known settings: " + String.join(", ", new TreeSet<>(CONNECTION_KEYS))
                        + " (pool settings go in options)");
            }
        }
        Map<String, String> merged = new LinkedHashMap<>(settings);
        options.forEach((k, v) -> {
            String key = canonical(k);
            // the Go driver's own settings are accepted in options as in the DSN; the rest keep
            // their written name, so a warning names them as the project does
            if (!GO_DRIVER_ONLY.contains(key.replace("_", ""))) {
                merged.put(KNOWN.contains(key) || key.equals("timeout") ? key : k, v);
            }
        });
        if (merged.containsKey("timeout") && !merged.containsKey("connect_timeout")) {
            merged.put("connect_timeout", merged.remove("timeout"));
        }
        AdapterOptions o = AdapterOptions.of(adapter, "mysql", merged, KNOWN);
        String user = endpoint.user() == null || endpoint.user().isEmpty() ? System.getProperty("user.name")
                : endpoint.user();
        Endpoint resolved = new Endpoint(endpoint.host(), endpoint.port(),
                endpoint.database() == null ? "" : endpoint.database(), user, endpoint.password(), Map.of());
        SslMode sslMode = o.choice("ssl_mode", SSL_MODES, SslMode.PREFERRED);
        String ca = o.string("ssl_ca", null);
        if ((sslMode == SslMode.VERIFY_CA || sslMode == SslMode.VERIFY_IDENTITY) && ca == null) {
            throw new ConnectorException("adapter '" + adapter + "': ssl_mode " + sslMode.value
                    + " needs ssl_ca, a PEM file with the certificate authority that signed the server's certificate");
        }
        return new MySqlSettings(resolved, PoolSettings.read(o), sslMode, ca, o.string("charset", "utf8mb4"),
                o.string("collation", null), o.ignoredWarnings());
    }

    /** {@code sslmode}, {@code ssl-mode} and {@code sslMode} all mean {@code ssl_mode}. */
    private static String canonical(String key) {
        String k = key.trim().toLowerCase(java.util.Locale.ROOT).replace('-', '_');
        switch (k) {
            case "sslmode":
                return "ssl_mode";
            case "sslca":
                return "ssl_ca";
            default:
                return k;
        }
    }

    private static Endpoint fromGoDsn(String adapter, Matcher m) {
        String userInfo = m.group(1);
        String user = null;
        String password = null;
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            user = colon < 0 ? userInfo : userInfo.substring(0, colon);
            password = colon < 0 ? null : userInfo.substring(colon + 1);
        }
        String net = m.group(2);
        String address = m.group(3);
        if (net != null && !net.equals("tcp")) {
            throw ConnectionStrings.bad(adapter, "mysql", "only tcp(host:port) addresses are supported, not " + net + "(...)");
        }
        String host = "localhost";
        int port = DEFAULT_PORT;
        if (address != null && !address.isEmpty()) {
            int colon = address.lastIndexOf(':');
            if (address.startsWith("[")) {
                int close = address.indexOf(']');
                if (close < 0) {
                    throw ConnectionStrings.bad(adapter, "mysql", "an IPv6 host is missing its ']'");
                }
                if (close + 1 < address.length() && address.charAt(close + 1) != ':') {
                    throw ConnectionStrings.bad(adapter, "mysql", "unexpected text after the IPv6 host");
                }
                host = address.substring(1, close);
                colon = address.indexOf(':', close);
            } else {
                host = colon < 0 ? address : address.substring(0, colon);
            }
            if (colon >= 0) {
                port = ConnectionStrings.port(adapter, "mysql", address.substring(colon + 1));
            }
        }
        Map<String, String> params = new LinkedHashMap<>();
        String query = m.group(5);
        if (query != null) {
            for (String pair : query.split("&")) {
                if (!pair.isEmpty()) {
                    int eq = pair.indexOf('=');
                    params.put((eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(java.util.Locale.ROOT),
                            eq < 0 ? "" : ConnectionStrings.queryValue(adapter, "mysql", pair.substring(eq + 1)));
                }
            }
        }
        return new Endpoint(host, port, m.group(4), user, password, params);
    }

    private static Endpoint fromKeyValues(String adapter, Map<String, String> kv) {
        Map<String, String> rest = new LinkedHashMap<>(kv);
        String host = ConnectionStrings.takeFirst(rest, "host", "server", "data_source");
        String port = ConnectionStrings.takeFirst(rest, "port");
        String database = ConnectionStrings.takeFirst(rest, "database", "dbname", "initial_catalog");
        String user = ConnectionStrings.takeFirst(rest, "user", "username", "uid", "user_id");
        String password = ConnectionStrings.takeFirst(rest, "password", "pwd");
        return new Endpoint(host == null || host.isEmpty() ? "localhost" : host,
                port == null ? DEFAULT_PORT : ConnectionStrings.port(adapter, "mysql", port), database, user, password, rest);
    }

    MySQLConnectOptions connectOptions(Path projectDir) {
        MySQLConnectOptions options = new MySQLConnectOptions()
                .setHost(endpoint.host())
                .setPort(endpoint.port())
                .setDatabase(endpoint.database())
                .setUser(endpoint.user())
                .setCharset(charset)
                .setSslMode(sslMode)
                .setCachePreparedStatements(true);
        if (collation != null) {
            options.setCollation(collation);
        }
        if (endpoint.password() != null) {
            options.setPassword(endpoint.password());
        }
        ClientSSLOptions ssl = new ClientSSLOptions();
        if (sslMode == SslMode.VERIFY_CA || sslMode == SslMode.VERIFY_IDENTITY) {
            ssl.setTrustOptions(new PemTrustOptions().addCertPath(projectDir.resolve(sslCa).toString()));
            ssl.setHostnameVerificationAlgorithm(sslMode == SslMode.VERIFY_IDENTITY ? "HTTPS" : "");
        } else {
            // preferred and required encrypt without checking who answers, as MySQL's clients do
            ssl.setTrustAll(true);
        }
        return options.setSslOptions(ssl);
    }
}
