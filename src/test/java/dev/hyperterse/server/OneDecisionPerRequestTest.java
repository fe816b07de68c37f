package dev.hyperterse.server;

import dev.hyperterse.testing.LogCapture;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request reads one snapshot and decides its auth once: a 2026-07-28 {@code tools/call} of a
 * tool by name takes a single lease from the header check to the answer (a reload meanwhile
 * cannot split it), and its auth script runs once although the call checks visibility, confirms
 * and runs (each asks the same decision).
 */
class OneDecisionPerRequestTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(dir -> {
        Files.writeString(dir.resolve(".hyperterse"), String.join("\n",
                "name: gated",
                "tools:",
                "  exposure: both",
                "auth:",
                "  plugin: script",
                "  policy:",
                "    path: auth/gate.ts",
                ""));
        Files.createDirectories(dir.resolve("auth"));
        Files.writeString(dir.resolve("auth/gate.ts"), String.join("\n",
                "export default (req: { headers: Record<string, string>; tool: string }) => {",
                "  console.log('deciding for ' + req.tool + ' ' + req.headers['x-request-tag']);",
                "  return req.headers['x-gate'] === 'open';",
                "};",
                ""));
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "one-row", "description: 'One row'\nuse: db\nstatement: SELECT 1 AS n\n");
        return RunningServer.start(dir);
    });
    static final RawHttp http = server.http();

    private static long leases() {
        return server.server().snapshots().peek().calls().taken();
    }

    @Test
    void aStatelessCallByNameTakesOneLeaseAndDecidesAuthOnce() throws Exception {
        try (LogCapture console = LogCapture.root()) {
            JsonObject call = McpStatelessTest.call(1, "one-row", new JsonObject(), new JsonObject());
            long before = leases();
            JsonObject result = McpStatelessTest.result(http.mcp(call, McpStatelessTest.headers(call,
                    "X-Gate", "open", "X-Request-Tag", "direct-1")));
            assertEquals(1, leases() - before, "leases taken by one tools/call");
            assertTrue(result.getJsonArray("content").getJsonObject(0).getString("text").contains("\"n\":1"),
                    result.encode());
            assertEquals(1, console.messagesContaining("direct-1").size(), String.valueOf(console.messages()));

            JsonObject viaExecute = McpStatelessTest.call(2, "execute", new JsonObject().put("tool", "one-row")
                    .put("inputs", new JsonObject()), new JsonObject());
            before = leases();
            McpStatelessTest.result(http.mcp(viaExecute, McpStatelessTest.headers(viaExecute,
                    "X-Gate", "open", "X-Request-Tag", "execute-2")));
            assertEquals(1, leases() - before, "leases taken by one execute");
            assertEquals(1, console.messagesContaining("execute-2").size(), String.valueOf(console.messages()));
        }
    }
}
