package dev.hyperterse.connector;


import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The two shapes a SQL connection string comes in: a URL
 * ({@code postgres://user:secret@host:5432/db?sslmode=disable}) and key=value pairs
 * ({@code host=db port=5432 dbname=app user=me password='a b'}, or separated by {@code ;}).
 * Parsed by hand rather than with {@link java.net.URI}, which refuses the unescaped
 * {@code @ # ?} that real passwords contain. Messages never repeat the string (it holds the
 * password).
 */
public final class ConnectionStrings {

    private ConnectionStrings() {
    }

    /** Whether the text starts with {@code scheme://} for one of the schemes (case-insensitive). */
    public static boolean isUrl(String text, Set<String> schemes) {
        int sep = text.indexOf("://");
        return sep > 0 && schemes.contains(text.substring(0, sep).toLowerCase(Locale.ROOT));
    }

    /**
     * Parses {@code scheme://[user[:password]@]host[:port][/database][?key=value&...]}; user,
     * password, database and query values are percent-decoded. One host only. The password may
     * be written raw, {@code @ / ? #} included.
     */
    public static Endpoint url(String adapter, String kind, String text, int defaultPort) {
        int sep = text.indexOf("://");
        String rest = text.substring(sep + 3);
        // a raw password may hold '@', '/', '?' and '#': the user info ends at the last '@'
        // (an '@' in a query value must then be written %40)
        String user = null;
        String password = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = rest.substring(0, at);
            rest = rest.substring(at + 1);
            int colon = userInfo.indexOf(':');
            user = decode(adapter, kind, colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : decode(adapter, kind, userInfo.substring(colon + 1));
        }
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            rest = rest.substring(0, hash);
        }
        int query = rest.indexOf('?');
        String queryText = query < 0 ? "" : rest.substring(query + 1);
        String beforeQuery = query < 0 ? rest : rest.substring(0, query);
        int slash = beforeQuery.indexOf('/');
        String authority = slash < 0 ? beforeQuery : beforeQuery.substring(0, slash);
        String path = slash < 0 ? "" : beforeQuery.substring(slash + 1);
        if (authority.indexOf(',') >= 0) {
            throw bad(adapter, kind, "it names several hosts; give one");
        }
        String host;
        String portText = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw bad(adapter, kind, "an IPv6 host is missing its ']'");
            }
            host = authority.substring(1, close);
            String after = authority.substring(close + 1);
            if (after.startsWith(":")) {
                portText = after.substring(1);
            } else if (!after.isEmpty()) {
                throw bad(adapter, kind, "unexpected text after the IPv6 host");
            }
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            portText = colon < 0 ? null : authority.substring(colon + 1);
        }
        host = decode(adapter, kind, host);
        if (host.isEmpty()) {
            host = "localhost";
        }
        int port = portText == null || portText.isEmpty() ? defaultPort
                : at >= 0 ? port(adapter, kind, portText) : unquotedPort(adapter, kind, portText);
        String database = path.isEmpty() ? null : decode(adapter, kind, path);
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : queryText.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(adapter, kind, eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
            params.put(key, eq < 0 ? "" : decode(adapter, kind, pair.substring(eq + 1)));
        }
        return new Endpoint(host, port, database, user, password, params);
    }

    /**
     * Parses {@code key=value} pairs separated by whitespace or {@code ;}. A value may be single-
     * or double-quoted (then it may hold spaces, and {@code \} escapes the next character). Keys
     * are returned in lower case with inner spaces as {@code _} ({@code User Id} → {@code user_id}).
     */
    public static Map<String, String> keyValues(String adapter, String kind, String text) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || c == ';') {
                i++;
                continue;
            }
            int eq = text.indexOf('=', i);
            if (eq < 0) {
                throw bad(adapter, kind, "expected key=value pairs, found a key without '='");
            }
            String key = text.substring(i, eq).trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", "_");
            if (key.isEmpty() || key.indexOf(';') >= 0) {
                throw bad(adapter, kind, "expected key=value pairs, found '=' without a key");
            }
            i = eq + 1;
            while (i < n && text.charAt(i) == ' ') {
                i++;
            }
            StringBuilder value = new StringBuilder();
            if (i < n && (text.charAt(i) == '\'' || text.charAt(i) == '"')) {
                char quote = text.charAt(i++);
                boolean closed = false;
                while (i < n) {
                    char v = text.charAt(i++);
                    if (v == '\\' && i < n) {
                        value.append(text.charAt(i++));
                    } else if (v == quote) {
                        closed = true;
                        break;
                    } else {
                        value.append(v);
                    }
                }
                if (!closed) {
                    throw bad(adapter, kind, "the quoted value of '" + key + "' is not closed");
                }
            } else {
                while (i < n && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != ';') {
                    char v = text.charAt(i++);
                    if (v == '\\' && i < n) {
                        v = text.charAt(i++);
                    }
                    value.append(v);
                }
            }
            out.put(key, value.toString());
        }
        return out;
    }

    public static int port(String adapter, String kind, String text) {
        try {
            int port = Integer.parseInt(text.trim());
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(adapter, kind, "the port '" + text + "' is not a number from 1 to 65535");
    }

    /**
     * A port in a URL without an {@code @}: there, {@code user:password} whose {@code @host} is
     * left out reads as a host and a port, so the text is not repeated.
     */
    private static int unquotedPort(String adapter, String kind, String text) {
        try {
            return port(adapter, kind, text);
        } catch (ConnectorException e) {
            throw bad(adapter, kind, "the text after the last ':' before the path is not a port from 1 to 65535"
                    + " (user and password end with '@', as in " + kind + "://user:password@host:port/database)");
        }
    }

    public static ConnectorException bad(String adapter, String kind, String why) {
        return new ConnectorException("adapter '" + adapter + "': connection_string is not a valid " + kind
                + " connection string: " + why);
    }

    /** A query value as Go's {@code url.QueryUnescape} reads it: percent-decoded, {@code +} a space. */
    public static String queryValue(String adapter, String kind, String s) {
        return decode(adapter, kind, s.replace('+', ' '));
    }

    private static String decode(String adapter, String kind, String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length() || Character.digit(s.charAt(i + 1), 16) < 0
                        || Character.digit(s.charAt(i + 2), 16) < 0) {
                    throw bad(adapter, kind, "a '%' is not followed by two hex digits (write %25 for a literal %)");
                }
                bytes.write(Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Removes every alias of one setting from {@code kv} (e.g. {@code password} and {@code pwd})
     * and returns the first alias's value, so no alias is left to be read as an unknown option.
     */
    public static String takeFirst(Map<String, String> kv, String... aliases) {
        String found = null;
        for (String alias : aliases) {
            String v = kv.remove(alias);
            if (found == null) {
                found = v;
            }
        }
        return found;
    }
}
