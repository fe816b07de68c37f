package dev.hyperterse.server;

import dev.hyperterse.conformance.ConformanceExtension;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call asks the session's client over raw HTTP, through the conformance fixtures that do: the
 * request of the server's arrives on the call's own stream, the client POSTs its response, and the
 * call answers with what the client said. A client that did not declare the capability, or a call
 * without a session, is told why it cannot be asked; a cancelled call's request is forgotten, so
 * cancelled calls do not use up the session's open requests.
 */
class SessionAsksClientTest {
    private static final String VERSION = "2025-11-25";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final TestServer server = TestServer.quickstart(s -> s, ServeOptions.DEFAULTS.withMcpExtension(new ConformanceExtension()));
    static final RawHttp http = server.http();

    /** A session whose client declared {@code capabilities} at initialize. */
    private static String session(JsonObject capabilities) throws Exception {
        JsonObject init = RawHttp.initialize(VERSION);
        init.getJsonObject("params").put("capabilities", capabilities);
        HttpResponse<String> r = http.mcp(init);
        assertEquals(200, r.statusCode(), r.body());
        String session = r.headers().firstValue("mcp-session-id").orElseThrow();
        assertEquals(202, http.mcp(RawHttp.notification("notifications/initialized", null), "Mcp-Session-Id", session,
                "MCP-Protocol-Version", VERSION).statusCode());
        return session;
    }

    private static JsonObject toolsCall(int id, String tool, JsonObject arguments) {
        return RawHttp.request(id, "tools/call", new JsonObject().put("name", tool).put("arguments", arguments));
    }

    private static SseStream open(String session, JsonObject call) throws Exception {
        return http.mcpStream(call, "Mcp-Session-Id", session, "MCP-Protocol-Version", VERSION);
    }

    private static void post(String session, JsonObject message) throws Exception {
        assertEquals(202, http.mcp(message, "Mcp-Session-Id", session, "MCP-Protocol-Version", VERSION).statusCode());
    }

    private static JsonObject answer(Object id, JsonObject result) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
    }

    private static String text(JsonObject result) {
        return result.getJsonArray("content").getJsonObject(0).getString("text");
    }

    @Test
    void aToolSamplesTheClientsModelOnItsOwnStream() throws Exception {
        String session = session(new JsonObject().put("sampling", new JsonObject()));
        JsonObject call = toolsCall(1, "test_sampling", new JsonObject().put("prompt", "What is the capital of France?"));
        try (SseStream stream = open(session, call)) {
            JsonObject asked = stream.nextMessage(WAIT).json();
            assertEquals("sampling/createMessage", asked.getString("method"), asked.encode());
            JsonObject params = asked.getJsonObject("params");
            assertEquals(100, params.getInteger("maxTokens"));
            assertEquals(new JsonArray().add(new JsonObject().put("role", "user").put("content", new JsonObject()
                    .put("type", "text").put("text", "What is the capital of France?"))), params.getJsonArray("messages"));
            post(session, answer(asked.getValue("id"), new JsonObject().put("role", "assistant").put("model", "test")
                    .put("content", new JsonObject().put("type", "text").put("text", "Paris")).put("stopReason", "endTurn")));
            JsonObject response = stream.nextMessage(WAIT).json();
            assertEquals(1, response.getInteger("id"), response.encode());
            assertEquals("LLM response: Paris", text(response.getJsonObject("result")));
            assertNull(response.getJsonObject("result").getValue("isError"));
        }
    }

    @Test
    void aToolElicitsAFormWithDefaultsAndReportsTheAnswer() throws Exception {
        String session = session(new JsonObject().put("elicitation", new JsonObject()));
        try (SseStream stream = open(session, toolsCall(2, "test_elicitation_sep1034_defaults", new JsonObject()))) {
            JsonObject asked = stream.nextMessage(WAIT).json();
            assertEquals("elicitation/create", asked.getString("method"), asked.encode());
            JsonObject properties = asked.getJsonObject("params").getJsonObject("requestedSchema").getJsonObject("properties");
            assertEquals("John Doe", properties.getJsonObject("name").getValue("default"));
            assertEquals(30, properties.getJsonObject("age").getValue("default"));
            assertEquals(95.5, properties.getJsonObject("score").getValue("default"));
            assertEquals("active", properties.getJsonObject("status").getValue("default"));
            assertEquals(Boolean.TRUE, properties.getJsonObject("verified").getValue("default"));
            post(session, answer(asked.getValue("id"), new JsonObject().put("action", "accept")
                    .put("content", new JsonObject().put("name", "Jane").put("age", 25))));
            JsonObject response = stream.nextMessage(WAIT).json();
            assertEquals("Elicitation completed: action=accept, content={\"name\":\"Jane\",\"age\":25}",
                    text(response.getJsonObject("result")));
        }
    }

    @Test
    void aClientErrorOrAMissingCapabilityOrSessionIsAToolErrorSayingWhy() throws Exception {
        String both = session(new JsonObject().put("sampling", new JsonObject()).put("elicitation", new JsonObject()));
        try (SseStream stream = open(both, toolsCall(3, "test_elicitation", new JsonObject().put("message", "Who?")))) {
            JsonObject asked = stream.nextMessage(WAIT).json();
            assertEquals("Who?", asked.getJsonObject("params").getString("message"));
            post(both, new JsonObject().put("jsonrpc", "2.0").put("id", asked.getValue("id"))
                    .put("error", new JsonObject().put("code", -32603).put("message", "no user at the keyboard")));
            JsonObject result = stream.nextMessage(WAIT).json().getJsonObject("result");
            assertEquals(Boolean.TRUE, result.getBoolean("isError"), result.encode());
            assertEquals("elicitation/create: the client answered with error -32603: no user at the keyboard", text(result));
        }

        String none = session(new JsonObject());
        HttpResponse<String> refused = http.mcp(toolsCall(4, "test_sampling", new JsonObject().put("prompt", "Hi")),
                "Mcp-Session-Id", none, "MCP-Protocol-Version", VERSION);
        JsonObject result = new JsonObject(refused.body()).getJsonObject("result");
        assertEquals(Boolean.TRUE, result.getBoolean("isError"), refused.body());
        assertEquals("cannot send sampling/createMessage to the client: it did not declare the 'sampling' capability"
                + " at initialize", text(result));

        HttpResponse<String> sessionless = http.mcp(toolsCall(5, "test_sampling", new JsonObject().put("prompt", "Hi")),
                "MCP-Protocol-Version", VERSION);
        JsonObject without = new JsonObject(sessionless.body()).getJsonObject("result");
        assertEquals(Boolean.TRUE, without.getBoolean("isError"), sessionless.body());
        assertTrue(text(without).startsWith("cannot send sampling/createMessage to the client: this request came"
                + " without a session"), text(without));
    }

    @Test
    void aCancelledCallsRequestIsForgotten() throws Exception {
        String session = session(new JsonObject().put("elicitation", new JsonObject()));
        // more cancelled questions than the session may hold open: each was let go with its call
        for (int i = 0; i <= 16; i++) {
            try (SseStream stream = open(session, toolsCall(100 + i, "test_elicitation", new JsonObject()
                    .put("message", "Question " + i)))) {
                JsonObject asked = stream.nextMessage(WAIT).json();
                assertEquals("Question " + i, asked.getJsonObject("params").getString("message"), asked.encode());
                post(session, RawHttp.notification("notifications/cancelled", new JsonObject()
                        .put("requestId", 100 + i).put("reason", "changed my mind")));
            }
        }
        try (SseStream stream = open(session, toolsCall(200, "test_elicitation", new JsonObject().put("message", "Last")))) {
            JsonObject asked = stream.nextMessage(WAIT).json();
            assertEquals("elicitation/create", asked.getString("method"), asked.encode());
            post(session, answer(asked.getValue("id"), new JsonObject().put("action", "decline")));
            assertEquals("User response: action=decline", text(stream.nextMessage(WAIT).json().getJsonObject("result")));
        }
    }
}
