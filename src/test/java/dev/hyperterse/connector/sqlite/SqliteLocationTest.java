package dev.hyperterse.connector.sqlite;

import dev.hyperterse.connector.ConnectorException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqliteLocationTest {
    private static final Path PROJECT = Path.of("/srv/project");

    private static SqliteLocation resolve(String connectionString) {
        return SqliteLocation.resolve("db", connectionString, PROJECT);
    }

    /** Hyperterse's sqlite connector also reaches libSQL servers (Turso); this one refuses them, never a folder "libsql:". */
    @Test
    void remoteLibsqlUrlsAreRefusedWithoutRepeatingThem() {
        for (String s : new String[] {"libsql://my-db-me.turso.io?authToken=s3cret", "LIBSQL://my-db.turso.io",
                "https://my-db-me.turso.io?authToken=s3cret", "http://127.0.0.1:8080", "wss://my-db.turso.io",
                "ws://localhost:8080", "jdbc:sqlite:libsql://my-db.turso.io", "libsql:my-db"}) {
            ConnectorException e = assertThrows(ConnectorException.class, () -> resolve(s), s);
            assertTrue(e.getMessage().startsWith("adapter 'db': connection_string is a "), e.getMessage());
            assertTrue(e.getMessage().contains("remote libSQL/Turso database, and remote libSQL is not supported"),
                    e.getMessage());
            assertTrue(!e.getMessage().contains("s3cret") && !e.getMessage().contains("turso.io"),
                    "the URL (and its token) is not repeated: " + e.getMessage());
        }
        assertTrue(assertThrows(ConnectorException.class, () -> resolve("https://x.turso.io")).getMessage()
                .contains(" https: URL"));
        assertEquals(Path.of("/srv/project/libsql-copy.db"), resolve("sqlite:libsql-copy.db").file(),
                "a local file is no URL, whatever it is named");
    }

    @Test
    void relativeFormsResolveAgainstTheProject() {
        for (String s : new String[] {"sqlite:data/app.db", "data/app.db", "jdbc:sqlite:data/app.db",
                "file:data/app.db", "sqlite://data/app.db", "./data/../data/app.db"}) {
            SqliteLocation location = resolve(s);
            assertEquals(Path.of("/srv/project/data/app.db"), location.file(), s);
            assertEquals("jdbc:sqlite:file:/srv/project/data/app.db", location.jdbcUrl(), s);
        }
    }

    @Test
    void absoluteForms() {
        for (String s : new String[] {"sqlite:///var/db/app.db", "/var/db/app.db", "file:/var/db/app.db",
                "file:///var/db/app.db", "file://localhost/var/db/app.db", "jdbc:sqlite:/var/db/app.db",
                "jdbc:sqlite:file:///var/db/app.db", "sqlite:/var/db/app.db"}) {
            assertEquals(Path.of("/var/db/app.db"), resolve(s).file(), s);
        }
    }

    @Test
    void uriParametersAreKeptAndPathsEncoded() {
        SqliteLocation location = resolve("file:my%20data/app.db?mode=ro#x");
        assertEquals(Path.of("/srv/project/my data/app.db"), location.file());
        assertEquals("jdbc:sqlite:file:/srv/project/my%20data/app.db?mode=ro", location.jdbcUrl());
        assertEquals("/srv/project/my data/app.db", location.describe());
        assertEquals("jdbc:sqlite:file:/srv/project/a%3Fb.db", resolve("a?b.db").jdbcUrl());
    }

    @Test
    void memory() {
        for (String s : new String[] {":memory:", "sqlite::memory:", "jdbc:sqlite::memory:"}) {
            SqliteLocation location = resolve(s);
            assertNull(location.file(), s);
            assertTrue(location.jdbcUrl().matches("jdbc:sqlite:file:/hyperterse-[0-9a-f-]{36}\\?vfs=memdb"), s);
            assertEquals(":memory:", location.describe());
        }
        // Two adapters never share an anonymous in-memory database.
        assertTrue(!resolve(":memory:").jdbcUrl().equals(resolve(":memory:").jdbcUrl()));
        SqliteLocation named = resolve("file:shared?mode=memory&cache=shared");
        assertTrue(named.inMemory());
        assertEquals("jdbc:sqlite:file:shared?mode=memory&cache=shared", named.jdbcUrl());
    }

    @Test
    void badForms() {
        assertTrue(assertThrows(ConnectorException.class, () -> resolve("")).getMessage().contains("empty"));
        assertTrue(assertThrows(ConnectorException.class, () -> resolve("file://remote/x.db")).getMessage()
                .contains("host 'remote'"));
        assertTrue(assertThrows(ConnectorException.class, () -> resolve("sqlite:")).getMessage()
                .contains("no file path"));
    }
}
