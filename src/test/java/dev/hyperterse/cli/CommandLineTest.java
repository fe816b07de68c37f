package dev.hyperterse.cli;

import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commands as a user runs them: exit codes and what they print. */
class CommandLineTest {
    @TempDir
    Path dir;

    static CliRunner.Run run(String... args) {
        return CliRunner.run(args);
    }

    @Test
    void validateAcceptsTheQuickstart() {
        CliRunner.Run r = run("validate", "tools-examples/quickstart");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("project 'quickstart' is valid: 4 tools, 1 adapter"), r.out());
    }

    @Test
    void validateListsEveryProblemWithFileAndLine() throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: broken\ntools:\n  search:\n    limit: 0\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "a", "use: db\nstatment: SELECT 1\n");
        RunningServer.writeTool(dir, "b",
                "use: nodb\nstatement: SELECT {{ inputs.x }}\ninputs:\n  y:\n    type: int\n");

        CliRunner.Run r = run("validate", dir.toString());
        assertEquals(1, r.code());
        List<String> lines = r.err().lines().filter(l -> l.startsWith("  ")).map(String::trim).toList();
        assertTrue(r.err().startsWith(lines.size() + " configuration errors:"), r.err());
        assertContainsLine(lines, ".hyperterse:4: ", "tools.search.limit");
        assertContainsLine(lines, "tools/a/config.terse:2: ", "unknown key 'statment' (did you mean 'statement'?)");
        assertContainsLine(lines, "tools/a/config.terse:1: ", "statement");
        assertContainsLine(lines, "tools/b/config.terse:1: ", "nodb");
        assertContainsLine(lines, "tools/b/config.terse:2: ", "inputs.x");
    }

    /** A Turso URL in a sqlite adapter: both commands name the line; start creates no folder "libsql:". */
    @Test
    void validateAndStartRefuseARemoteLibsqlUrlAtItsLine() throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: turso\n");
        ProjectFiles.write(dir, "app/adapters/db.terse", "connector: sqlite\n"
                + "connection_string: libsql://shop-me.turso.io?authToken=s3cret\n");
        RunningServer.writeTool(dir, "t", "use: db\nstatement: SELECT 1\n");
        for (String command : new String[] {"validate", "start"}) {
            CliRunner.Run r = command.equals("start") ? run("start", dir.toString(), "--port", "0")
                    : run("validate", dir.toString());
            assertEquals(1, r.code(), command + ": " + r.err());
            assertTrue(r.err().contains("app/adapters/db.terse:2: adapter 'db': connection_string is a libsql: URL,"
                    + " a remote libSQL/Turso database, and remote libSQL is not supported"), command + ": " + r.err());
            assertTrue(!r.err().contains("s3cret"), r.err());
        }
        assertTrue(!Files.exists(dir.resolve("libsql:")), "start created no local folder for the URL");
    }

    @Test
    void validateReportsStatementsThatCannotBeBound() throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: s\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "t",
                "use: db\nstatement: |\n  SELECT id\n  FROM \"{{ inputs.col }}\"\ninputs:\n  col:\n    type: string\n");
        CliRunner.Run r = run("validate", dir.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("tools/t/config.terse:4: tool 't': statement: placeholder '{{ inputs.col }}' is inside "
                + "the quoted identifier"), r.err());
    }

    @Test
    void initCreatesAProjectThatStartServes() throws Exception {
        Path project = dir.resolve("notes");
        CliRunner.Run init = run("init", project.toString());
        assertEquals(0, init.code(), init.err());
        assertEquals(0, run("validate", project.toString()).code());
        assertEquals(1, run("init", project.toString()).code(), "refuses to overwrite");

        try (RunningServer server = RunningServer.start(project)) {
            var http = new dev.hyperterse.testing.RawHttp(server.baseUrl());
            JsonObject add = dev.hyperterse.testing.RawHttp.request(1, "tools/call", new JsonObject().put("name", "execute")
                    .put("arguments", new JsonObject().put("tool", "add-note")
                            .put("inputs", new JsonObject().put("title", "From a test"))));
            String added = new JsonObject(http.mcp(add).body()).getJsonObject("result").getJsonArray("content")
                    .getJsonObject(0).getString("text");
            assertEquals(new JsonArray().add(new JsonObject().put("rows_affected", 1)), new JsonArray(added));
            JsonObject find = dev.hyperterse.testing.RawHttp.request(2, "tools/call", new JsonObject().put("name", "execute")
                    .put("arguments", new JsonObject().put("tool", "find-notes")
                            .put("inputs", new JsonObject().put("text", "test"))));
            JsonArray rows = new JsonArray(new JsonObject(http.mcp(find).body()).getJsonObject("result")
                    .getJsonArray("content").getJsonObject(0).getString("text"));
            assertEquals("From a test", rows.getJsonObject(0).getString("title"));
            JsonObject read = dev.hyperterse.testing.RawHttp.request(3, "resources/read", new JsonObject().put("uri", "notes://1"));
            String note = new JsonObject(http.mcp(read).body()).getJsonObject("result").getJsonArray("contents")
                    .getJsonObject(0).getString("text");
            assertEquals("Welcome", new JsonArray(note).getJsonObject(0).getString("title"));
            JsonObject prompt = dev.hyperterse.testing.RawHttp.request(4, "prompts/get", new JsonObject()
                    .put("name", "summarize-note").put("arguments", new JsonObject().put("id", "1")));
            assertTrue(http.mcp(prompt).body().contains("Read notes://1 and summarize it"));
        }
    }

    @Test
    void initKeepsTheHiddenFilesAFolderAlreadyHas() throws Exception {
        // a fresh clone: only dot files, which init accepts, and must not overwrite
        Path project = Files.createDirectories(dir.resolve("cloned"));
        Files.writeString(project.resolve(".gitignore"), "node_modules/\n.env");
        Files.writeString(project.resolve(".env"), "API_KEY=kept\n");
        CliRunner.Run init = run("init", project.toString());
        assertEquals(0, init.code(), init.err());
        assertEquals("node_modules/\n.env\ndata/\n.env*\n!.env.example\n", Files.readString(project.resolve(".gitignore")));
        assertEquals("API_KEY=kept\n", Files.readString(project.resolve(".env")));

        Path second = Files.createDirectories(dir.resolve("second"));
        Files.writeString(second.resolve(".gitignore"), "data/\n");
        assertEquals(0, run("init", second.toString()).code());
        assertEquals("data/\nnode_modules/\n.env*\n!.env.example\n", Files.readString(second.resolve(".gitignore")),
                "already ignored: not added twice");

        // a new folder's: the database, npm's packages and the env files, which hold secrets
        Path fresh = dir.resolve("fresh");
        assertEquals(0, run("init", fresh.toString()).code());
        assertEquals("data/\nnode_modules/\n.env*\n!.env.example\n", Files.readString(fresh.resolve(".gitignore")));
    }

    @Test
    void versionAndHelp() {
        CliRunner.Run version = run("--version");
        assertEquals(0, version.code());
        assertTrue(version.out().startsWith("hyperterse "), version.out());
        CliRunner.Run help = run("--help");
        assertEquals(0, help.code());
        for (String command : List.of("start", "validate", "init")) {
            assertTrue(help.out().contains(command), help.out());
        }
        CliRunner.Run startHelp = run("start", "--help");
        for (String option : List.of("--file", "--port", "--host", "--log-level", "--verbose")) {
            assertTrue(startHelp.out().contains(option), option);
        }
    }

    @Test
    void portPrecedence() {
        assertEquals(9000, Listen.port(9000, 7000, "6000"));
        assertEquals(7000, Listen.port(null, 7000, "6000"));
        assertEquals(6000, Listen.port(null, null, "6000"));
        assertEquals(8080, Listen.port(null, null, null));
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Listen.port(null, null, "eighty"));
        assertTrue(bad.getMessage().contains("$PORT"));
    }

    @Test
    void startRefusesABrokenProjectWithExitStatusOne() throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "version: 1\n");
        CliRunner.Run r = run("start", dir.toString(), "--port", "0");
        assertEquals(1, r.code());
        assertTrue(r.err().contains(".hyperterse"), r.err());
    }

    private static void assertContainsLine(List<String> lines, String prefixEnd, String fragment) {
        assertTrue(lines.stream().anyMatch(l -> l.contains(prefixEnd) && l.contains(fragment)),
                () -> "no line with '" + prefixEnd + "' and '" + fragment + "' in:\n" + String.join("\n", lines));
    }
}
