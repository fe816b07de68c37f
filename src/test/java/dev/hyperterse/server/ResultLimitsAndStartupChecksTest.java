package dev.hyperterse.server;

import dev.hyperterse.testing.LogCapture;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Through the whole server: a result cut at the tool's row limit says so to the caller, and a
 * statement the database cannot prepare makes its tool unavailable (or, strictly, stops start-up),
 * naming the tool file and line.
 */
class ResultLimitsAndStartupChecksTest {
    @TempDir
    Path dir;

    void project() throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: limits\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "three-rows", "use: db\nrow_limit: 2\nstatement: >-\n"
                + "  SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 ORDER BY n\n");
    }

    @Test
    void aCutResultCarriesANote() throws Exception {
        project();
        try (RunningServer server = RunningServer.start(dir)) {
            JsonObject response = new JsonObject(new RawHttp(server.baseUrl())
                    .mcp(RawHttp.execute(1, "three-rows", new JsonObject())).body());
            JsonArray content = response.getJsonObject("result").getJsonArray("content");
            assertEquals(new JsonArray("[{\"n\":1},{\"n\":2}]"), new JsonArray(content.getJsonObject(0).getString("text")));
            assertEquals("Note: only the first 2 rows are shown: the result was cut at the row limit of 2 (row_limit)."
                            + " Narrow the query to see the rest.",
                    content.getJsonObject(1).getString("text"));
        }
    }

    /** Five rows of about 420 bytes of JSON each: two fit in 1kb. */
    static final String WIDE_ROWS = "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 5)"
            + " SELECT n, replace(hex(zeroblob(200)), '0', 'x') AS body FROM s";

    static JsonArray content(RunningServer server, String tool) throws Exception {
        JsonObject response = new JsonObject(new RawHttp(server.baseUrl())
                .mcp(RawHttp.execute(1, tool, new JsonObject())).body());
        return response.getJsonObject("result").getJsonArray("content");
    }

    @Test
    void aResultCutAtItsSizeLimitSaysWhichLimitAndCachedCopiesObeyIt() throws Exception {
        project();
        RunningServer.writeTool(dir, "wide", "use: db\nresult_max_bytes: 1kb\ncache: { enabled: true, ttl: 60 }\n"
                + "statement: \"" + WIDE_ROWS + "\"\n");
        RunningServer.writeTool(dir, "too-wide", "use: db\nresult_max_bytes: 300\nstatement: \"" + WIDE_ROWS + "\"\n");
        Files.createDirectories(dir.resolve("app/tools/made"));
        Files.writeString(dir.resolve("app/tools/made/made.js"),
                "export default () => [1, 2, 3, 4, 5].map(n => ({ n, body: 'y'.repeat(400) }));\n");
        RunningServer.writeTool(dir, "made", "handler: ./made.js\nresult_max_bytes: 1kb\n");
        try (RunningServer server = RunningServer.start(dir)) {
            for (int call = 0; call < 2; call++) {   // the second answer comes from the cache
                JsonArray content = content(server, "wide");
                JsonArray rows = new JsonArray(content.getJsonObject(0).getString("text"));
                assertEquals(2, rows.size(), "call " + call);
                assertTrue(content.getJsonObject(0).getString("text").length() <= 1024);
                assertEquals("Note: only the first 2 rows are shown: the result was cut at the size limit of 1kb"
                                + " (result_max_bytes). Narrow the query or select fewer columns to see the rest.",
                        content.getJsonObject(1).getString("text"), "call " + call);
            }
            JsonArray none = content(server, "too-wide");
            assertEquals("[]", none.getJsonObject(0).getString("text"));
            assertEquals("Note: no rows are shown: the first row alone is larger than the tool's result size limit"
                    + " of 300 bytes (result_max_bytes). Select fewer or shorter columns.", none.getJsonObject(1).getString("text"));
            JsonArray made = content(server, "made");
            assertEquals(2, new JsonArray(made.getJsonObject(0).getString("text")).size(), "a handler's result obeys it too");
            assertTrue(made.getJsonObject(1).getString("text").contains("size limit of 1kb"));
        }
    }

    /** What an output mapper makes of the rows is held to the size limit as a handler's result is. */
    @Test
    void anOutputMappersResultObeysTheSizeLimitToo() throws Exception {
        project();
        RunningServer.writeTool(dir, "mapped", "use: db\nresult_max_bytes: 1kb\nstatement: SELECT 1 AS n\n"
                + "mappers: { output: ./out.js }\n");
        Files.writeString(dir.resolve("app/tools/mapped/out.js"),
                "export default () => [1, 2, 3, 4, 5].map(n => ({ n, body: 'y'.repeat(400) }));\n");
        try (RunningServer server = RunningServer.start(dir)) {
            JsonArray content = content(server, "mapped");
            assertEquals(2, new JsonArray(content.getJsonObject(0).getString("text")).size(), content.encode());
            assertEquals("Note: only the first 2 rows are shown: the result was cut at the size limit of 1kb"
                            + " (result_max_bytes). Narrow the query or select fewer columns to see the rest.",
                    content.getJsonObject(1).getString("text"));
        }
    }

    /**
     * As Hyperterse starts such a project: the tool whose statement its database rejects answers
     * an error naming the failure, the others serve, the start logs a warning at the statement's
     * line, and /ready's details list it (the server stays ready).
     */
    @Test
    void aStatementTheDatabaseRejectsMakesOnlyItsToolUnavailable() throws Exception {
        project();
        RunningServer.writeTool(dir, "broken", "description: x\nuse: db\nstatement: SELECT nope FROM missing_table\n");
        try (LogCapture log = LogCapture.of(Snapshot.class);
             RunningServer server = RunningServer.start(dir, s -> s.metricsToken("probe"), ServeOptions.DEFAULTS)) {
            assertTrue(log.messages().stream().anyMatch(m -> m.contains("app/tools/broken/config.terse:3: tool 'broken':"
                    + " the statement does not prepare on adapter 'db': ") && m.contains("missing_table")
                    && m.contains("start --strict")), log.messages().toString());

            RawHttp http = new RawHttp(server.baseUrl());
            ToolError error = ToolError.ofAnswer(new JsonObject(http.mcp(RawHttp.execute(1, "broken", new JsonObject())).body()));
            assertEquals(-32000, error.code(), error.toString());
            String message = error.message();
            assertTrue(message.startsWith("execution failed: tool 'broken' is unavailable: the statement does not"
                    + " prepare on adapter 'db': "), message);
            assertTrue(message.contains("missing_table") && message.contains("when the server loaded the project"),
                    message);
            assertFalse(message.contains("config.terse"), "callers are not told where the project's files are");
            assertEquals("execution", error.stage());

            JsonArray rows = new JsonArray(content(server, "three-rows").getJsonObject(0).getString("text"));
            assertEquals(2, rows.size(), "the other tools serve");

            HttpResponse<String> ready = http.send("GET", "/ready", "Authorization", "Bearer probe");
            assertEquals(200, ready.statusCode(), ready.body());
            JsonObject details = new JsonObject(ready.body());
            assertTrue(details.getBoolean("ready"));
            JsonObject unavailable = details.getJsonArray("unavailable").getJsonObject(0);
            assertTrue(unavailable.getString("at").endsWith("app/tools/broken/config.terse:3"), unavailable.encode());
            assertTrue(unavailable.getString("error").startsWith("tool 'broken': the statement does not prepare"),
                    unavailable.encode());
            assertEquals(new JsonObject().put("ready", true).put("status", "ready"),
                    new JsonObject(http.send("GET", "/ready").body()), "a probe without the token learns only that");
        }
    }

    /** {@code start --strict} keeps the refusal: the statement's file and line, and the database's reason. */
    @Test
    void withStrictStatementsARejectedStatementStopsStartUp() throws Exception {
        project();
        RunningServer.writeTool(dir, "broken", "description: x\nuse: db\nstatement: SELECT nope FROM missing_table\n");
        ExecutionException e = assertThrows(ExecutionException.class, () -> RunningServer.start(dir,
                s -> s, ServeOptions.DEFAULTS.withStrictStatements(true)).close());
        StartupException startup = assertInstanceOf(StartupException.class, e.getCause());
        assertTrue(startup.getMessage().contains("app/tools/broken/config.terse:3"), startup.getMessage());
        assertTrue(startup.getMessage().contains("missing_table"), startup.getMessage());
    }

    /** A handler whose top-level code never finishes stops start-up within the tool's time limit, naming it. */
    @Test
    void endlessTopLevelCodeStopsStartUpInsteadOfHangingIt() throws Exception {
        project();
        RunningServer.writeTool(dir, "loops", "description: x\nhandler: ./handler.js\ntimeout: 1s\n");
        Files.writeString(dir.resolve("app/tools/loops/handler.js"), "for (;;) {}\nexport default () => 1;\n");
        ExecutionException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                java.time.Duration.ofSeconds(30), () -> assertThrows(ExecutionException.class,
                        () -> RunningServer.start(dir).close()), "start-up did not finish");
        StartupException startup = assertInstanceOf(StartupException.class, e.getCause());
        assertTrue(startup.getMessage().contains("tool 'loops': handler ") && startup.getMessage().contains(
                "handler.js: its top-level code did not finish within 1s"), startup.getMessage());
    }
}
