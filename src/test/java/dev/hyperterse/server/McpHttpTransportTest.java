package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Status codes, headers and JSON-RPC envelopes of /mcp and /heartbeat, checked over plain HTTP
 * (mcp-transport.md §12 items 1-5 and 7-13; streams are in {@link McpStreamingTest}, sessions
 * in {@link McpSessionsTest}, tools in {@link McpToolsTest}).
 */
class McpHttpTransportTest {
    @RegisterExtension
    static final TestServer server = TestServer.quickstart();
    static final RawHttp http = server.http();

    @Test
    void heartbeat() throws Exception {
        HttpResponse<String> r = http.send("GET", "/heartbeat");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonObject().put("success", true), new JsonObject(r.body()));
    }

    @Test
    void initializeEchoesSupportedVersionsAndIssuesASession() throws Exception {
        for (String v : new String[] {"2025-03-26", "2025-06-18", "2025-11-25"}) {
            HttpResponse<String> r = http.mcp(RawHttp.initialize(v));
            assertEquals(200, r.statusCode());
            assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
            JsonObject result = new JsonObject(r.body()).getJsonObject("result");
            assertEquals(v, result.getString("protocolVersion"));
            assertNotNull(result.getJsonObject("capabilities").getJsonObject("tools"));
            assertNotNull(result.getJsonObject("capabilities").getJsonObject("logging"), "it sends log messages");
            assertEquals("quickstart", result.getJsonObject("serverInfo").getString("name"));
            assertEquals("1.0.0", result.getJsonObject("serverInfo").getString("version"));
            String session = r.headers().firstValue("mcp-session-id").orElseThrow();
            assertTrue(session.length() >= 32 && session.chars().allMatch(c -> c >= 0x21 && c <= 0x7e), session);
        }
        JsonObject unknown = new JsonObject(http.mcp(RawHttp.initialize("1999-01-01")).body()).getJsonObject("result");
        assertEquals("2025-11-25", unknown.getString("protocolVersion"));
        String a = http.mcp(RawHttp.initialize("2025-11-25")).headers().firstValue("mcp-session-id").orElseThrow();
        String b = http.mcp(RawHttp.initialize("2025-11-25")).headers().firstValue("mcp-session-id").orElseThrow();
        assertNotEquals(a, b);
    }

    @Test
    void pingIsAnsweredBeforeInitialized() throws Exception {
        String session = http.mcp(RawHttp.initialize("2025-11-25")).headers().firstValue("mcp-session-id").orElseThrow();
        HttpResponse<String> ping = http.mcp(RawHttp.request("p", "ping", null), "Mcp-Session-Id", session);
        assertEquals(200, ping.statusCode());
        assertEquals(new JsonObject().put("jsonrpc", "2.0").put("id", "p").put("result", new JsonObject()),
                new JsonObject(ping.body()));
    }

    @Test
    void notificationsAndResponsesAreAcceptedWith202() throws Exception {
        String session = http.session("2025-11-25");
        for (String method : new String[] {"notifications/initialized", "notifications/cancelled", "notifications/unknown"}) {
            HttpResponse<String> r = http.mcp(RawHttp.notification(method, new JsonObject().put("requestId", 77)),
                    "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");
            assertEquals(202, r.statusCode(), method);
            assertEquals("", r.body(), method);
        }
        HttpResponse<String> rejected = http.mcp(new JsonObject().put("jsonrpc", "1.0").put("method", "notifications/initialized"));
        assertEquals(400, rejected.statusCode());
        JsonObject body = new JsonObject(rejected.body());
        assertNull(body.getValue("id"), "an error about a message without id has no id");
        assertEquals(-32600, body.getJsonObject("error").getInteger("code"));
    }

    @Test
    void sessionLifecycle() throws Exception {
        String session = http.mcp(RawHttp.initialize("2025-06-18")).headers().firstValue("mcp-session-id").orElseThrow();
        JsonObject initialized = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized");
        HttpResponse<String> note = http.mcp(initialized, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18");
        assertEquals(202, note.statusCode());
        assertEquals("", note.body());

        HttpResponse<String> ping = http.mcp(RawHttp.request(2, "ping", null), "Mcp-Session-Id", session);
        assertEquals(200, ping.statusCode());
        assertEquals(new JsonObject(), new JsonObject(ping.body()).getJsonObject("result"));

        HttpResponse<String> again = http.mcp(RawHttp.initialize("2025-06-18"), "Mcp-Session-Id", session);
        assertEquals(400, again.statusCode());

        assertEquals(200, http.send("DELETE", "/mcp", "Mcp-Session-Id", session).statusCode());
        assertEquals(404, http.mcp(RawHttp.request(3, "ping", null), "Mcp-Session-Id", session).statusCode());
        assertEquals(404, http.send("DELETE", "/mcp", "Mcp-Session-Id", session).statusCode());
        assertEquals(404, http.mcp(RawHttp.request(4, "ping", null), "Mcp-Session-Id", "never-issued").statusCode());
    }

    /**
     * Checklist item 4 says a server that requires sessions SHOULD answer 400 to a request without
     * one; this server deliberately does not require them (plain HTTP callers, load balancers
     * without stickiness), so such a POST is served statelessly.
     */
    @Test
    void statelessPostsWork() throws Exception {
        JsonObject call = RawHttp.request("a", "tools/call", new JsonObject().put("name", "execute").put("arguments",
                new JsonObject().put("tool", "get-customer").put("inputs", new JsonObject().put("customer_id", 3))));
        HttpResponse<String> r = http.mcp(call);
        assertEquals(200, r.statusCode());
        JsonObject body = new JsonObject(r.body());
        assertEquals("a", body.getValue("id"));
        JsonArray rows = new JsonArray(body.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
        assertEquals("Alan Turing", rows.getJsonObject(0).getString("name"));
    }

    @Test
    void toolFailuresCarryStageAndTool() throws Exception {
        JsonObject call = RawHttp.request(7, "tools/call", new JsonObject().put("name", "execute").put("arguments",
                new JsonObject().put("tool", "get-customer").put("inputs", new JsonObject())));
        ToolError error = ToolError.ofAnswer(new JsonObject(http.mcp(call).body()));
        assertEquals(-32000, error.code());
        assertEquals("input_validation", error.stage());
        assertEquals("get-customer", error.tool());
    }

    @Test
    void jsonRpcErrors() throws Exception {
        HttpResponse<String> parse = http.post("/mcp", "{not json", "Content-Type", "application/json", "Accept", RawHttp.ACCEPT_BOTH);
        assertEquals(400, parse.statusCode());
        JsonObject parseBody = new JsonObject(parse.body());
        assertEquals(-32700, parseBody.getJsonObject("error").getInteger("code"));
        assertTrue(parseBody.containsKey("id") && parseBody.getValue("id") == null);

        HttpResponse<String> invalid = http.mcp(new JsonObject().put("jsonrpc", "1.0").put("id", 1).put("method", "ping"));
        assertEquals(400, invalid.statusCode());
        assertEquals(-32600, new JsonObject(invalid.body()).getJsonObject("error").getInteger("code"));

        HttpResponse<String> nullId = http.mcp(new JsonObject().put("jsonrpc", "2.0").putNull("id").put("method", "ping"));
        assertEquals(-32600, new JsonObject(nullId.body()).getJsonObject("error").getInteger("code"));

        JsonObject unknown = new JsonObject(http.mcp(RawHttp.request(5, "no/such", null)).body());
        assertEquals(-32601, unknown.getJsonObject("error").getInteger("code"));
        assertEquals(5, unknown.getInteger("id"));

        JsonObject badCursor = new JsonObject(http.mcp(RawHttp.request(6, "tools/list",
                new JsonObject().put("cursor", "zzz"))).body());
        assertEquals(-32602, badCursor.getJsonObject("error").getInteger("code"));

        JsonObject badLevel = new JsonObject(http.mcp(RawHttp.request(8, "logging/setLevel",
                new JsonObject().put("level", "loud"))).body());
        assertEquals(-32602, badLevel.getJsonObject("error").getInteger("code"));
    }

    @Test
    void headerRules() throws Exception {
        assertEquals(415, http.post("/mcp", RawHttp.request(1, "ping", null).encode(),
                "Content-Type", "text/plain", "Accept", RawHttp.ACCEPT_BOTH).statusCode());
        assertEquals(406, http.post("/mcp", RawHttp.request(1, "ping", null).encode(),
                "Content-Type", "application/json", "Accept", "application/json").statusCode());
        assertEquals(406, http.post("/mcp", RawHttp.request(1, "ping", null).encode(),
                "Content-Type", "application/json", "Accept", "text/event-stream").statusCode());
        assertEquals(200, http.post("/mcp", RawHttp.request(1, "ping", null).encode(),
                "Content-Type", "application/json; charset=utf-8", "Accept", "application/json, text/event-stream").statusCode());
        HttpResponse<String> bad = http.mcp(RawHttp.request(1, "ping", null), "MCP-Protocol-Version", "2024-01-01");
        assertEquals(400, bad.statusCode());
        assertTrue(new JsonObject(bad.body()).getJsonObject("error").getString("message")
                .startsWith("Bad Request: Unsupported protocol version: 2024-01-01"));
        assertEquals(200, http.mcp(RawHttp.request(1, "ping", null), "MCP-Protocol-Version", "2025-11-25").statusCode());
        assertEquals(200, http.mcp(RawHttp.initialize("2025-06-18")).statusCode(), "initialize needs no version header");

        String session = http.session("2025-11-25");
        assertEquals(400, http.send("GET", "/mcp", "Accept", "text/event-stream").statusCode(), "GET needs a session");
        assertEquals(406, http.send("GET", "/mcp", "Accept", "application/json", "Mcp-Session-Id", session).statusCode());
        assertEquals(400, http.send("GET", "/mcp", "Accept", "text/event-stream", "Mcp-Session-Id", session,
                "MCP-Protocol-Version", "1.0").statusCode());
        assertEquals(400, http.send("DELETE", "/mcp", "Mcp-Session-Id", session, "MCP-Protocol-Version", "1.0").statusCode());
        assertEquals(400, http.send("DELETE", "/mcp").statusCode(), "DELETE needs a session");

        HttpResponse<String> put = http.send("PUT", "/mcp");
        assertEquals(405, put.statusCode());
        assertEquals("GET, POST, DELETE, OPTIONS", put.headers().firstValue("allow").orElseThrow());
    }

    @Test
    void originAndHostValidation() throws Exception {
        assertEquals(403, http.mcp(RawHttp.request(1, "ping", null), "Origin", "http://evil.example.com").statusCode());
        assertEquals(200, http.mcp(RawHttp.request(1, "ping", null), "Origin", "http://localhost:3000").statusCode());
        assertEquals(403, http.mcp(RawHttp.initialize("2025-11-25"), "Host", "evil.example.com",
                "Origin", "http://evil.example.com").statusCode());
        assertEquals(403, http.mcp(RawHttp.request(1, "ping", null), "Host", "evil.example.com").statusCode());
        assertEquals(200, http.mcp(RawHttp.request(1, "ping", null), "Host", "localhost:" + server.port()).statusCode());
        // a Host the router cannot read is the caller's mistake, named as such (it was "Internal error")
        for (String host : List.of("localhost:80:90", "127.0.0.1:99999", "localhost:port")) {
            HttpResponse<String> malformed = http.mcp(RawHttp.request(1, "ping", null), "Host", host);
            assertEquals(400, malformed.statusCode(), host);
            JsonObject error = new JsonObject(malformed.body()).getJsonObject("error");
            assertEquals(-32000, error.getInteger("code"), host);
            assertEquals("Bad Request: the Host header is missing or malformed", error.getString("message"), host);
        }
    }

    @Test
    void corsPreflightAndHeaders() throws Exception {
        HttpResponse<String> pre = http.send("OPTIONS", "/mcp", "Origin", "http://localhost:5173",
                "Access-Control-Request-Method", "POST");
        assertEquals(204, pre.statusCode());
        assertEquals("*", pre.headers().firstValue("access-control-allow-origin").orElseThrow());
        assertTrue(pre.headers().firstValue("access-control-allow-headers").orElseThrow().contains("Mcp-Session-Id"));
        HttpResponse<String> ping = http.mcp(RawHttp.request(1, "ping", null), "Origin", "http://localhost:5173");
        assertTrue(ping.headers().firstValue("access-control-expose-headers").orElseThrow().contains("Mcp-Session-Id"));
        // a 2026-07-28 browser client sends the routing headers and a tool's mirrored arguments
        HttpResponse<String> stateless = http.send("OPTIONS", "/mcp", "Origin", "http://localhost:5173",
                "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers",
                "content-type,mcp-method,mcp-name,mcp-protocol-version,mcp-param-tool,x-evil,mcp-param-");
        assertEquals(204, stateless.statusCode());
        List<String> allowed = List.of(stateless.headers().firstValue("access-control-allow-headers").orElseThrow()
                .toLowerCase(java.util.Locale.ROOT).split(",\\s*"));
        assertTrue(allowed.containsAll(List.of("content-type", "mcp-method", "mcp-name", "mcp-protocol-version",
                "mcp-param-tool")), allowed.toString());
        assertFalse(allowed.contains("x-evil"), allowed.toString());
        assertFalse(allowed.contains("mcp-param-"), allowed.toString());
        assertTrue(stateless.headers().firstValue("vary").orElseThrow().contains("Access-Control-Request-Headers"));
    }

    @Test
    void batchesOnlyFor20250326() throws Exception {
        String batch = new JsonArray().add(RawHttp.request(1, "ping", null)).add(RawHttp.request(2, "ping", null))
                .add(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized")).encode();
        HttpResponse<String> old = http.post("/mcp", batch, "Content-Type", "application/json", "Accept", RawHttp.ACCEPT_BOTH);
        assertEquals(200, old.statusCode());
        JsonArray replies = new JsonArray(old.body());
        assertEquals(2, replies.size());
        assertEquals(1, replies.getJsonObject(0).getInteger("id"));
        HttpResponse<String> newer = http.post("/mcp", batch, "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "MCP-Protocol-Version", "2025-06-18");
        assertEquals(400, newer.statusCode());

        // within a session, the negotiated version decides, with or without the header
        String oldSession = http.session("2025-03-26");
        HttpResponse<String> inOld = http.post("/mcp", batch, "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", oldSession);
        assertEquals(200, inOld.statusCode());
        assertEquals(2, new JsonArray(inOld.body()).size());
        String current = http.session("2025-11-25");
        assertEquals(400, http.post("/mcp", batch, "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", current).statusCode());

        String onlyNotifications = new JsonArray().add(RawHttp.notification("notifications/initialized", null)).encode();
        HttpResponse<String> accepted = http.post("/mcp", onlyNotifications, "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", oldSession);
        assertEquals(202, accepted.statusCode());
        assertEquals("", accepted.body());

        String withInitialize = new JsonArray().add(RawHttp.initialize("2025-03-26")).add(RawHttp.request(2, "ping", null))
                .encode();
        JsonArray refused = new JsonArray(http.post("/mcp", withInitialize, "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH).body());
        assertEquals(-32600, refused.getJsonObject(0).getJsonObject("error").getInteger("code"));
        assertEquals(new JsonObject(), refused.getJsonObject(1).getJsonObject("result"));
    }

    @Test
    void responsesFromTheClientAreAccepted() throws Exception {
        HttpResponse<String> r = http.mcp(new JsonObject().put("jsonrpc", "2.0").put("id", 9).put("result", new JsonObject()));
        assertEquals(202, r.statusCode());
        assertNull(r.headers().firstValue("content-type").orElse(null));
    }

    @Test
    void oversizedBodiesAreRejected() throws Exception {
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + "a".repeat(5 * 1024 * 1024) + "\"}}";
        HttpResponse<String> r = http.post("/mcp", huge, "Content-Type", "application/json", "Accept", RawHttp.ACCEPT_BOTH);
        assertEquals(413, r.statusCode());
        assertTrue(new JsonObject(r.body()).getJsonObject("error").getString("message").startsWith("Payload Too Large"));
        assertEquals(200, http.send("GET", "/heartbeat").statusCode());
    }
}
