package dev.hyperterse.connector;

import java.util.Map;

/**
 * Where a database server is and who to log in as, read from an adapter's connection string.
 *
 * @param password   a secret: never in messages or logs ({@link #toString()} leaves it out)
 * @param parameters the connection string's other settings (URL query or extra key=value pairs),
 *                   keys in lower case; each connector decides which it knows
 */
public record Endpoint(String host, int port, String database, String user, String password,
                          Map<String, String> parameters) {
    public Endpoint {
        parameters = Map.copyOf(parameters);
    }

    /** {@code host:port/database} for messages; {@code [::1]:5432/db} for IPv6 hosts. */
    public String describe() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return h + ":" + port + "/" + (database == null ? "" : database);
    }

    @Override
    public String toString() {
        return "Endpoint[" + (user == null ? "" : user + "@") + describe() + "]";
    }
}
