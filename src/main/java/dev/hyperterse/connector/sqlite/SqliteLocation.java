package dev.hyperterse.connector.sqlite;

import dev.hyperterse.connector.ConnectorException;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Where an adapter's database lives, read from its {@code connection_string}.
 *
 * @param file  the database file, absolute; null for an in-memory database
 * @param query SQLite URI parameters to keep ({@code mode=ro}, ...), without {@code ?}; "" for none
 * @param uri   for an in-memory database, the SQLite URI all pool connections open
 */
record SqliteLocation(Path file, String query, String uri) {

    boolean inMemory() {
        return file == null;
    }

    /** The JDBC URL of the database, or of {@code otherFile} with the same URI parameters. */
    String jdbcUrl(Path otherFile) {
        if (otherFile == null) {
            return "jdbc:sqlite:" + uri;
        }
        return "jdbc:sqlite:" + fileUri(otherFile) + (query.isEmpty() ? "" : "?" + query);
    }

    String jdbcUrl() {
        return jdbcUrl(file);
    }

    /**
     * The file's JDBC URL opened read-only ({@code mode=ro}, replacing any {@code mode} given),
     * and with {@code immutable=1} when asked: SQLite then takes no locks and creates no files.
     */
    String readOnlyJdbcUrl(boolean immutable) {
        StringBuilder q = new StringBuilder();
        for (String param : query.split("&")) {
            String name = param.contains("=") ? param.substring(0, param.indexOf('=')) : param;
            if (!param.isEmpty() && !name.equalsIgnoreCase("mode") && !name.equalsIgnoreCase("immutable")) {
                q.append(param).append('&');
            }
        }
        q.append("mode=ro");
        if (immutable) {
            q.append("&immutable=1");
        }
        return "jdbc:sqlite:" + fileUri(file) + "?" + q;
    }

    /** For messages: the path, or {@code :memory:}; never URI parameters (they could hold a key). */
    String describe() {
        return inMemory() ? ":memory:" : file.toString();
    }

    /**
     * URL schemes of a libSQL server (Turso's included), which Hyperterse's sqlite connector
     * reaches over HTTP: read as a path, {@code libsql://db.turso.io} would be a local folder
     * named {@code libsql:}.
     */
    private static final List<String> REMOTE_SCHEMES = List.of("libsql", "https", "http", "wss", "ws");

    /**
     * Accepts {@code sqlite:path}, {@code sqlite:///abs/path}, {@code file:} SQLite URIs,
     * {@code jdbc:sqlite:...}, a plain path, and {@code :memory:}. Relative paths resolve against
     * {@code projectDir}, not the server's working directory. Refuses a remote libSQL/Turso URL.
     */
    static SqliteLocation resolve(String adapter, String connectionString, Path projectDir) {
        String s = connectionString == null ? "" : connectionString.trim();
        if (s.regionMatches(true, 0, "jdbc:sqlite:", 0, 12)) {
            s = s.substring(12);
        }
        if (s.isEmpty()) {
            throw new ConnectorException("adapter '" + adapter + "': connection_string is empty;"
                    + " give a file path such as sqlite:data/app.db, or :memory:");
        }
        String remote = remoteScheme(s);
        if (remote != null) {
            // the URL itself is not repeated: its query may hold the authToken
            throw new ConnectorException("adapter '" + adapter + "': connection_string is a " + remote + ": URL, a remote"
                    + " libSQL/Turso database, and remote libSQL is not supported: this server's sqlite connector"
                    + " opens local SQLite files only; give a file path such as sqlite:data/app.db (a local copy"
                    + " of the database), a file: URI or :memory:");
        }
        if (s.equals(":memory:")) {
            return memory();
        }
        if (s.regionMatches(true, 0, "sqlite:", 0, 7)) {
            String rest = s.substring(7);
            // sqlite:///abs/path.db keeps one slash (absolute); sqlite://rel.db is relative.
            if (rest.startsWith("//")) {
                rest = rest.substring(2);
            }
            if (rest.equals(":memory:")) {
                return memory();
            }
            int q = rest.indexOf('?');
            String path = q < 0 ? rest : rest.substring(0, q);
            return onDisk(adapter, path, q < 0 ? "" : rest.substring(q + 1), projectDir);
        }
        if (s.regionMatches(true, 0, "file:", 0, 5)) {
            return fromFileUri(adapter, s, projectDir);
        }
        return onDisk(adapter, s, "", projectDir);
    }

    /** The scheme of a libSQL server URL ({@code libsql:}, {@code https:}, …), or null for a local database. */
    private static String remoteScheme(String s) {
        for (String scheme : REMOTE_SCHEMES) {
            if (s.regionMatches(true, 0, scheme + ":", 0, scheme.length() + 1)) {
                return scheme;
            }
        }
        return null;
    }

    /** A new, private in-memory database. */
    static SqliteLocation newInMemory() {
        return memory();
    }

    private static SqliteLocation memory() {
        // The memdb VFS shares one in-memory database between the pool's connections (a name
        // starting with '/' is shared process-wide) with SQLite's normal locking, unlike
        // shared-cache mode, whose table locks fail with SQLITE_LOCKED instead of waiting.
        return new SqliteLocation(null, "", "file:/hyperterse-" + UUID.randomUUID() + "?vfs=memdb");
    }

    private static SqliteLocation fromFileUri(String adapter, String uri, Path projectDir) {
        int hash = uri.indexOf('#');
        String withoutFragment = hash < 0 ? uri : uri.substring(0, hash);
        String rest = withoutFragment.substring(5);
        int q = rest.indexOf('?');
        String query = q < 0 ? "" : rest.substring(q + 1);
        String path = q < 0 ? rest : rest.substring(0, q);
        if (isMemoryQuery(query)) {
            // A named in-memory database the operator chose; used as written.
            return new SqliteLocation(null, query, withoutFragment);
        }
        if (path.startsWith("//")) {
            int slash = path.indexOf('/', 2);
            String authority = slash < 0 ? path.substring(2) : path.substring(2, slash);
            if (!authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
                throw new ConnectorException("adapter '" + adapter + "': file: URI names host '" + authority
                        + "'; SQLite opens local files only");
            }
            path = slash < 0 ? "" : path.substring(slash);
        }
        path = percentDecode(adapter, path);
        if (path.length() > 2 && path.charAt(0) == '/' && path.charAt(2) == ':' && Character.isLetter(path.charAt(1))) {
            path = path.substring(1); // file:///C:/data/app.db
        }
        return onDisk(adapter, path, query, projectDir);
    }

    private static boolean isMemoryQuery(String query) {
        for (String param : query.split("&")) {
            if (param.toLowerCase(Locale.ROOT).equals("mode=memory")) {
                return true;
            }
        }
        return false;
    }

    private static SqliteLocation onDisk(String adapter, String path, String query, Path projectDir) {
        if (path.isBlank()) {
            throw new ConnectorException("adapter '" + adapter + "': connection_string has no file path");
        }
        try {
            Path file = projectDir.resolve(path).toAbsolutePath().normalize();
            return new SqliteLocation(file, query, null);
        } catch (InvalidPathException e) {
            throw new ConnectorException("adapter '" + adapter + "': '" + path + "' is not a valid file path");
        }
    }

    private static String percentDecode(String adapter, String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()
                    && Character.digit(s.charAt(i + 1), 16) >= 0 && Character.digit(s.charAt(i + 2), 16) >= 0) {
                bytes.write(Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
                i += 2;
            } else if (c == '%') {
                throw new ConnectorException("adapter '" + adapter + "': bad percent escape in file: URI path");
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** A {@code file:} URI for a path, percent-encoding what SQLite's URI parser would misread. */
    private static String fileUri(Path file) {
        String path = file.toString().replace('\\', '/');
        if (!path.startsWith("/")) {
            path = "/" + path; // C:/data → /C:/data
        }
        StringBuilder out = new StringBuilder("file:");
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '/' || c == '.' || c == '-' || c == '_' || c == '~' || c == ':') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
