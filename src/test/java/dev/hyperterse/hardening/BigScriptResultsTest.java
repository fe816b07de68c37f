package dev.hyperterse.hardening;

import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handler or an output mapper that returns millions of values within its time limit: the
 * answer holds the tool's size limit, and turning the script's result into rows costs the event
 * loop no more than the rows kept (checked by {@link WatchedServer#close}: no blocked event loop).
 */
class BigScriptResultsTest {
    static final int VALUES = 3_000_000;

    @TempDir
    Path dir;

    @Test
    void millionsOfValuesFromAScriptCostTheEventLoopOnlyTheRowsKept() throws Exception {
        ProjectFiles.write(dir, ".hyperterse", "name: big-results\ntools:\n  script_timeout: 30s\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "many", "handler: ./handler.js\nresult_max_bytes: 64kb\n");
        ProjectFiles.write(dir, "app/tools/many/handler.js", "export default () => new Array(" + VALUES + ").fill(1);\n");
        RunningServer.writeTool(dir, "many-mapped", "use: db\nresult_max_bytes: 64kb\nstatement: SELECT 1 AS n\n"
                + "mappers: { output: ./out.js }\n");
        ProjectFiles.write(dir, "app/tools/many-mapped/out.js",
                "export default ({ results }) => new Array(" + VALUES + ").fill(results[0]);\n");
        try (WatchedServer server = WatchedServer.watch(dir)) {
            for (String tool : new String[] {"many", "many-mapped"}) {
                HttpResponse<String> r = server.http().mcp(RawHttp.execute(1, tool, new JsonObject()));
                assertEquals(200, r.statusCode(), r.body());
                JsonArray content = new JsonObject(r.body()).getJsonObject("result").getJsonArray("content");
                assertTrue(content.getJsonObject(0).getString("text").length() <= 64 * 1024, tool);
                assertTrue(content.getJsonObject(1).getString("text").contains("size limit of 64kb"), tool);
            }
        }
    }
}
