package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.testing.ProjectFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tools.exposure}: the project's tools listed in {@code tools/list} and called by name, as
 * Hyperterse 2.1 and earlier (its v2.0 quickstart calls {@code get-user} directly), MCP Toolbox
 * and SDK servers do; listed only to callers who may run them.
 */
class ToolExposureTest {
    @TempDir
    Path scratch;

    private Path project(String exposure) {
        Path dir = scratch.resolve(exposure);
        write(dir, ".hyperterse", "name: exposure\ntools:\n  exposure: " + exposure + "\n");
        write(dir, "app/adapters/db.terse", "connector: sqlite\nconnection_string: 'sqlite::memory:'\n");
        write(dir, "app/tools/get-user/config.terse", "description: 'One user by id'\nuse: db\n"
                + "statement: SELECT {{ inputs.id }} AS id, 'Ada' AS name\ninputs:\n  id:\n    type: int\n"
                + "    description: 'The user id'\n");
        write(dir, "app/tools/admin-report/config.terse", "description: 'Admins only'\nuse: db\n"
                + "statement: SELECT 42 AS answer\nauth:\n  plugin: api_key\n  policy:\n    value: s3cret-key\n");
        return dir;
    }

    private static List<String> names(JsonObject listResult) {
        List<String> names = new ArrayList<>();
        for (Object t : listResult.getJsonArray("tools")) {
            names.add(((JsonObject) t).getString("name"));
        }
        return names;
    }

    private static JsonObject post(RawHttp http, JsonObject request, String... headers) throws Exception {
        return new JsonObject(http.mcp(request, headers).body());
    }

    @Test
    void directListsTheToolsACallerMayRunAndCallsThemByName() throws Exception {
        try (RunningServer server = RunningServer.start(project("direct"))) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject anonymous = post(http, RawHttp.request(1, "tools/list", null)).getJsonObject("result");
            assertEquals(List.of("get-user"), names(anonymous), "no meta-tools, no tool the caller may not run");
            JsonObject tool = anonymous.getJsonArray("tools").getJsonObject(0);
            assertEquals("One user by id", tool.getString("description"));
            assertEquals("integer", tool.getJsonObject("inputSchema").getJsonObject("properties").getJsonObject("id")
                    .getString("type"), tool.encode());
            assertEquals(new JsonArray().add("id"), tool.getJsonObject("inputSchema").getJsonArray("required"));
            assertEquals(true, tool.getJsonObject("annotations").getBoolean("readOnlyHint"), tool.encode());
            JsonObject admin = post(http, RawHttp.request(2, "tools/list", null), "X-API-Key", "s3cret-key")
                    .getJsonObject("result");
            assertEquals(List.of("admin-report", "get-user"), names(admin), "listed by name");

            JsonObject called = post(http, RawHttp.request(3, "tools/call", new JsonObject().put("name", "get-user")
                    .put("arguments", new JsonObject().put("id", 7)))).getJsonObject("result");
            assertEquals("[{\"id\":7,\"name\":\"Ada\"}]",
                    called.getJsonArray("content").getJsonObject(0).getString("text"));
            // a failed call of a listed tool is an isError result the model can read
            assertEquals(new ToolError("input validation failed: validation error for field 'id': expected int, got"
                    + " \"seven\"", -32000, "input_validation", "get-user"), ToolError.ofAnswer(post(http,
                    RawHttp.request(8, "tools/call", new JsonObject().put("name", "get-user")
                            .put("arguments", new JsonObject().put("id", "seven"))))));
            // a tool the caller may not run reads exactly like one that does not exist: a name tools/list
            // never showed is a protocol error (-32602), as MCP 2025-11-25 says
            JsonObject hidden = post(http, RawHttp.request(4, "tools/call", new JsonObject().put("name", "admin-report")
                    .put("arguments", new JsonObject()))).getJsonObject("error");
            JsonObject missing = post(http, RawHttp.request(5, "tools/call", new JsonObject().put("name", "no-such")
                    .put("arguments", new JsonObject()))).getJsonObject("error");
            assertEquals(-32602, missing.getInteger("code"));
            assertEquals(missing.getInteger("code"), hidden.getInteger("code"));
            assertEquals(missing.getString("message").replace("no-such", "admin-report"), hidden.getString("message"));
            JsonObject allowed = post(http, RawHttp.request(6, "tools/call", new JsonObject().put("name", "admin-report")
                    .put("arguments", new JsonObject())), "X-API-Key", "s3cret-key").getJsonObject("result");
            assertEquals("[{\"answer\":42}]", allowed.getJsonArray("content").getJsonObject(0).getString("text"));
            // search and execute are not offered in direct mode
            JsonObject search = post(http, RawHttp.request(7, "tools/call", new JsonObject().put("name", "search")
                    .put("arguments", new JsonObject().put("query", "user")))).getJsonObject("error");
            assertEquals(-32602, search.getInteger("code"));
        }
    }

    @Test
    void bothListsTheMetaToolsFirstAndPagesWithCursors() throws Exception {
        try (RunningServer server = RunningServer.start(project("both"), Map.of(),
                s -> s.limits(l -> l.pageSize(2)))) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject first = post(http, RawHttp.request(1, "tools/list", null), "X-API-Key", "s3cret-key")
                    .getJsonObject("result");
            assertEquals(List.of("search", "execute"), names(first));
            String cursor = first.getString("nextCursor");
            JsonObject second = post(http, RawHttp.request(2, "tools/list", new JsonObject().put("cursor", cursor)),
                    "X-API-Key", "s3cret-key").getJsonObject("result");
            assertEquals(List.of("admin-report", "get-user"), names(second));
            assertNull(second.getValue("nextCursor"));
            JsonObject executed = post(http, RawHttp.execute(3, "get-user", new JsonObject().put("id", 1)))
                    .getJsonObject("result");
            assertTrue(executed.getJsonArray("content").getJsonObject(0).getString("text").contains("\"id\":1"));
        }
    }

    /**
     * 2026-07-28, by default: execute declares no header parameter, so a client that calls it
     * without listing the tools first (and so without Mcp-Param-Tool) is served.
     */
    @Test
    void executeIsCalledColdWithoutAHeaderByDefault() throws Exception {
        Path meta = project("meta");
        try (RunningServer server = RunningServer.start(meta)) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject list = McpStatelessTest.request(1, "tools/list",
                    new JsonObject().put("_meta", McpStatelessTest.meta(new JsonObject())));
            JsonObject listed = new JsonObject(http.mcp(list, McpStatelessTest.headers(list)).body()).getJsonObject("result");
            assertTrue(!listed.encode().contains("x-mcp-header"), listed.encode());
            JsonObject execute = McpStatelessTest.call(2, "execute", new JsonObject().put("tool", "get-user")
                    .put("inputs", new JsonObject().put("id", 1)), new JsonObject());
            HttpResponse<String> cold = http.mcp(execute, "MCP-Protocol-Version", McpStatelessTest.V,
                    "Mcp-Method", "tools/call", "Mcp-Name", "execute");
            assertEquals(200, cold.statusCode(), cold.body());
            assertTrue(cold.body().contains("Ada"), cold.body());
        }
    }

    /**
     * 2026-07-28 with {@code tools.execute_tool_header: true}: only the meta-tool execute mirrors an
     * argument into a header (its {@code tool}); a project tool listed directly declares none and
     * needs none, even one named execute.
     */
    @Test
    void onlyTheMetaToolExecuteMirrorsItsToolIntoAHeader() throws Exception {
        Path both = project("both");
        write(both, ".hyperterse", "name: exposure\ntools:\n  exposure: both\n  execute_tool_header: true\n");
        try (RunningServer server = RunningServer.start(both)) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject list = McpStatelessTest.request(1, "tools/list",
                    new JsonObject().put("_meta", McpStatelessTest.meta(new JsonObject())));
            JsonObject listed = new JsonObject(http.mcp(list, McpStatelessTest.headers(list)).body()).getJsonObject("result");
            assertEquals(List.of("search", "execute", "get-user"), names(listed));
            assertEquals("Tool", listed.getJsonArray("tools").getJsonObject(1).getJsonObject("inputSchema")
                    .getJsonObject("properties").getJsonObject("tool").getString("x-mcp-header"));
            assertTrue(!listed.getJsonArray("tools").getJsonObject(2).encode().contains("x-mcp-header"), listed.encode());
            JsonObject execute = McpStatelessTest.call(2, "execute", new JsonObject().put("tool", "get-user")
                    .put("inputs", new JsonObject().put("id", 1)), new JsonObject());
            assertEquals(400, http.mcp(execute, "MCP-Protocol-Version", McpStatelessTest.V, "Mcp-Method", "tools/call",
                    "Mcp-Name", "execute").statusCode());
            assertEquals(200, http.mcp(execute, McpStatelessTest.headers(execute)).statusCode());
        }
        Path direct = project("direct");
        write(direct, "app/tools/execute/config.terse", "description: 'A project tool that happens to be named execute'\n"
                + "use: db\nstatement: SELECT {{ inputs.tool }} AS tool\ninputs:\n  tool:\n    type: string\n"
                + "    description: 'Echoed'\n");
        try (RunningServer server = RunningServer.start(direct)) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject call = McpStatelessTest.call(3, "execute", new JsonObject().put("tool", "x"), new JsonObject());
            HttpResponse<String> r = http.mcp(call, "MCP-Protocol-Version", McpStatelessTest.V, "Mcp-Method", "tools/call",
                    "Mcp-Name", "execute");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("[{\"tool\":\"x\"}]", McpStatelessTest.result(r).getJsonArray("content").getJsonObject(0)
                    .getString("text"));
        }
    }

    @Test
    void metaIsTheDefaultAndListsOnlySearchAndExecute() throws Exception {
        Path dir = project("meta");
        write(dir, ".hyperterse", "name: exposure\n");
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(List.of("search", "execute"),
                    names(post(http, RawHttp.request(1, "tools/list", null)).getJsonObject("result")));
            JsonObject direct = post(http, RawHttp.request(2, "tools/call", new JsonObject().put("name", "get-user")
                    .put("arguments", new JsonObject().put("id", 1)))).getJsonObject("error");
            assertTrue(direct.getString("message").startsWith("Unknown tool: get-user"), direct.encode());
        }
    }
}
