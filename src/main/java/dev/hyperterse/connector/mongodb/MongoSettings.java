package dev.hyperterse.connector.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import dev.hyperterse.connector.AdapterOptions;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.model.Redaction;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A mongodb adapter's connection string ({@code mongodb://[user:password@]host[:port][,host…][/db][?options]}
 * or {@code mongodb+srv://…}) with the adapter's {@code options} merged into its query, as
 * Hyperterse does ({@code maxPoolSize: 50} is {@code ?maxPoolSize=50}). An option the MongoDB
 * Java driver does not know is left out and reported.
 *
 * @param connectionString the merged string, as the driver reads it (holds the password)
 * @param where            hosts and database for messages, never credentials
 * @param warnings         options this connector does not use, each named as written
 */
record MongoSettings(ConnectionString connectionString, String where, List<String> warnings) {
    MongoSettings {
        warnings = List.copyOf(warnings);
    }

    /** The driver's connection string options, lower case. */
    static final Set<String> KNOWN = Set.of("appname", "authmechanism", "authmechanismproperties", "authsource",
            "compressors", "connecttimeoutms", "directconnection", "gssapiservicename", "heartbeatfrequencyms",
            "journal", "loadbalanced", "localthresholdms", "maxconnecting", "maxidletimems", "maxlifetimems",
            "maxpoolsize", "maxstalenessseconds", "minpoolsize", "proxyhost", "proxyport", "proxyusername",
            "proxypassword", "readconcernlevel", "readpreference", "readpreferencetags", "replicaset", "retryreads",
            "retrywrites", "safe", "servermonitoringmode", "serverselectiontimeoutms", "sockettimeoutms",
            "srvmaxhosts", "srvservicename", "ssl", "sslinvalidhostnameallowed", "timeoutms", "tls",
            "tlsallowinvalidhostnames", "tlsinsecure", "uuidrepresentation", "w", "waitqueuetimeoutms",
            "wtimeoutms", "zlibcompressionlevel");
    /** How long a call waits for a server to answer at all, unless {@code serverSelectionTimeoutMS} says. */
    static final int DEFAULT_SERVER_SELECTION_MS = 5000;

    static MongoSettings parse(String adapter, String text, Map<String, String> options) {
        String uri = text == null ? "" : text.trim();
        if (!uri.startsWith("mongodb://") && !uri.startsWith("mongodb+srv://")) {
            throw new ConnectorException("adapter '" + adapter + "': connection_string must be a URL such as"
                    + " mongodb://[user:password@]host:27017/db or mongodb+srv://user:password@cluster.example.net/db");
        }
        List<String> warnings = new ArrayList<>();
        int hostStart = Math.max(uri.indexOf("://") + 3, uri.lastIndexOf('@') + 1);
        int query = uri.indexOf('?', hostStart);
        String base = query < 0 ? uri : uri.substring(0, query);
        Map<String, String> pairs = new LinkedHashMap<>();
        Map<String, String> written = new LinkedHashMap<>();
        if (query >= 0) {
            for (String pair : uri.substring(query + 1).split("[&;]")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                String lower = key.toLowerCase(Locale.ROOT);
                if (!KNOWN.contains(lower)) {
                    warnings.add("adapter '" + adapter + "': connection_string option '" + key + "' is not used by"
                            + " the mongodb connector and is ignored");
                    continue;
                }
                pairs.put(lower, pair);
                written.put(lower, key);
            }
        }
        AdapterOptions o = AdapterOptions.of(adapter, "mongodb", options, KNOWN);
        warnings.addAll(o.ignoredWarnings());
        for (Map.Entry<String, String> e : options.entrySet()) {
            String lower = e.getKey().toLowerCase(Locale.ROOT);
            if (KNOWN.contains(lower)) {
                pairs.put(lower, e.getKey() + "=" + URLEncoder.encode(e.getValue().trim(), StandardCharsets.UTF_8));
            }
        }
        String merged = pairs.isEmpty() ? base
                : base + (base.substring(hostStart).contains("/") ? "" : "/") + "?" + String.join("&", pairs.values());
        ConnectionString parsed;
        try {
            parsed = new ConnectionString(merged);
        } catch (RuntimeException e) {
            throw new ConnectorException("adapter '" + adapter + "': connection_string is not a valid MongoDB"
                    + " connection string: " + Redaction.connectionString(String.valueOf(e.getMessage())
                            .replace(merged, "<connection_string>")));
        }
        String where = String.join(",", parsed.getHosts()) + "/" + (parsed.getDatabase() == null ? "" : parsed.getDatabase());
        return new MongoSettings(parsed, where, warnings);
    }

    MongoClientSettings clientSettings() {
        MongoClientSettings.Builder builder = MongoClientSettings.builder().applyConnectionString(connectionString);
        if (connectionString.getServerSelectionTimeout() == null) {
            builder.applyToClusterSettings(c -> c.serverSelectionTimeout(DEFAULT_SERVER_SELECTION_MS, TimeUnit.MILLISECONDS));
        }
        return builder.build();
    }
}
