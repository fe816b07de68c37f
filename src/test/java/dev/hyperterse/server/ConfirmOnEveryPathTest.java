package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code confirm: true} is a property of the tool: it holds whether the tool is reached through
 * {@code execute} or called by name ({@code tools.exposure: both}), in either protocol generation.
 * A 2026-07-28 client that declared elicitation is asked; a client that cannot be asked is refused
 * and nothing runs, unless {@code tools.confirm_without_elicitation: run}.
 */
class ConfirmOnEveryPathTest {
    private static final String RENAME = "description: 'Rename a customer'\nuse: shop\n"
            + "statement: UPDATE customers SET name = {{ inputs.name }} WHERE id = {{ inputs.id }}\n"
            + "inputs:\n  id:\n    type: int\n    description: 'Customer id'\n"
            + "  name:\n    type: string\n    description: 'New name'\nconfirm: true\n";

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> RunningServer.start(project(scratch, "refuse")));
    static final RawHttp http = server.http();

    static Path project(Path dir, String withoutElicitation) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        Path root = project.resolve(".hyperterse");
        Files.writeString(root, Files.readString(root).replace("tools:\n", "tools:\n  exposure: both\n"
                + "  confirm_without_elicitation: " + withoutElicitation + "\n"));
        RunningServer.writeTool(project, "rename-customer", RENAME);
        return project;
    }

    private static String nameOf(RawHttp http, int id) throws Exception {
        return RawHttp.rows(http.call("get-customer", new JsonObject().put("customer_id", id)))
                .getJsonObject(0).getString("name");
    }

    private static JsonObject rename(int id, String name) {
        return new JsonObject().put("id", id).put("name", name);
    }

    /** A session's tools/call of {@code tool} with {@code arguments}: the result, or fails on an error. */
    private static JsonObject sessionCall(RawHttp http, String session, String tool, JsonObject arguments) throws Exception {
        JsonObject request = new JsonObject().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call")
                .put("params", new JsonObject().put("name", tool).put("arguments", arguments));
        HttpResponse<String> r = http.mcp(request, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");
        assertEquals(200, r.statusCode(), r.body());
        String body = r.body().startsWith("{") ? r.body()
                : r.body().substring(r.body().indexOf("data: ") + 6, r.body().indexOf('\n', r.body().indexOf("data: ")));
        JsonObject answer = new JsonObject(body);
        assertTrue(answer.containsKey("result"), body);
        return answer.getJsonObject("result");
    }

    private static String text(JsonObject result) {
        return result.getJsonArray("content").getJsonObject(0).getString("text");
    }

    @Test
    void aDirectCallOfTheStatelessGenerationAsksAndRunsOnlyOnAcceptance() throws Exception {
        JsonObject first = McpStatelessTest.call(11, "rename-customer", rename(1, "Direct"), McpStatelessTest.ELICITATION);
        JsonObject asked = McpStatelessTest.result(http.mcp(first, McpStatelessTest.headers(first)));
        assertEquals("input_required", asked.getString("resultType"), asked.encode());
        String message = asked.getJsonObject("inputRequests").getJsonObject("confirm").getJsonObject("params")
                .getString("message");
        assertEquals("Run 'rename-customer' with these inputs?\n- id: 1\n- name: \"Direct\"", message);
        assertTrue(!"Direct".equals(nameOf(http, 1)), "nothing ran before the answer");

        JsonObject accept = new JsonObject().put("action", "accept").put("content", new JsonObject().put("confirm", true));
        JsonObject again = McpStatelessTest.retry(first, accept, asked.getString("requestState"));
        JsonObject ran = McpStatelessTest.result(http.mcp(again, McpStatelessTest.headers(again)));
        assertEquals("complete", ran.getString("resultType"), ran.encode());
        assertTrue(ran.getBoolean("isError") == null || !ran.getBoolean("isError"), ran.encode());
        assertEquals("Direct", nameOf(http, 1));
    }

    @Test
    void aStatelessClientThatCannotBeAskedIsRefusedOnEitherPath() throws Exception {
        String before = nameOf(http, 2);
        JsonObject direct = McpStatelessTest.call(21, "rename-customer", rename(2, "Unasked"), new JsonObject());
        JsonObject refused = McpStatelessTest.result(http.mcp(direct, McpStatelessTest.headers(direct)));
        assertEquals(Boolean.TRUE, refused.getBoolean("isError"), refused.encode());
        assertTrue(text(refused).contains("needs the user's confirmation"), refused.encode());
        JsonObject viaExecute = McpStatelessTest.call(22, "execute", new JsonObject().put("tool", "rename-customer")
                .put("inputs", rename(2, "Unasked")), new JsonObject());
        refused = McpStatelessTest.result(http.mcp(viaExecute, McpStatelessTest.headers(viaExecute)));
        assertEquals(Boolean.TRUE, refused.getBoolean("isError"), refused.encode());
        assertEquals(before, nameOf(http, 2));
    }

    @Test
    void sessionClientsAreRefusedByNameAndThroughExecute() throws Exception {
        String before = nameOf(http, 3);
        String session = http.session("2025-11-25");
        JsonObject direct = sessionCall(http, session, "rename-customer", rename(3, "Session"));
        assertEquals(Boolean.TRUE, direct.getBoolean("isError"), direct.encode());
        assertTrue(text(direct).startsWith("Not run: 'rename-customer' needs the user's confirmation"), direct.encode());
        JsonObject viaExecute = sessionCall(http, session, "execute", new JsonObject().put("tool", "rename-customer")
                .put("inputs", rename(3, "Session")));
        assertEquals(Boolean.TRUE, viaExecute.getBoolean("isError"), viaExecute.encode());
        assertEquals(before, nameOf(http, 3));
    }

    /** A session whose client declared elicitation, initialized as a client does. */
    private static String askableSession() throws Exception {
        JsonObject init = RawHttp.initialize("2025-11-25");
        init.getJsonObject("params").put("capabilities", new JsonObject().put("elicitation", new JsonObject()));
        HttpResponse<String> r = http.mcp(init);
        assertEquals(200, r.statusCode(), r.body());
        String session = r.headers().firstValue("mcp-session-id").orElseThrow();
        assertEquals(202, http.mcp(RawHttp.notification("notifications/initialized", null), "Mcp-Session-Id", session,
                "MCP-Protocol-Version", "2025-11-25").statusCode());
        return session;
    }

    private static JsonObject toolsCall(int id, String tool, JsonObject arguments) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call")
                .put("params", new JsonObject().put("name", tool).put("arguments", arguments));
    }

    /** Answers the elicitation/create the call's stream carries, then returns the call's response. */
    private static JsonObject answered(String session, JsonObject call, JsonObject elicitResult) throws Exception {
        try (SseStream stream = http.mcpStream(call, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25")) {
            JsonObject asked = stream.nextMessage(Duration.ofSeconds(20)).json();
            assertEquals("elicitation/create", asked.getString("method"), asked.encode());
            assertTrue(asked.getJsonObject("params").getString("message").startsWith("Run 'rename-customer' with these inputs?\n- id:"),
                    asked.encode());
            JsonObject response = new JsonObject().put("jsonrpc", "2.0").put("id", asked.getValue("id"))
                    .put("result", elicitResult);
            assertEquals(202, http.mcp(response, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25")
                    .statusCode());
            JsonObject answer = stream.nextMessage(Duration.ofSeconds(20)).json();
            assertEquals(call.getValue("id"), answer.getValue("id"), answer.encode());
            return answer.getJsonObject("result");
        }
    }

    @Test
    void aSessionClientThatDeclaredElicitationIsAskedOnItsCallsStream() throws Exception {
        String session = askableSession();
        JsonObject declined = answered(session, toolsCall(31, "rename-customer", rename(5, "Declined")),
                new JsonObject().put("action", "decline"));
        assertEquals(Boolean.TRUE, declined.getBoolean("isError"), declined.encode());
        assertTrue(!"Declined".equals(nameOf(http, 5)));
        JsonObject viaExecute = answered(session, toolsCall(32, "execute", new JsonObject().put("tool", "rename-customer")
                        .put("inputs", rename(5, "Accepted"))),
                new JsonObject().put("action", "accept").put("content", new JsonObject().put("confirm", true)));
        assertTrue(viaExecute.getBoolean("isError") == null || !viaExecute.getBoolean("isError"), viaExecute.encode());
        assertEquals("Accepted", nameOf(http, 5));
    }

    @Test
    void operatorsMayLetUnaskableClientsRunConfirmTools(@TempDir Path dir) throws Exception {
        try (RunningServer running = RunningServer.start(project(dir, "run"))) {
            RawHttp other = new RawHttp(running.baseUrl());
            String session = other.session("2025-11-25");
            JsonObject ran = sessionCall(other, session, "rename-customer", rename(4, "Allowed"));
            assertTrue(ran.getBoolean("isError") == null || !ran.getBoolean("isError"), ran.encode());
            assertEquals("Allowed", nameOf(other, 4));
        }
    }
}
