package dev.hyperterse.server;

import dev.hyperterse.conformance.ConformanceExtension;
import dev.hyperterse.model.ToolErrorMode;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * tools/list and tools/call over raw HTTP (mcp-transport.md §12 items 13 and 14): paging with
 * opaque cursors, tool failures as {@code isError} results (the default) or JSON-RPC errors
 * ({@code server.tool_errors: rpc}), {@code search}'s outputSchema and structuredContent, and the
 * conformance fixtures, which only {@code --conformance-fixtures} shows. Two servers: one tuned
 * (page size 1, rpc tool errors, schema), one with defaults and the fixtures.
 */
class McpToolsTest {
    private static final List<String> FIXTURES = List.of("test_simple_text", "test_error_handling",
            "test_tool_with_progress", "test_tool_with_logging", "test_reconnection", "json_schema_2020_12_tool",
            "test_image_content", "test_audio_content", "test_embedded_resource", "test_multiple_content_types",
            "test_sampling", "test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums");

    @RegisterExtension
    static final TestServer tuned = TestServer.quickstart(
            s -> s.limits(l -> l.pageSize(1)).toolErrors(ToolErrorMode.RPC).searchOutputSchema(true),
            ServeOptions.DEFAULTS);
    @RegisterExtension
    static final TestServer withFixtures = TestServer.quickstart(s -> s, ServeOptions.DEFAULTS.withMcpExtension(new ConformanceExtension()));
    static final RawHttp tunedHttp = tuned.http();
    /** A protocol version with outputSchema and structuredContent, for requests without a session. */
    private static final String[] CURRENT = {"MCP-Protocol-Version", "2025-11-25"};
    static final RawHttp fixturesHttp = withFixtures.http();

    @Test
    void toolsListIsPagedWithOpaqueCursors() throws Exception {
        JsonObject first = result(tunedHttp, RawHttp.request(1, "tools/list", null));
        assertEquals(1, first.getJsonArray("tools").size());
        String cursor = first.getString("nextCursor");
        assertNotNull(cursor);
        JsonObject second = result(tunedHttp, RawHttp.request(2, "tools/list", new JsonObject().put("cursor", cursor)));
        assertNull(second.getValue("nextCursor"), "the last page has no cursor");
        assertEquals(second, result(tunedHttp, RawHttp.request(3, "tools/list", new JsonObject().put("cursor", cursor))),
                "cursors are stable");
        List<JsonObject> all = new ArrayList<>();
        first.getJsonArray("tools").forEach(t -> all.add((JsonObject) t));
        second.getJsonArray("tools").forEach(t -> all.add((JsonObject) t));
        assertEquals(List.of("search", "execute"), all.stream().map(t -> t.getString("name")).toList());
        for (JsonObject tool : all) {
            assertFalse(tool.getString("description").isBlank());
            assertEquals("object", tool.getJsonObject("inputSchema").getString("type"));
        }

        String forged = Base64.getUrlEncoder().encodeToString("tools:0:1".getBytes(StandardCharsets.UTF_8));
        for (Object bad : new Object[] {"zzz", "", forged, 5, cursorFrom(cursor, 0), cursorFrom(cursor, 99)}) {
            JsonObject error = error(tunedHttp, RawHttp.request(4, "tools/list", new JsonObject().put("cursor", bad)));
            assertEquals(-32602, error.getInteger("code"), "cursor " + bad);
        }
    }

    @Test
    void fixturesAreInvisibleWithoutTheFlag() throws Exception {
        JsonObject error = error(tunedHttp, RawHttp.request(1, "tools/call",
                new JsonObject().put("name", "test_simple_text").put("arguments", new JsonObject())));
        assertEquals(-32602, error.getInteger("code"));
        assertTrue(error.getString("message").startsWith("Unknown tool: test_simple_text"));
    }

    @Test
    void fixturesAreListedNextToTheMetaToolsWithTheFlag() throws Exception {
        JsonObject list = result(fixturesHttp, RawHttp.request(1, "tools/list", null));
        List<String> names = new ArrayList<>();
        list.getJsonArray("tools").forEach(t -> names.add(((JsonObject) t).getString("name")));
        List<String> expected = new ArrayList<>(List.of("search", "execute"));
        expected.addAll(FIXTURES);
        assertEquals(expected, names);
        assertNull(list.getValue("nextCursor"), "the default page holds every tool");
        JsonObject schemaTool = list.getJsonArray("tools").getJsonObject(7).getJsonObject("inputSchema");
        assertEquals("https://json-schema.org/draft/2020-12/schema", schemaTool.getString("$schema"));
        assertTrue(schemaTool.getJsonObject("$defs").containsKey("address"));
        assertEquals(Boolean.FALSE, schemaTool.getValue("additionalProperties"));

        assertEquals("This is a simple text response for testing.", text(result(fixturesHttp, call("test_simple_text"))));
        JsonObject failed = result(fixturesHttp, call("test_error_handling"));
        assertEquals(Boolean.TRUE, failed.getBoolean("isError"));
        assertEquals("This tool intentionally returns an error for testing", text(failed));
    }

    @Test
    void fixturesReportProgressLogAndResume() throws Exception {
        String sid = fixturesHttp.session("2025-11-25");
        JsonObject progressCall = call("test_tool_with_progress");
        progressCall.getJsonObject("params").put("_meta", new JsonObject().put("progressToken", 42));
        List<SseStream.Event> progress = fixturesHttp.mcpStream(progressCall, "Mcp-Session-Id", sid).rest(Duration.ofSeconds(10));
        List<Object> values = new ArrayList<>();
        for (SseStream.Event e : progress.subList(1, 4)) {
            JsonObject params = e.json().getJsonObject("params");
            assertEquals(42, params.getInteger("progressToken"));
            assertEquals(100, params.getInteger("total"));
            values.add(params.getInteger("progress"));
        }
        assertEquals(List.of(0, 50, 100), values);
        assertEquals("Progress test completed", text(progress.get(4).json().getJsonObject("result")));

        assertEquals(200, fixturesHttp.mcp(RawHttp.request(2, "logging/setLevel", new JsonObject().put("level", "info")),
                "Mcp-Session-Id", sid).statusCode());
        List<SseStream.Event> logs = fixturesHttp.mcpStream(call("test_tool_with_logging"), "Mcp-Session-Id", sid)
                .rest(Duration.ofSeconds(10));
        assertEquals(5, logs.size(), logs::toString);

        SseStream polling = fixturesHttp.mcpStream(call("test_reconnection"), "Mcp-Session-Id", sid);
        List<SseStream.Event> beforeClose = polling.rest(Duration.ofSeconds(10));
        assertEquals(1, beforeClose.size(), "the connection closes right after the priming event");
        SseStream.Event priming = beforeClose.get(0);
        assertTrue(priming.priming());
        assertEquals(1000, priming.retry());
        List<SseStream.Event> resumed = fixturesHttp.listen(sid, priming.id()).rest(Duration.ofSeconds(10));
        assertEquals(1, resumed.size());
        assertEquals("Reconnection test completed", text(resumed.get(0).json().getJsonObject("result")));
    }

    @Test
    void toolFailuresAreResultsByDefault() throws Exception {
        // at a protocol version with structuredContent too: the failure is the text block alone
        JsonObject invalid = result(fixturesHttp, RawHttp.execute(1, "get-customer", new JsonObject()), CURRENT);
        assertEquals(new ToolError("input validation failed: required input 'customer_id' is missing", -32000,
                "input_validation", "get-customer"), ToolError.ofResult(invalid));

        JsonObject missing = result(fixturesHttp, RawHttp.execute(2, "no-such-tool", new JsonObject()));
        assertEquals(new ToolError("tool not found: no-such-tool", -32601, "resolution", "no-such-tool"),
                ToolError.ofResult(missing));

        JsonObject ok = result(fixturesHttp, RawHttp.execute(3, "get-customer", new JsonObject().put("customer_id", 1)));
        assertNull(ok.getValue("isError"));

        // arguments search or execute cannot use are their input validation failures, coded -32602
        JsonObject noInputs = result(fixturesHttp, RawHttp.request(5, "tools/call", new JsonObject().put("name", "execute")
                .put("arguments", new JsonObject().put("tool", "get-customer"))));
        assertEquals(new ToolError("execute: 'inputs' is required (use {} when the tool takes none)", -32602,
                "input_validation", "execute"), ToolError.ofResult(noInputs));
        JsonObject noQuery = result(fixturesHttp, RawHttp.request(6, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject())));
        assertEquals(new ToolError("search: 'query' must be a string", -32602, "input_validation", "search"),
                ToolError.ofResult(noQuery));

        // what does not fit the protocol stays a JSON-RPC error
        JsonObject unknownTool = error(fixturesHttp, RawHttp.request(4, "tools/call",
                new JsonObject().put("name", "nope").put("arguments", new JsonObject())));
        assertEquals(-32602, unknownTool.getInteger("code"), "an unknown tools/call name is a protocol error");
        assertEquals("Unknown tool: nope (this server offers 'search' and 'execute')", unknownTool.getString("message"));
        JsonObject notAnObject = error(fixturesHttp, RawHttp.request(8, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonArray())));
        assertEquals(-32602, notAnObject.getInteger("code"), "arguments that are no object do not fit tools/call");
        assertEquals(-32601, error(fixturesHttp, RawHttp.request(7, "tools/run", new JsonObject())).getInteger("code"));
    }

    @Test
    void toolFailuresAreJsonRpcErrorsWithToolErrorsRpc() throws Exception {
        JsonObject invalid = error(tunedHttp, RawHttp.execute(1, "get-customer", new JsonObject()));
        assertEquals(-32000, invalid.getInteger("code"));
        assertEquals("input validation failed: required input 'customer_id' is missing", invalid.getString("message"));
        assertEquals(new JsonObject().put("stage", "input_validation").put("tool", "get-customer"),
                invalid.getJsonObject("data"));

        JsonObject missing = error(tunedHttp, RawHttp.execute(2, "no-such-tool", new JsonObject()));
        assertEquals(-32601, missing.getInteger("code"));
        assertEquals("tool not found: no-such-tool", missing.getString("message"));
        assertEquals(new JsonObject().put("stage", "resolution").put("tool", "no-such-tool"), missing.getJsonObject("data"));

        JsonObject unknownMetaTool = error(tunedHttp, RawHttp.request(3, "tools/call",
                new JsonObject().put("name", "nope").put("arguments", new JsonObject())));
        assertEquals(-32602, unknownMetaTool.getInteger("code"));
        JsonObject noQuery = error(tunedHttp, RawHttp.request(6, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject())));
        assertEquals(-32602, noQuery.getInteger("code"));
        assertEquals(new JsonObject().put("stage", "input_validation").put("tool", "search"), noQuery.getJsonObject("data"));

        JsonObject ok = result(tunedHttp, RawHttp.execute(4, "get-customer", new JsonObject().put("customer_id", 1)));
        assertNull(ok.getValue("isError"));

        // the same in protocol 2026-07-28
        JsonObject stateless = McpStatelessTest.call(5, "execute", new JsonObject().put("tool", "get-customer")
                .put("inputs", new JsonObject()), new JsonObject());
        JsonObject statelessError = error(tunedHttp, stateless, McpStatelessTest.headers(stateless));
        assertEquals(invalid, statelessError);
    }

    @Test
    void searchDeclaresAnOutputSchemaAndReturnsConformingStructuredContent() throws Exception {
        JsonObject search = result(tunedHttp, RawHttp.request(1, "tools/list", null), CURRENT)
                .getJsonArray("tools").getJsonObject(0);
        JsonObject schema = search.getJsonObject("outputSchema");
        assertEquals("object", schema.getString("type"));
        JsonSchemaValidator validator = new DefaultJsonSchemaValidator();
        assertTrue(validator.validateSchema(schema.getMap()).valid(), "the outputSchema is a valid JSON Schema");

        JsonObject found = result(tunedHttp, searchFor(2, "orders by status"), CURRENT);
        JsonObject structured = found.getJsonObject("structuredContent");
        assertEquals("list-orders", structured.getJsonArray("tools").getJsonObject(0).getString("name"));
        JsonSchemaValidator.ValidationResponse check = validator.validate(schema.getMap(), structured.getMap());
        assertTrue(check.valid(), check.errorMessage());
        assertEquals(structured, new JsonObject(text(found)), "the text block holds the same JSON");

        JsonObject plain = result(fixturesHttp, searchFor(3, "orders by status"), CURRENT);
        assertNull(plain.getValue("structuredContent"), "off by default");
        assertTrue(new JsonArray(text(plain)).size() > 0, "the text block is Hyperterse's array of hits");
        JsonObject plainSearch = result(fixturesHttp, RawHttp.request(4, "tools/list", null), CURRENT)
                .getJsonArray("tools").getJsonObject(0);
        assertNull(plainSearch.getValue("outputSchema"));
        assertEquals(Boolean.TRUE, plainSearch.getJsonObject("annotations").getBoolean("readOnlyHint"));
    }

    @Test
    void searchKeepsToTheTextBlockForAProtocolWithoutStructuredContent() throws Exception {
        // no session and no MCP-Protocol-Version header: 2025-03-26, which has neither outputSchema
        // nor structuredContent, even with server.search_output_schema on
        JsonObject search = result(tunedHttp, RawHttp.request(1, "tools/list", null))
                .getJsonArray("tools").getJsonObject(0);
        assertEquals("search", search.getString("name"));
        assertNull(search.getValue("outputSchema"));
        JsonObject found = result(tunedHttp, searchFor(2, "orders by status"));
        assertNull(found.getValue("structuredContent"));
        assertEquals("list-orders", new JsonArray(text(found)).getJsonObject(0).getString("name"),
                "the text block is Hyperterse's array of hits");
        JsonObject explicit = result(tunedHttp, searchFor(3, "orders by status"), "MCP-Protocol-Version", "2025-03-26");
        assertNull(explicit.getValue("structuredContent"));
    }

    private static JsonObject searchFor(int id, String query) {
        return RawHttp.request(id, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject().put("query", query)));
    }

    private static JsonObject call(String name) {
        return RawHttp.request(name, "tools/call", new JsonObject().put("name", name).put("arguments", new JsonObject()));
    }

    private static String cursorFrom(String real, int offset) {
        String plain = new String(Base64.getUrlDecoder().decode(real), StandardCharsets.UTF_8);
        String forged = plain.substring(0, plain.lastIndexOf(':') + 1) + offset;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(forged.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonObject result(RawHttp http, JsonObject request, String... headers) throws Exception {
        HttpResponse<String> r = http.mcp(request, headers);
        assertEquals(200, r.statusCode(), r.body());
        JsonObject body = new JsonObject(r.body());
        assertNotNull(body.getJsonObject("result"), r.body());
        return body.getJsonObject("result");
    }

    private static JsonObject error(RawHttp http, JsonObject request, String... headers) throws Exception {
        JsonObject body = new JsonObject(http.mcp(request, headers).body());
        assertNotNull(body.getJsonObject("error"), body.encode());
        return body.getJsonObject("error");
    }

    private static String text(JsonObject result) {
        return result.getJsonArray("content").getJsonObject(0).getString("text");
    }
}
