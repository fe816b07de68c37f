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
