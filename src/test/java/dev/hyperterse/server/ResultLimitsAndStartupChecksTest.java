package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Through the whole server: a result cut at the tool's row limit says so to the caller, and a
 * statement the database cannot prepare stops start-up, naming the tool file and line.
 */
class ResultLimitsAndStartupChecksTest {
    @TempDir
    Path dir;

    void project() throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: limits\n");
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("app/adapters/db.terse"), "connector: sqlite\nconnection_string: ':memory:'\n");
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
            assertEquals("Note: only the first 2 rows are shown; the result had more. Narrow the query to see the rest.",
                    content.getJsonObject(1).getString("text"));
        }
    }

    @Test
    void aStatementTheDatabaseRejectsStopsStartUp() throws Exception {
        project();
        RunningServer.writeTool(dir, "broken", "description: x\nuse: db\nstatement: SELECT nope FROM missing_table\n");
        ExecutionException e = assertThrows(ExecutionException.class, () -> RunningServer.start(dir).close());
        StartupException startup = assertInstanceOf(StartupException.class, e.getCause());
        assertTrue(startup.getMessage().contains("app/tools/broken/config.terse:3"), startup.getMessage());
        assertTrue(startup.getMessage().contains("missing_table"), startup.getMessage());
    }
}
