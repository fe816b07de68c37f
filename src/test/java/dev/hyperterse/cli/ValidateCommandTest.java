package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code validate} loads scripts: a syntax error is a configuration error with file:line:column. */
class ValidateCommandTest {

    @Test
    void aScriptSyntaxErrorFailsValidation(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/tools/t"));
        Files.writeString(dir.resolve("app/tools/t/config.terse"), "description: t\n");
        Files.writeString(dir.resolve("app/tools/t/handler.ts"), "export default (p: {a: number) => 1;\n");
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        int code = Main.commandLine().setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", dir.toString());
        assertEquals(1, code, err::toString);
        assertTrue(err.toString().contains("1 configuration error:"), err.toString());
        assertTrue(err.toString().contains("app/tools/t/handler.ts:1:30: tool 't': handler: SyntaxError: Expected ';', got ')'"), err.toString());

        Files.writeString(dir.resolve("app/tools/t/handler.ts"), "export default (p: {a: number}) => p.a;\n");
        err.getBuffer().setLength(0);
        code = Main.commandLine().setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", dir.toString());
        assertEquals(0, code, err::toString);
        assertTrue(out.toString().contains("project 't' is valid: 1 tool,"), out.toString());
    }

    /** Configuration errors do not hide script syntax errors: one run reports both, scripts at file:line:column. */
    @Test
    void configurationAndScriptErrorsInOneRun(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: t\ntools:\n  search:\n    limit: 0\n");
        Files.createDirectories(dir.resolve("app/tools/t"));
        Files.writeString(dir.resolve("app/tools/t/config.terse"), "description: t\ninputs:\n  x:\n    type: nope\n");
        Files.writeString(dir.resolve("app/tools/t/handler.ts"), "export default (p: {a: number) => 1;\n");
        Files.createDirectories(dir.resolve("app/tools/u"));
        Files.writeString(dir.resolve("app/tools/u/config.terse"), "description: u\n");
        Files.writeString(dir.resolve("app/tools/u/handler.ts"), "export default () => 1;\n");
        Files.writeString(dir.resolve("app/tools/u/input.ts"), "export default (x) => {\n  return x +;\n};\n");

        CliRunner.Run r = CliRunner.run("validate", dir.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().startsWith("4 configuration errors:"), r.err());
        assertTrue(r.err().contains(".hyperterse:4: "), r.err());
        assertTrue(r.err().contains("app/tools/t/config.terse:4: "), r.err());
        assertTrue(r.err().contains("app/tools/t/handler.ts:1:30: tool 't': handler: SyntaxError: Expected ';', got ')'"),
                r.err());
        assertTrue(r.err().contains("app/tools/u/input.ts:2:"), r.err());
        assertTrue(r.err().contains("tool 'u': input mapper: SyntaxError"), r.err());
    }

    /**
     * {@code validate --check-db} changes nothing: a SQLite file that start would create is built
     * in memory instead (and said so), an existing one is opened read-only, leaving no journal
     * files, and statements are still checked against both.
     */
    @Test
    void checkingTheDatabaseCreatesNoFiles(@TempDir Path scratch) throws Exception {
        Path project = dev.hyperterse.testing.RunningServer.copyExample("quickstart", scratch);
        dev.hyperterse.testing.RunningServer.writeTool(project, "bad-column",
                "description: 'reads a column that does not exist'\nuse: shop\nstatement: SELECT no_such_column FROM customers\n");
        CliRunner.Run missing = CliRunner.run("validate", "--check-db", project.toString());
        assertEquals(1, missing.code(), missing.err());
        assertTrue(missing.err().contains("data/shop.db does not exist yet; start will create it from init_sql "
                + "db/schema.sql, db/seed.sql"), missing.err());
        assertTrue(missing.err().contains("tool 'bad-column': the statement does not prepare on adapter 'shop'"),
                missing.err());
        assertTrue(missing.err().contains("no_such_column"), missing.err());
        assertFalse(Files.exists(project.resolve("data")), "validate created " + project.resolve("data"));

        java.nio.file.Files.delete(project.resolve("app/tools/bad-column/config.terse"));
        java.nio.file.Files.delete(project.resolve("app/tools/bad-column"));
        try (dev.hyperterse.testing.RunningServer server = dev.hyperterse.testing.RunningServer.start(project)) {
            assertTrue(Files.exists(project.resolve("data/shop.db")));
        }
        List<String> before = files(project.resolve("data"));
        byte[] content = Files.readAllBytes(project.resolve("data/shop.db"));
        CliRunner.Run existing = CliRunner.run("validate", "--check-db", project.toString());
        assertEquals(0, existing.code(), existing.err());
        assertFalse(existing.err().contains("does not exist yet"), existing.err());
        assertEquals(before, files(project.resolve("data")), "validate left files beside the database");
        assertTrue(java.util.Arrays.equals(content, Files.readAllBytes(project.resolve("data/shop.db"))),
                "validate changed the database file");
    }

    /**
     * {@code --check-db} with a database that cannot be reached fails (it exited 0 "checked against
     * the reachable databases", so a CI job went green with nothing checked), naming the adapter,
     * its connector, what went unchecked and why; the reachable adapters are still checked.
     */
    @Test
    void anUnreachableDatabaseFailsTheCheckNamingTheAdapterAndWhy(@TempDir Path scratch) throws Exception {
        Path project = dev.hyperterse.testing.RunningServer.copyExample("quickstart", scratch);
        Files.writeString(project.resolve("app/adapters/orders.terse"),
                "connector: postgres\nconnection_string: 'postgres://app:s3cret@127.0.0.1:1/orders'\n");
        dev.hyperterse.testing.RunningServer.writeTool(project, "count-orders",
                "description: 'counts orders'\nuse: orders\nstatement: SELECT count(*) FROM orders\n");
        dev.hyperterse.testing.RunningServer.writeTool(project, "bad-column",
                "description: 'reads a column that does not exist'\nuse: shop\nstatement: SELECT no_such_column FROM customers\n");
        CliRunner.Run r = CliRunner.run("validate", "--check-db", project.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("2 configuration errors:"), r.err());
        assertTrue(r.err().contains("app/adapters/orders.terse: adapter 'orders' (postgres) cannot connect, so 1 statement "
                + "on it went unchecked: cannot connect to PostgreSQL at 127.0.0.1:1/orders"), r.err());
        assertTrue(r.err().contains("tool 'bad-column': the statement does not prepare on adapter 'shop'"), r.err());
        assertFalse(r.err().contains("s3cret"), r.err());
        assertEquals("", r.out(), "no 'is valid' line");
    }

    private static List<String> files(Path folder) throws java.io.IOException {
        try (java.util.stream.Stream<Path> list = Files.list(folder)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aPlaceholderInAnIntervalLiteralWithFieldsIsRefusedWithItsFileAndLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("app/adapters/db.terse"),
                "connector: postgres\nconnection_string: 'postgres://postgres@127.0.0.1:5432/test'\n");
        Files.createDirectories(dir.resolve("app/tools/recent"));
        Files.writeString(dir.resolve("app/tools/recent/config.terse"), "use: db\nstatement: |\n  SELECT *\n"
                + "  FROM orders WHERE placed > now() - INTERVAL '{{ inputs.days }}' DAY\ninputs:\n  days:\n    type: int\n");
        StringWriter err = new StringWriter();
        int code = Main.commandLine().setErr(new PrintWriter(err)).setOut(new PrintWriter(new StringWriter()))
                .execute("validate", dir.toString());
        assertEquals(1, code, err::toString);
        assertTrue(err.toString().contains("tools/recent/config.terse:4: tool 'recent': statement: a placeholder inside an"
                + " interval literal followed by its fields"), err.toString());
    }

    @Test
    void variablesThatAreNotSetAreWarningsUnlessStrict(@TempDir Path dir) throws Exception {
        // Hyperterse resolves env at connect and execute time: validate passes in CI without secrets
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("app/adapters/db.terse"),
                "connector: postgres\nconnection_string: '{{ env.HT_TEST_UNSET_DB_URL }}'\n");
        Files.createDirectories(dir.resolve("app/tools/t"));
        Files.writeString(dir.resolve("app/tools/t/config.terse"),
                "use: db\nstatement: SELECT * FROM {{ env.HT_TEST_UNSET_SCHEMA }}.users\n");
        Files.createDirectories(dir.resolve("app/tools/w"));
        Files.writeString(dir.resolve("app/tools/w/config.terse"), "env: [HT_TEST_UNSET_API_KEY]\n");
        Files.writeString(dir.resolve("app/tools/w/handler.ts"), "export default () => process.env;\n");
        Files.createDirectories(dir.resolve("app/resources/row"));
        Files.writeString(dir.resolve("app/resources/row/config.terse"), "uri_template: db://rows/{id}\nuse: db\n"
                + "statement: SELECT * FROM {{ env.HT_TEST_UNSET_TABLE }} WHERE id = {{ args.id }}\n");
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        int code = Main.commandLine().setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", dir.toString());
        assertEquals(0, code, err::toString);
        assertTrue(out.toString().contains("project 't' is valid"), out.toString());

        err.getBuffer().setLength(0);
        code = Main.commandLine().setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", "--strict-env", dir.toString());
        assertEquals(1, code, err::toString);
        for (String variable : new String[] {"HT_TEST_UNSET_DB_URL", "HT_TEST_UNSET_SCHEMA", "HT_TEST_UNSET_API_KEY",
                "HT_TEST_UNSET_TABLE"}) {
            assertTrue(err.toString().contains("environment variable '" + variable + "' is not set"), err.toString());
        }
    }

    /** Search can rank a tool with no description by its name and inputs alone: validate says so, at the tool's file. */
    @Test
    void aToolWithNoDescriptionIsWarnedAbout(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/tools/described"));
        Files.writeString(dir.resolve("app/tools/described/config.terse"), "description: Lists late invoices\n");
        Files.writeString(dir.resolve("app/tools/described/handler.ts"), "export default () => [];\n");
        Files.createDirectories(dir.resolve("app/tools/bare"));
        Files.writeString(dir.resolve("app/tools/bare/config.terse"), "examples: [which invoices are late]\n");
        Files.writeString(dir.resolve("app/tools/bare/handler.ts"), "export default () => [];\n");
        CliRunner.Run r = CliRunner.run("validate", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().startsWith("warning: "), r.err());
        assertTrue(r.err().contains("app/tools/bare/config.terse:1: tool 'bare' has no description: search"
                + " ranks it by its name and inputs alone"), r.err());
        assertFalse(r.err().contains("tool 'described' has no description"), r.err());
        assertTrue(r.out().contains("project 't' is valid: 2 tools,"), r.out());
    }
}
