package dev.hyperterse.server;

import dev.hyperterse.conformance.ConformanceExtension;
import dev.hyperterse.testing.AddressedStream;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Protocol 2026-07-28 (stateless) on the same /mcp as the session generation, over real HTTP: the
 * {@code _meta} envelope and the headers that mirror it, discovery and caching hints, tools,
 * progress and logs on a request's own stream, listen streams across a reload, and the confirmation
 * round of a {@code confirm: true} tool with its sealed state.
 */
class McpStatelessTest {
    static final String V = "2026-07-28";
    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path project = RunningServer.copyExample("quickstart", scratch);
        // execute's tool as a header parameter, the opt-in these header checks are about
        Path root = project.resolve(".hyperterse");
        Files.writeString(root, Files.readString(root).replace("tools:\n", "tools:\n  execute_tool_header: true\n"));
        RunningServer.writeTool(project, "count-customers", "description: 'How many customers there are'\n"
                + "use: shop\nstatement: SELECT count(*) AS n FROM customers WHERE id >= {{ inputs.from }}\n"
                + "inputs:\n  from:\n    type: int\n    description: 'Lowest id counted'\nconfirm: true\n");
        return RunningServer.start(project, s -> s, ServeOptions.DEFAULTS.withMcpExtension(new ConformanceExtension()));
    });
    static final RawHttp http = server.http();

    // ---- helpers: a conformant 2026-07-28 request ----

    static JsonObject meta(JsonObject capabilities) {
        return new JsonObject().put("io.modelcontextprotocol/protocolVersion", V)
                .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "test").put("version", "1"))
                .put("io.modelcontextprotocol/clientCapabilities", capabilities);
    }

    static JsonObject request(Object id, String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", params);
    }

    /**
     * The standard headers for a request, plus {@code extra}: as a conformant client sends them,
     * with {@code Mcp-Param-Tool} mirroring execute's {@code tool} (its x-mcp-header).
     */
    static String[] headers(JsonObject message, String... extra) {
        List<String> h = new ArrayList<>(List.of("MCP-Protocol-Version", V, "Mcp-Method", message.getString("method")));
        JsonObject params = message.getJsonObject("params");
        String name = params == null ? null : params.getString(message.getString("method").equals("resources/read") ? "uri" : "name");
        if (name != null) {
            h.add("Mcp-Name");
            h.add(name);
        }
        JsonObject arguments = params == null ? null : params.getJsonObject("arguments");
        if ("execute".equals(name) && arguments != null && arguments.getValue("tool") instanceof String) {
            h.add("Mcp-Param-Tool");
            h.add(headerValue(arguments.getString("tool")));
        }
        h.addAll(List.of(extra));
        return h.toArray(new String[0]);
    }

    /** A value as a client puts it in a header: as is when it is plain ASCII, else Base64 in its sentinel. */
    static String headerValue(String value) {
        boolean plain = value.equals(value.strip()) && value.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)
                && !(value.startsWith("=?base64?") && value.endsWith("?="));
        return plain ? value : "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    static HttpResponse<String> send(JsonObject message, String... extra) throws Exception {
        return http.mcp(message, headers(message, extra));
    }

    static JsonObject call(Object id, String tool, JsonObject arguments, JsonObject capabilities) {
        return request(id, "tools/call", new JsonObject().put("name", tool).put("arguments", arguments)
                .put("_meta", meta(capabilities)));
    }

    static JsonObject result(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        JsonObject body = new JsonObject(r.body());
        assertNotNull(body.getJsonObject("result"), r.body());
        return body.getJsonObject("result");
    }

    static void assertError(HttpResponse<String> r, int status, Object id, int code) {
        assertEquals(status, r.statusCode(), r.body());
        JsonObject body = new JsonObject(r.body());
        assertEquals(id, body.getValue("id"), "the error echoes the request id: " + r.body());
        assertEquals(code, body.getJsonObject("error").getInteger("code"), r.body());
    }

    // ---- discovery and lists ----

    @Test
    void discoverNamesVersionsCapabilitiesIdentityAndCachingHints() throws Exception {
        HttpResponse<String> r = send(request("d1", "server/discover", new JsonObject().put("_meta", meta(new JsonObject()))));
        JsonObject result = result(r);
        assertEquals("complete", result.getString("resultType"));
        JsonArray versions = result.getJsonArray("supportedVersions");
        assertEquals(V, versions.getString(0));
        assertTrue(versions.contains("2025-11-25") && versions.contains("2025-03-26"), versions.encode());
        assertNotNull(result.getJsonObject("capabilities").getJsonObject("tools"));
        assertTrue(result.getInteger("ttlMs") >= 0);
        assertEquals("public", result.getString("cacheScope"));
        JsonObject serverInfo = result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo");
        assertEquals("quickstart", serverInfo.getString("name"));
        assertEquals("1.0.0", serverInfo.getString("version"));
        assertTrue(r.headers().firstValue("mcp-session-id").isEmpty(), "no session is minted");
        assertNull(result.getValue("protocolVersion"));
    }

    @Test
    void toolsListCarriesResultTypeAndCachingHints() throws Exception {
        JsonObject result = result(send(request(2, "tools/list", new JsonObject().put("_meta", meta(new JsonObject())))));
        assertEquals("complete", result.getString("resultType"));
        assertEquals("search", result.getJsonArray("tools").getJsonObject(0).getString("name"));
        assertEquals("execute", result.getJsonArray("tools").getJsonObject(1).getString("name"));
        assertTrue(result.getInteger("ttlMs") > 0, "a server without reloads changes its tools only on restart");
        assertEquals("public", result.getString("cacheScope"), "the list is the same for every caller");
    }

    @Test
    void executeRunsAProjectToolWithoutASession() throws Exception {
        JsonObject result = result(send(call(3, "execute", new JsonObject().put("tool", "get-customer")
                .put("inputs", new JsonObject().put("customer_id", 1)), new JsonObject())));
        assertEquals("complete", result.getString("resultType"));
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(text.contains("\"id\":1"), text);
        JsonObject search = result(send(call(4, "search", new JsonObject().put("query", "customer by id"), new JsonObject())));
        assertTrue(search.getJsonArray("content").getJsonObject(0).getString("text").contains("get-customer"));
    }

    @Test
    void toolFailuresAreCompleteResultsWithIsError() throws Exception {
        JsonObject invalid = result(send(call(501, "execute", new JsonObject().put("tool", "get-customer")
                .put("inputs", new JsonObject()), new JsonObject())));
        assertEquals("complete", invalid.getString("resultType"));
        assertEquals(new ToolError("input validation failed: required input 'customer_id' is missing", -32000,
                "input_validation", "get-customer"), ToolError.ofResult(invalid));
        JsonObject missing = result(send(call(502, "execute", new JsonObject().put("tool", "no-such-tool")
                .put("inputs", new JsonObject()), new JsonObject())));
        assertEquals(new ToolError("tool not found: no-such-tool", -32601, "resolution", "no-such-tool"),
                ToolError.ofResult(missing));
        // so are execute's own arguments, coded -32602; a tools/call name tools/list never showed is a protocol error
        JsonObject noInputs = result(send(call(504, "execute", new JsonObject().put("tool", "get-customer"),
                new JsonObject())));
        assertEquals("complete", noInputs.getString("resultType"));
        assertEquals(new ToolError("execute: 'inputs' is required (use {} when the tool takes none)", -32602,
                "input_validation", "execute"), ToolError.ofResult(noInputs));
        assertError(send(call(503, "no-such-tool", new JsonObject(), new JsonObject())), 200, 503, -32602);
    }

    // ---- envelope and header errors ----

    @Test
    void missingOrIncompleteMetaIsInvalidParamsWith400() throws Exception {
        assertError(send(request(101, "server/discover", new JsonObject())), 400, 101, -32602);
        JsonObject noCapabilities = meta(new JsonObject());
        noCapabilities.remove("io.modelcontextprotocol/clientCapabilities");
        assertError(send(request(102, "server/discover", new JsonObject().put("_meta", noCapabilities))), 400, 102, -32602);
        JsonObject noVersion = meta(new JsonObject());
        noVersion.remove("io.modelcontextprotocol/protocolVersion");
        assertError(send(request("x", "tools/list", new JsonObject().put("_meta", noVersion))), 400, "x", -32602);
        JsonObject noClientInfo = meta(new JsonObject());
        noClientInfo.remove("io.modelcontextprotocol/clientInfo");
        result(send(request(103, "server/discover", new JsonObject().put("_meta", noClientInfo))));
    }

    @Test
    void headersMustMirrorTheBody() throws Exception {
        JsonObject wrongMeta = meta(new JsonObject()).put("io.modelcontextprotocol/protocolVersion", "v999.0.0");
        JsonObject discover = request(201, "server/discover", new JsonObject().put("_meta", wrongMeta));
        assertError(http.mcp(discover, "MCP-Protocol-Version", V, "Mcp-Method", "server/discover"), 400, 201, -32020);

        JsonObject list = request(202, "tools/list", new JsonObject().put("_meta", meta(new JsonObject())));
        assertError(http.mcp(list, "MCP-Protocol-Version", V), 400, 202, -32020);
        assertError(http.mcp(list, "MCP-Protocol-Version", V, "Mcp-Method", "TOOLS/LIST"), 400, 202, -32020);
        assertError(http.mcp(list, "mcp-protocol-version", V, "mcp-method", "tools/call"), 400, 202, -32020);
        result(http.mcp(list, "mcp-protocol-version", " " + V + " ", "MCP-METHOD", " tools/list "));
        JsonObject noHeader = request(203, "tools/list", new JsonObject().put("_meta", meta(new JsonObject())));
        assertError(http.mcp(noHeader), 400, 203, -32020);

        JsonObject simple = call(204, "test_simple_text", new JsonObject(), new JsonObject());
        assertError(http.mcp(simple, "MCP-Protocol-Version", V, "Mcp-Method", "tools/call"), 400, 204, -32020);
        assertError(http.mcp(simple, "MCP-Protocol-Version", V, "Mcp-Method", "tools/call", "Mcp-Name", "other"),
                400, 204, -32020);
        result(http.mcp(simple, "MCP-Protocol-Version", V, "Mcp-Method", "tools/call", "Mcp-Name", "  test_simple_text "));
        String encoded = "=?base64?" + Base64.getEncoder().encodeToString("test_simple_text".getBytes(StandardCharsets.UTF_8)) + "?=";
        result(http.mcp(simple, "MCP-Protocol-Version", V, "Mcp-Method", "tools/call", "Mcp-Name", encoded));
    }

    // ---- arguments mirrored into headers (x-mcp-header, SEP-2243) ----

    /** The standard headers of a tools/call of execute, then {@code extra}, without Mcp-Param-Tool. */
    static String[] executeHeaders(String... extra) {
        List<String> h = new ArrayList<>(List.of("MCP-Protocol-Version", V, "Mcp-Method", "tools/call", "Mcp-Name", "execute"));
        h.addAll(List.of(extra));
        return h.toArray(new String[0]);
    }

    static String errorMessage(HttpResponse<String> r) {
        return new JsonObject(r.body()).getJsonObject("error").getString("message");
    }

    @Test
    void executeDeclaresItsToolArgumentAHeaderOnlyIn20260728() throws Exception {
        JsonArray tools = result(send(request(211, "tools/list", new JsonObject().put("_meta", meta(new JsonObject())))))
                .getJsonArray("tools");
        JsonObject execute = tools.getJsonObject(1);
        assertEquals("execute", execute.getString("name"));
        JsonObject properties = execute.getJsonObject("inputSchema").getJsonObject("properties");
        assertEquals("Tool", properties.getJsonObject("tool").getString("x-mcp-header"));
        List<String> declaring = new ArrayList<>();
        tools.forEach(t -> {
            if (((JsonObject) t).encode().contains("x-mcp-header")) {
                declaring.add(((JsonObject) t).getString("name"));
            }
        });
        assertEquals(List.of("execute"), declaring, "search, its inputs and the fixtures declare none");

        JsonObject withoutHeader = execute.copy();
        withoutHeader.getJsonObject("inputSchema").getJsonObject("properties").getJsonObject("tool").remove("x-mcp-header");
        for (String version : List.of("2025-03-26", "2025-06-18", "2025-11-25")) {
            String session = http.session(version);
            JsonObject old = result(http.mcp(RawHttp.request(1, "tools/list", null), "Mcp-Session-Id", session,
                    "MCP-Protocol-Version", version));
            assertFalse(old.encode().contains("x-mcp-header"), version + ": " + old.encode());
            assertEquals(withoutHeader.encode(), old.getJsonArray("tools").getJsonObject(1).encode(),
                    version + ": execute is listed as before");
        }
    }

    @Test
    void aMirroredArgumentMustComeWithItsHeaderAndMatchIt() throws Exception {
        JsonObject call = call(221, "execute", new JsonObject().put("tool", "get-customer")
                .put("inputs", new JsonObject().put("customer_id", 1)), new JsonObject());
        HttpResponse<String> missing = http.mcp(call, executeHeaders());
        assertError(missing, 400, 221, -32020);
        assertTrue(errorMessage(missing).contains("Mcp-Param-Tool") && errorMessage(missing).contains("'tool'"),
                errorMessage(missing));
        // the header names another tool than the body runs: a balancer would have routed on the wrong one
        HttpResponse<String> other = http.mcp(call, executeHeaders("Mcp-Param-Tool", "delete-customer"));
        assertError(other, 400, 221, -32020);
        assertTrue(errorMessage(other).contains("Mcp-Param-Tool") && errorMessage(other).contains("'tool'")
                && errorMessage(other).contains("delete-customer") && errorMessage(other).contains("get-customer"),
                errorMessage(other));
        assertError(http.mcp(call, executeHeaders("Mcp-Param-Tool", "GET-CUSTOMER")), 400, 221, -32020);
        assertError(http.mcp(call, executeHeaders("Mcp-Param-Tool", "get-customer", "Mcp-Param-Tool", "delete-customer")),
                400, 221, -32020);
        assertError(http.mcp(call, executeHeaders("Mcp-Param-Tool", "x".repeat(5000))), 400, 221, -32020);
        // Base64 that is not canonical ("Hello" is SGVsbG8=): padding left off, a character outside
        // the alphabet, bits set past the last byte
        JsonObject hello = call(225, "execute", new JsonObject().put("tool", "Hello").put("inputs", new JsonObject()),
                new JsonObject());
        for (String broken : List.of("=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "=?base64?SGVsbG9=?=")) {
            HttpResponse<String> r = http.mcp(hello, executeHeaders("Mcp-Param-Tool", broken));
            assertError(r, 400, 225, -32020);
            assertTrue(errorMessage(r).contains("Mcp-Param-Tool"), errorMessage(r));
        }
        HttpResponse<String> decoded = http.mcp(hello, executeHeaders("Mcp-Param-Tool", "=?base64?SGVsbG8=?="));
        assertEquals(200, decoded.statusCode(), "the header matched; the tool is execute's to find: " + decoded.body());
        String encoded = Base64.getEncoder().encodeToString("get-customer".getBytes(StandardCharsets.UTF_8));

        assertTrue(result(http.mcp(call, executeHeaders("Mcp-Param-Tool", "get-customer"))).getJsonArray("content")
                .getJsonObject(0).getString("text").contains("\"id\":1"));
        result(http.mcp(call, executeHeaders("mcp-param-tool", "  get-customer ")));
        result(http.mcp(call, executeHeaders("MCP-PARAM-TOOL", "=?base64?" + encoded + "?=")));

        // a header with no argument to mirror is refused; without it, the missing tool is execute's own error
        JsonObject noTool = call(222, "execute", new JsonObject().put("inputs", new JsonObject()), new JsonObject());
        assertError(http.mcp(noTool, executeHeaders("Mcp-Param-Tool", "get-customer")), 400, 222, -32020);
        assertEquals(new ToolError("execute: 'tool' must be a non-empty string", -32602, "input_validation", "execute"),
                ToolError.ofResult(result(send(noTool))));
        // a name a header cannot carry as is travels Base64-encoded, and is then execute's to judge
        HttpResponse<String> unknown = send(call(223, "execute", new JsonObject().put("tool", " kunde-ü")
                .put("inputs", new JsonObject()), new JsonObject()));
        assertEquals(200, unknown.statusCode(), unknown.body());
        assertFalse(unknown.body().contains("-32020"), unknown.body());
        // headers a tool does not declare are ignored
        result(send(call(224, "search", new JsonObject().put("query", "customer by id"), new JsonObject()),
                "Mcp-Param-Tool", "anything", "Mcp-Param-Query", "other"));
    }

    @Test
    void theSessionGenerationMirrorsNoArguments() throws Exception {
        String session = http.session("2025-11-25");
        HttpResponse<String> r = http.mcp(RawHttp.execute(1, "get-customer", new JsonObject().put("customer_id", 1)),
                "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25", "Mcp-Param-Tool", "delete-customer");
        assertTrue(result(r).getJsonArray("content").getJsonObject(0).getString("text").contains("\"id\":1"), r.body());
    }

    @Test
    void anUnsupportedVersionIsRefusedWithTheSupportedOnes() throws Exception {
        JsonObject m = meta(new JsonObject()).put("io.modelcontextprotocol/protocolVersion", "v999.0.0");
        HttpResponse<String> r = http.mcp(request(301, "server/discover", new JsonObject().put("_meta", m)),
                "MCP-Protocol-Version", "v999.0.0", "Mcp-Method", "server/discover");
        assertError(r, 400, 301, -32022);
        JsonObject data = new JsonObject(r.body()).getJsonObject("error").getJsonObject("data");
        assertEquals("v999.0.0", data.getString("requested"));
        assertTrue(data.getJsonArray("supported").contains(V), data.encode());
    }

    @Test
    void removedAndUnknownMethodsAre404MethodNotFound() throws Exception {
        for (String method : List.of("initialize", "ping", "logging/setLevel", "resources/subscribe",
                "resources/unsubscribe", "unknown/method")) {
            assertError(send(request(method, method, new JsonObject().put("_meta", meta(new JsonObject())))),
                    404, method, -32601);
        }
    }

    /** Prompts, resources and completion are the same methods as in the session generation, with caching hints. */
    @Test
    void promptsResourcesAndCompletionAreServedWithCachingHints() throws Exception {
        JsonObject prompts = result(send(request(1, "prompts/list", new JsonObject().put("_meta", meta(new JsonObject())))));
        assertTrue(prompts.getJsonArray("prompts").stream().anyMatch(p -> "order-update".equals(((JsonObject) p)
                .getString("name"))), prompts.encode());
        assertEquals("complete", prompts.getString("resultType"));
        assertTrue(prompts.containsKey("ttlMs") && prompts.containsKey("cacheScope"), prompts.encode());
        JsonObject templates = result(send(request(2, "resources/templates/list",
                new JsonObject().put("_meta", meta(new JsonObject())))));
        assertTrue(templates.getJsonArray("resourceTemplates").stream().anyMatch(t -> "shop://orders/{id}"
                .equals(((JsonObject) t).getString("uriTemplate"))), templates.encode());
        JsonObject read = result(send(request(3, "resources/read", new JsonObject().put("uri", "shop://orders/1")
                .put("_meta", meta(new JsonObject())))));
        assertTrue(read.getJsonArray("contents").getJsonObject(0).getString("text").contains("\"id\":1"), read.encode());
        assertTrue(read.containsKey("ttlMs"), read.encode());
        JsonObject discover = result(send(request(4, "server/discover", new JsonObject().put("_meta", meta(new JsonObject())))));
        JsonObject caps = discover.getJsonObject("capabilities");
        assertTrue(caps.containsKey("prompts") && caps.containsKey("resources"), caps.encode());
        assertNull(caps.getJsonObject("resources").getValue("subscribe"), "2026-07-28 has no resources/subscribe");
    }

    /**
     * What an extension adds (here the conformance fixtures) is served after the project's by the
     * same methods: listed, read, and completed to nothing, while an unknown template stays unknown.
     */
    @Test
    void extensionPromptsAndTemplatesAreServedByTheSameMethods() throws Exception {
        JsonObject prompts = result(send(request(1, "prompts/list", new JsonObject().put("_meta", meta(new JsonObject())))));
        List<String> names = prompts.getJsonArray("prompts").stream().map(p -> ((JsonObject) p).getString("name")).toList();
        assertTrue(names.contains("order-update") && names.indexOf("order-update") < names.indexOf("test_simple_prompt"),
                names.toString());
        JsonObject read = result(send(request(2, "resources/read", new JsonObject().put("uri", "test://template/7/data")
                .put("_meta", meta(new JsonObject())))));
        assertTrue(read.getJsonArray("contents").getJsonObject(0).getString("text").contains("Data for ID: 7"), read.encode());
        JsonObject completed = result(send(request(3, "completion/complete", new JsonObject()
                .put("ref", new JsonObject().put("type", "ref/prompt").put("name", "test_prompt_with_arguments"))
                .put("argument", new JsonObject().put("name", "arg1").put("value", "x"))
                .put("_meta", meta(new JsonObject())))));
        assertEquals(new JsonArray(), completed.getJsonObject("completion").getJsonArray("values"), completed.encode());
        assertError(send(request(4, "completion/complete", new JsonObject()
                .put("ref", new JsonObject().put("type", "ref/resource").put("uri", "test://nothing/{id}"))
                .put("argument", new JsonObject().put("name", "id").put("value", "1"))
                .put("_meta", meta(new JsonObject())))), 200, 4, -32602);
    }

    @Test
    void theSessionGenerationKeepsItsRulesOnTheSameEndpoint() throws Exception {
        String session = http.session("2025-11-25");
        HttpResponse<String> list = http.mcp(RawHttp.request(1, "tools/list", null), "Mcp-Session-Id", session,
                "MCP-Protocol-Version", "2025-11-25");
        JsonObject result = result(list);
        assertNull(result.getValue("resultType"), "2025 results have no resultType");
        assertNull(result.getValue("ttlMs"));
        assertEquals(405, http.send("GET", "/mcp", "Accept", "text/event-stream", "MCP-Protocol-Version", V).statusCode());
        assertEquals(405, http.send("DELETE", "/mcp", "Mcp-Session-Id", session, "MCP-Protocol-Version", V).statusCode());
        JsonArray batch = new JsonArray().add(request(1, "tools/list", new JsonObject().put("_meta", meta(new JsonObject()))));
        HttpResponse<String> r = http.post("/mcp", batch.encode(), "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "MCP-Protocol-Version", V, "Mcp-Method", "tools/list");
        assertEquals(400, r.statusCode(), r.body());
        assertEquals(-32600, new JsonObject(r.body()).getJsonObject("error").getInteger("code"));
    }

    // ---- progress and logs ----

    @Test
    void progressTravelsOnTheRequestsOwnStreamWhenAskedFor() throws Exception {
        JsonObject m = meta(new JsonObject()).put("progressToken", "p-1");
        JsonObject message = request(401, "tools/call", new JsonObject().put("name", "test_tool_with_progress")
                .put("arguments", new JsonObject()).put("_meta", m));
        try (SseStream stream = http.mcpStream(message, headers(message))) {
            assertEquals(200, stream.status());
            List<JsonObject> frames = new ArrayList<>();
            for (SseStream.Event e : stream.rest(Duration.ofSeconds(10))) {
                if (e.data() != null && !e.data().isEmpty()) {
                    frames.add(e.json());
                }
            }
            assertEquals(4, frames.size(), frames.toString());
            for (int i = 0; i < 3; i++) {
                assertEquals("notifications/progress", frames.get(i).getString("method"));
                assertEquals("p-1", frames.get(i).getJsonObject("params").getString("progressToken"));
            }
            assertEquals(401, frames.get(3).getInteger("id"));
            assertEquals("complete", frames.get(3).getJsonObject("result").getString("resultType"));
        }
        // without a token: plain JSON, no notifications
        HttpResponse<String> quiet = send(call(402, "test_tool_with_progress", new JsonObject(), new JsonObject()));
        assertEquals("application/json", quiet.headers().firstValue("content-type").orElseThrow());
        result(quiet);
    }

    @Test
    void logsAreSentOnlyAtTheLevelTheRequestAsks() throws Exception {
        HttpResponse<String> quiet = send(call(501, "test_tool_with_logging", new JsonObject(), new JsonObject()));
        assertEquals("application/json", quiet.headers().firstValue("content-type").orElseThrow(), quiet.body());
        result(quiet);

        JsonObject m = meta(new JsonObject()).put("io.modelcontextprotocol/logLevel", "info");
        JsonObject message = request(502, "tools/call", new JsonObject().put("name", "test_tool_with_logging")
                .put("arguments", new JsonObject()).put("_meta", m));
        try (SseStream stream = http.mcpStream(message, headers(message))) {
            List<String> methods = new ArrayList<>();
            for (SseStream.Event e : stream.rest(Duration.ofSeconds(10))) {
                if (e.data() != null && !e.data().isEmpty()) {
                    methods.add(e.json().getString("method", "response"));
                }
            }
            assertEquals(List.of("notifications/message", "notifications/message", "notifications/message", "response"),
                    methods);
        }
        JsonObject high = meta(new JsonObject()).put("io.modelcontextprotocol/logLevel", "error");
        HttpResponse<String> none = send(request(503, "tools/call", new JsonObject().put("name", "test_tool_with_logging")
                .put("arguments", new JsonObject()).put("_meta", high)));
        assertEquals("application/json", none.headers().firstValue("content-type").orElseThrow(), "info is below error");
    }

    // ---- the confirmation round of a confirm: true tool ----

    static final JsonObject ELICITATION = new JsonObject().put("elicitation", new JsonObject());

    static JsonObject execute(Object id, int from, JsonObject capabilities) {
        return call(id, "execute", new JsonObject().put("tool", "count-customers")
                .put("inputs", new JsonObject().put("from", from)), capabilities);
    }

    static JsonObject retry(JsonObject first, JsonObject answer, String state) {
        JsonObject again = first.copy();
        again.getJsonObject("params").put("inputResponses", new JsonObject().put("confirm", answer)).put("requestState", state);
        return again;
    }

    @Test
    void aConfirmToolAsksFirstAndRunsOnlyWhenTheUserAccepts() throws Exception {
        JsonObject first = execute(601, 1, ELICITATION);
        JsonObject asked = result(send(first));
        assertEquals("input_required", asked.getString("resultType"));
        JsonObject question = asked.getJsonObject("inputRequests").getJsonObject("confirm");
        assertEquals("elicitation/create", question.getString("method"));
        assertEquals("Run 'count-customers' with these inputs?\n- from: 1",
                question.getJsonObject("params").getString("message"));
        String state = asked.getString("requestState");
        assertNotNull(state);

        JsonObject accept = new JsonObject().put("action", "accept").put("content", new JsonObject().put("confirm", true));
        JsonObject ran = result(send(retry(first, accept, state)));
        assertEquals("complete", ran.getString("resultType"));
        assertTrue(ran.getJsonArray("content").getJsonObject(0).getString("text").contains("\"n\":"), ran.encode());

        // an accepted state runs its call once: used again, the user is asked again
        assertEquals("input_required", result(send(retry(first, accept, state))).getString("resultType"));

        JsonObject declined = result(send(retry(first, new JsonObject().put("action", "decline"), state)));
        assertEquals(Boolean.TRUE, declined.getBoolean("isError"));
        assertTrue(declined.getJsonArray("content").getJsonObject(0).getString("text").startsWith("Not run"));

        // the state covers exactly this call: other inputs are asked about again
        JsonObject other = execute(602, 2, ELICITATION);
        assertEquals("input_required", result(send(retry(other, accept, state))).getString("resultType"));
    }

    @Test
    void aTamperedRequestStateIsRejected() throws Exception {
        JsonObject first = execute(701, 1, ELICITATION);
        String state = result(send(first)).getString("requestState");
        JsonObject accept = new JsonObject().put("action", "accept").put("content", new JsonObject().put("confirm", true));
        String payload = state.substring(0, state.indexOf('.'));
        String forged = new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8).replace("\"exp\":", "\"exp\":9");
        String swapped = Base64.getUrlEncoder().withoutPadding().encodeToString(forged.getBytes(StandardCharsets.UTF_8))
                + state.substring(state.indexOf('.'));
        for (String bad : List.of(state + "-TAMPERED", swapped, "not-a-state")) {
            HttpResponse<String> r = send(retry(first, accept, bad));
            assertError(r, 200, 701, -32602);
            assertTrue(r.body().contains("requestState"), r.body());
        }
        // a state sealed for one fixture does not open another's round
        JsonObject fixture = call(702, "test_input_required_result_tampered_state", new JsonObject(), ELICITATION);
        JsonObject stolen = retry(fixture, accept, state);
        assertError(send(stolen), 200, 702, -32602);
    }

    @Test
    void aClientThatCannotBeAskedIsRefusedAndNothingRuns() throws Exception {
        JsonObject refused = result(send(execute(801, 1, new JsonObject())));
        assertEquals("complete", refused.getString("resultType"));
        assertEquals(Boolean.TRUE, refused.getBoolean("isError"));
        assertTrue(refused.getJsonArray("content").getJsonObject(0).getString("text")
                .startsWith("Not run: 'count-customers' needs the user's confirmation"), refused.encode());
        // and a tool without confirm never asks
        JsonObject plain = result(send(call(802, "execute", new JsonObject().put("tool", "get-customer")
                .put("inputs", new JsonObject().put("customer_id", 1)), ELICITATION)));
        assertEquals("complete", plain.getString("resultType"));
    }

    @Test
    void malformedInputResponsesAreInvalidParams() throws Exception {
        JsonObject bad = execute(901, 1, ELICITATION);
        bad.getJsonObject("params").put("inputResponses", new JsonObject().put("confirm", 12345));
        assertError(send(bad), 200, 901, -32602);
        bad.getJsonObject("params").putNull("inputResponses");
        assertError(send(bad), 200, 901, -32602);
    }

    // ---- subscriptions/listen across a reload ----

    @Test
    void listenStreamsAreToldWhenAReloadChangesTheTools(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        RunningServer.writeTool(project, "hr-only", "use: shop\nstatement: SELECT 2 AS two\nauth:\n  plugin: api_key\n"
                + "  policy:\n    value: '{{ env.HR_KEY }}'\n");
        try (RunningServer reloading = RunningServer.start(project, Map.of("HR_KEY", "k"), s -> s,
                ServeOptions.DEFAULTS.withReloads(RunningServer.recompile(project, Map.of("HR_KEY", "k"),
                        dev.hyperterse.connector.Connectors.builtIn()), null))) {
            RawHttp h = new RawHttp(reloading.baseUrl());
            JsonObject discover = request(1, "server/discover", new JsonObject().put("_meta", meta(new JsonObject())));
            JsonObject capabilities = result(h.mcp(discover, headers(discover))).getJsonObject("capabilities");
            assertEquals(Boolean.TRUE, capabilities.getJsonObject("tools").getBoolean("listChanged"));
            JsonObject list = request(2, "tools/list", new JsonObject().put("_meta", meta(new JsonObject())));
            assertEquals("private", result(h.mcp(list, headers(list))).getString("cacheScope"),
                    "a project that guards tools answers by the caller's credentials");

            JsonObject listen = request("sub-1", "subscriptions/listen", new JsonObject().put("_meta", meta(new JsonObject()))
                    .put("notifications", new JsonObject().put("toolsListChanged", true)));
            JsonObject promptsOnly = request("sub-2", "subscriptions/listen", new JsonObject()
                    .put("_meta", meta(new JsonObject())).put("notifications", new JsonObject().put("promptsListChanged", true)));
            try (SseStream tools = h.mcpStream(listen, headers(listen));
                 SseStream prompts = h.mcpStream(promptsOnly, headers(promptsOnly))) {
                JsonObject ack = tools.nextMessage(Duration.ofSeconds(5)).json();
                assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"));
                assertEquals("sub-1", ack.getJsonObject("params").getJsonObject("_meta")
                        .getString("io.modelcontextprotocol/subscriptionId"));
                assertEquals(new JsonObject().put("toolsListChanged", true), ack.getJsonObject("params").getJsonObject("notifications"));
                JsonObject otherAck = prompts.nextMessage(Duration.ofSeconds(5)).json();
                assertEquals(new JsonObject().put("promptsListChanged", true),
                        otherAck.getJsonObject("params").getJsonObject("notifications"),
                        "the project has prompts and the server reloads: their list changes are promised");

                RunningServer.writeTool(project, "product-count", "use: shop\nstatement: SELECT count(*) AS n FROM products\n");
                reloading.server().reload().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                JsonObject changed = tools.nextMessage(Duration.ofSeconds(5)).json();
                assertEquals("notifications/tools/list_changed", changed.getString("method"));
                assertEquals("sub-1", changed.getJsonObject("params").getJsonObject("_meta")
                        .getString("io.modelcontextprotocol/subscriptionId"));
                assertTrue(prompts.silentFor(Duration.ofMillis(500)),
                        "a stream that did not ask for tools hears nothing (the prompts did not change)");
                assertFalse(tools.ended(), "the listen stream stays open");
            }
        }
    }

    /**
     * Listen streams are held like the session generation's streams are: at most
     * {@code server.sessions.max} open on a node and {@code server.sessions.per_client} per client;
     * past either a new one is refused (HTTP 429, -32000), and a closed one frees its place.
     */
    @Test
    void listenStreamsPerClientAreBounded(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        try (RunningServer bounded = RunningServer.start(project,
                s -> s.sessions(x -> x.idleTimeout(Duration.ofMinutes(30)).max(3).perClient(2)), ServeOptions.DEFAULTS)) {
            RawHttp h = new RawHttp(bounded.baseUrl());
            List<SseStream> open = new ArrayList<>();
            try {
                for (int i = 1; i <= 2; i++) {
                    JsonObject listen = listenRequest("sub-" + i);
                    SseStream stream = h.mcpStream(listen, headers(listen));
                    open.add(stream);
                    assertEquals("notifications/subscriptions/acknowledged",
                            stream.nextMessage(Duration.ofSeconds(5)).json().getString("method"));
                }
                JsonObject third = listenRequest("sub-3");
                try (SseStream refused = h.mcpStream(third, headers(third))) {
                    assertEquals(429, refused.status(), "a third stream of one client is refused");
                    assertTrue(refused.header("content-type").startsWith("application/json"), refused.header("content-type"));
                }

                open.remove(0).close();
                // the server hears of the close a moment later
                boolean reopened = false;
                for (int attempt = 0; attempt < 40 && !reopened; attempt++) {
                    JsonObject again = listenRequest("sub-4-" + attempt);
                    SseStream stream = h.mcpStream(again, headers(again));
                    open.add(stream);
                    reopened = stream.status() == 200;
                    if (!reopened) {
                        assertEquals(429, stream.status());
                        open.remove(stream);
                        stream.close();
                        Thread.sleep(50);
                    }
                }
                assertTrue(reopened, "a closed stream frees its place");
                assertEquals("notifications/subscriptions/acknowledged",
                        open.get(open.size() - 1).nextMessage(Duration.ofSeconds(5)).json().getString("method"));
            } finally {
                for (SseStream stream : open) {
                    stream.close();
                }
            }
        }
    }

    /**
     * Listen streams held open by a few clients do not lock a new client out of a full node: the
     * oldest stream of the client holding the most ends with its result to make room, when it
     * holds two more than the newcomer; a client at its share, or a full node whose clients hold
     * about as many as the newcomer, still gets 429.
     */
    @Test
    void aFullNodeTakesANewListenersPlaceFromTheClientHoldingTheMost(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        List<AddressedStream> open = new ArrayList<>();
        try (RunningServer full = RunningServer.start(project,
                s -> s.sessions(x -> x.idleTimeout(Duration.ofMinutes(30)).max(4).perClient(2)), ServeOptions.DEFAULTS)) {
            for (String client : List.of("127.0.0.2", "127.0.0.3")) {
                for (int i = 0; i < 2; i++) {
                    AddressedStream stream = listenFrom(full.port(), client, client + "-" + i);
                    stream.await("notifications/subscriptions/acknowledged", Duration.ofSeconds(10));
                    open.add(stream);
                }
            }
            AddressedStream newcomer = listenFrom(full.port(), "127.0.0.4", "new");
            open.add(newcomer);
            newcomer.await("notifications/subscriptions/acknowledged", Duration.ofSeconds(10));
            assertTrue(open.get(0).awaitEnd(Duration.ofSeconds(10)), "the first client's oldest stream ends");
            assertTrue(open.get(0).text().contains("\"resultType\":\"complete\""), open.get(0).text());
            for (AddressedStream kept : open.subList(1, open.size())) {
                assertFalse(kept.ended(), "the other streams stay open");
            }

            AddressedStream third = listenFrom(full.port(), "127.0.0.3", "third");
            assertTrue(third.awaitEnd(Duration.ofSeconds(10)));
            assertTrue(third.text().startsWith("HTTP/1.1 429") && third.text().contains("at most 2 per client"),
                    third.text());
            AddressedStream even = listenFrom(full.port(), "127.0.0.2", "even");
            assertTrue(even.awaitEnd(Duration.ofSeconds(10)));
            assertTrue(even.text().startsWith("HTTP/1.1 429") && even.text().contains("at most 4 on this server"),
                    "no client holds two more than 127.0.0.2 now: " + even.text());
        } finally {
            open.forEach(AddressedStream::close);
        }
    }

    private static AddressedStream listenFrom(int port, String client, String id) throws Exception {
        JsonObject listen = listenRequest(id);
        String[] h = headers(listen);
        Map<String, String> all = new java.util.LinkedHashMap<>();
        all.put("Content-Type", "application/json");
        all.put("Accept", "application/json, text/event-stream");
        for (int i = 0; i < h.length; i += 2) {
            all.put(h[i], h[i + 1]);
        }
        return AddressedStream.open(port, client, "POST", "/mcp", all, listen.encode());
    }

    static JsonObject listenRequest(String id) {
        return request(id, "subscriptions/listen", new JsonObject().put("_meta", meta(new JsonObject()))
                .put("notifications", new JsonObject().put("toolsListChanged", true)));
    }
}
