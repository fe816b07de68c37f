package dev.hyperterse.project;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adapters are read by their connector at compile time, so {@code validate} and {@code start}
 * agree: options from Hyperterse's documentation and templates (Redis {@code pool_size}, MySQL
 * {@code parseTime}/{@code loc}) are accepted, options no connector uses are warnings naming them
 * as written, and a wrong value is an error at its line before anything connects.
 */
class AdapterCheckTest {
    private final Connectors connectors = Connectors.builtIn();
    private final ProjectCompiler compiler = new ProjectCompiler(Map.of(), connectors.types(),
            AuthPlugins.builtIn().names(), Path.of("")).withAdapterCheck(connectors.adapterCheck());

    private static Path project(Path dir, String adapterFile, String adapter) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("app/adapters/" + adapterFile), adapter);
        Files.createDirectories(dir.resolve("app/tools/t"));
        Files.writeString(dir.resolve("app/tools/t/config.terse"), "use: " + adapterFile.replace(".terse", "")
                + "\nstatement: SELECT 1\n");
        return dir;
    }

    @Test
    void hyperterseOptionsAreAcceptedAndUnusedOnesAreWarningsNamedAsWritten(@TempDir Path dir) throws Exception {
        project(dir, "shop.terse", "connector: mysql\nconnection_string: 'mysql://app@127.0.0.1:3306/shop'\n"
                + "options:\n  parseTime: true\n  loc: Local\n  charset: utf8mb4\n  MaxIdleConns: 4\n");
        List<ConfigProblem> warnings = new ArrayList<>();
        compiler.compile(dir, warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals(7, warnings.get(0).location().line(), "the warning points at the option's own line");
        assertTrue(warnings.get(0).message().startsWith(
                "adapter 'shop': option 'MaxIdleConns' is not used by the mysql connector and is ignored; known options: "),
                warnings.get(0).message());
    }

    @Test
    void aMissingInitSqlFileFailsValidateAsItFailsStart(@TempDir Path dir) throws Exception {
        // validate said the project was valid, and start failed to create the database
        project(dir, "shop.terse", "connector: sqlite\nconnection_string: 'sqlite:data/shop.db'\n"
                + "options:\n  init_sql: db/schema.sql,db/seed.sql\n");
        Files.createDirectories(dir.resolve("db"));
        Files.writeString(dir.resolve("db/schema.sql"), "CREATE TABLE t (id INTEGER);\n");
        ProjectException e = assertThrows(ProjectException.class, () -> compiler.compile(dir, w -> { }));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertEquals(4, e.problems().get(0).location().line(), "at the option's line");
        assertEquals("adapter 'shop': option init_sql names db/seed.sql, which is not a file in the project folder;"
                + " start runs it to create the database", e.problems().get(0).message());

        // a database that exists already never runs init_sql
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/shop.db"), "");
        compiler.compile(dir, w -> { });
    }

    @Test
    void redisPoolSizeIsItsPoolSize(@TempDir Path dir) throws Exception {
        project(dir, "cache.terse", "connector: redis\nconnection_string: 'redis://127.0.0.1:6379/0'\n"
                + "options:\n  pool_size: 10\n");
        List<ConfigProblem> warnings = new ArrayList<>();
        compiler.compile(dir, warnings::add);
        assertEquals(List.of(), warnings);
    }

    @Test
    void postgresPassesKnownSessionSettingsAndPgxPoolNames(@TempDir Path dir) throws Exception {
        project(dir, "db.terse", "connector: postgres\nconnection_string: 'postgres://app@127.0.0.1:5432/app'\n"
                + "options:\n  pool_max_conns: 5\n  TimeZone: UTC\n  pool_health_check_period: 1m\n");
        List<ConfigProblem> warnings = new ArrayList<>();
        compiler.compile(dir, warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).message().contains("option 'pool_health_check_period' is not used"),
                warnings.get(0).message());
    }

    @Test
    void aWrongOptionValueIsAnErrorAtItsLineWithoutConnecting(@TempDir Path dir) throws Exception {
        project(dir, "cache.terse", "connector: redis\nconnection_string: 'redis://127.0.0.1:1/0'\n"
                + "options:\n  connect_timeout: soon\n");
        ProjectException e = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        assertEquals(1, e.problems().size(), e.problems().toString());
        assertEquals(4, e.problems().get(0).location().line());
        assertTrue(e.problems().get(0).message().contains("option connect_timeout is 'soon'"),
                e.problems().get(0).message());
        project(dir, "cache.terse", "connector: redis\nconnection_string: 'localhost:6379'\n");
        e = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        assertEquals(2, e.problems().get(0).location().line());
        assertTrue(e.problems().get(0).message().contains("must be a URL"), e.problems().get(0).message());
    }

    @Test
    void postgresPipeliningIsFromOneTo256(@TempDir Path dir) throws Exception {
        for (String wrong : List.of("0", "257", "many")) {
            project(dir, "db.terse", "connector: postgres\nconnection_string: 'postgres://app@127.0.0.1:5432/app'\n"
                    + "options:\n  pipelining: " + wrong + "\n");
            ProjectException e = assertThrows(ProjectException.class, () -> compiler.compile(dir), wrong);
            assertEquals(1, e.problems().size(), e.problems().toString());
            assertTrue(e.problems().get(0).message().contains("pipelining"), e.problems().get(0).message());
        }
        for (String right : List.of("1", "16", "256")) {
            project(dir, "db.terse", "connector: postgres\nconnection_string: 'postgres://app@127.0.0.1:5432/app'\n"
                    + "options:\n  pipelining: " + right + "\n");
            List<ConfigProblem> warnings = new ArrayList<>();
            compiler.compile(dir, warnings::add);
            assertEquals(List.of(), warnings);
        }
    }

    @Test
    void aVariableThatIsNotSetIsAWarningWhenAskedAndTheAdapterIsNotReadWithoutIt(@TempDir Path dir) throws Exception {
        project(dir, "db.terse", "connector: postgres\nconnection_string: '{{ env.HT_TEST_UNSET_URL }}'\n");
        ProjectException strict = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        assertEquals(1, strict.problems().size(), strict.problems().toString());
        List<ConfigProblem> warnings = new ArrayList<>();
        compiler.withMissingVariablesAsWarnings().compile(dir, warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals("adapter 'db': environment variable 'HT_TEST_UNSET_URL' is not set (used in 'connection_string')"
                + " (start needs it)", warnings.get(0).message());
    }

    /**
     * A remote libSQL/Turso URL in a sqlite adapter (Hyperterse reaches those over HTTP) is refused
     * at the connection string's line by validate and start alike, before anything is created:
     * read as a path it would have made a local folder named "libsql:".
     */
    @Test
    void aRemoteLibsqlUrlIsRefusedAtItsLine(@TempDir Path dir) throws Exception {
        project(dir, "turso.terse", "connector: sqlite\nconnection_string: '{{ env.TURSO_URL }}'\n"
                + "options:\n  authToken: '{{ env.TURSO_TOKEN }}'\n");
        ProjectCompiler withEnv = new ProjectCompiler(Map.of("TURSO_URL", "libsql://shop-me.turso.io",
                "TURSO_TOKEN", "s3cret"), connectors.types(), AuthPlugins.builtIn().names(), Path.of(""))
                .withAdapterCheck(connectors.adapterCheck());
        ProjectException e = assertThrows(ProjectException.class, () -> withEnv.compile(dir));
        Path file = dir.resolve("app/adapters/turso.terse");
        ConfigProblem refused = ProjectFixture.assertProblem(e, file, 2, "adapter 'turso': connection_string is a"
                + " libsql: URL, a remote libSQL/Turso database, and remote libSQL is not supported");
        assertTrue(!refused.message().contains("s3cret"), refused.message());
        assertTrue(!Files.exists(dir.resolve("libsql:")), "nothing was created");

        Files.writeString(file, "connector: sqlite\nconnection_string: https://shop-me.turso.io?authToken=s3cret\n");
        e = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        ProjectFixture.assertProblem(e, file, 2, "connection_string is a https: URL", "remote libSQL is not supported");
    }
}
