package dev.hyperterse.server;

import dev.hyperterse.conformance.ConformanceExtension;
import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The utilities seen through an independent client, the MCP Java SDK 2.1.0: logging levels,
 * progress, paged tools/list, search's outputSchema (the SDK validates structuredContent
 * against it), and the server's sampling and elicitation requests answered by the SDK's handlers. SDK 2.1.0 cannot send {@code notifications/cancelled}, and it does not resume a
 * POST stream the server closes before the response (SEP-1699 polling; it only reconnects its GET
 * stream), so cancellation and {@code test_reconnection} are covered over raw HTTP in
 * {@link McpStreamingTest} and {@link McpToolsTest}, and by the TypeScript SDK in the
 * conformance run.
 */
class McpSdkClientTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path project = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(project, "timed-count", "description: 'Counts until its time limit'\nuse: shop\n"
                + "timeout: 1s\nstatement: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                + "SELECT count(*) AS n FROM c'\n");
        return RunningServer.start(project,
                s -> s.limits(l -> l.pageSize(3)).searchOutputSchema(true)
                        .timeouts(t -> t.progressInterval(Duration.ofMillis(50))),
                ServeOptions.DEFAULTS.withMcpExtension(new ConformanceExtension()));
    });
    static McpSyncClient client;
    static final List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
    static final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void connect() {
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(20), spec -> spec
                .clientInfo(new McpSchema.Implementation("junit-sdk", "1.0"))
                .loggingConsumer(logs::add)
                .progressConsumer(progress::add)
                .capabilities(McpSchema.ClientCapabilities.builder().sampling().elicitation().build())
                .sampling(request -> McpSchema.CreateMessageResult.builder().role(McpSchema.Role.ASSISTANT)
                        .content(new McpSchema.TextContent("Asked: " + ((McpSchema.TextContent) request.messages().get(0)
                                .content()).text() + " (at most " + request.maxTokens() + " tokens)"))
                        .model("junit-model").build())
                .elicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT,
                        Map.of("username", "sdk-user", "email", "sdk@example.com")))
                .enableCallToolSchemaCaching(true));
    }

    @AfterAll
    static void disconnect() {
        McpSdk.close(client);
    }

    @BeforeEach
    void clear() {
        logs.clear();
        progress.clear();
    }

    @Test
    void capabilitiesDeclareToolsAndLogging() {
        McpSchema.ServerCapabilities caps = client.getServerCapabilities();
        assertNotNull(caps.tools());
        assertNotNull(caps.logging());
    }

    @Test
    void pagedToolsListIsCollectedWhole() {
        List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
        assertEquals(List.of("search", "execute", "test_simple_text", "test_error_handling", "test_tool_with_progress",
                "test_tool_with_logging", "test_reconnection", "json_schema_2020_12_tool", "test_image_content",
                "test_audio_content", "test_embedded_resource", "test_multiple_content_types", "test_sampling",
                "test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums"), names);
        McpSchema.ListToolsResult first = client.listTools(null);
        assertEquals(3, first.tools().size());
        assertNotNull(first.nextCursor());
    }

    @Test
    void logMessagesArriveAtOrAboveTheLevel() {
        client.setLoggingLevel(McpSchema.LoggingLevel.DEBUG);
        execute("get-customer", Map.of("customer_id", 1));
        awaitCount(logs, 2);
        assertEquals(List.of(McpSchema.LoggingLevel.DEBUG, McpSchema.LoggingLevel.INFO),
                logs.stream().map(McpSchema.LoggingMessageNotification::level).sorted().toList());
        assertTrue(logs.stream().anyMatch(l -> "execute 'get-customer': started".equals(l.data())), logs.toString());

        logs.clear();
        client.setLoggingLevel(McpSchema.LoggingLevel.WARNING);
        execute("get-customer", Map.of("customer_id", 1));
        assertEquals(List.of(), logs);
        ToolError bad = ToolError.of(execute("get-customer", Map.of()));
        assertEquals(-32000, bad.code());
        awaitCount(logs, 1);
        assertEquals(1, logs.size());
        assertEquals(McpSchema.LoggingLevel.WARNING, logs.get(0).level());
        assertEquals("execute 'get-customer': input validation failed: required input 'customer_id' is missing",
                logs.get(0).data());
        client.setLoggingLevel(McpSchema.LoggingLevel.EMERGENCY);
    }

    /**
     * The SDK hands notifications to consumers on its own threads, possibly after the call that
     * caused them returned; wait (boundedly) until the expected number arrived.
     */
    static void awaitCount(List<?> received, int expected) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        try {
            while (received.size() < expected && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void progressArrivesBeforeTheResultAndIncreases() {
        McpSchema.CallToolResult done = client.callTool(McpSchema.CallToolRequest.builder()
                .name("test_tool_with_progress").arguments(Map.of()).progressToken("sdk-1").build());
        assertEquals("Progress test completed", ((McpSchema.TextContent) done.content().get(0)).text());
        awaitCount(progress, 3);
        // The SDK hands notifications to its consumer on several threads, so their order here is
        // not the wire order; McpStreamingTest checks the order on the wire.
        assertEquals(List.of(0.0, 50.0, 100.0), progress.stream().map(McpSchema.ProgressNotification::progress)
                .sorted().toList());
        assertTrue(progress.stream().allMatch(p -> "sdk-1".equals(p.progressToken())));

        progress.clear();
        ToolError timedOut = ToolError.of(client.callTool(McpSchema.CallToolRequest.builder()
                .name("execute").arguments(Map.of("tool", "timed-count", "inputs", Map.of())).progressToken(7).build()));
        assertEquals("execution failed: statement timed out after 1s", timedOut.message());
        assertTrue(progress.size() >= 2, "a 1s call reports every 50ms: " + progress);
        assertEquals(progress.size(), progress.stream().map(McpSchema.ProgressNotification::progress).distinct().count(),
                "no progress value repeats: " + progress);
    }

    @Test
    void searchStructuredContentPassesTheSdksSchemaCheck() {
        client.listTools();
        McpSchema.CallToolResult found = client.callTool(new McpSchema.CallToolRequest("search",
                Map.of("query", "customer by id")));
        @SuppressWarnings("unchecked")
        Map<String, Object> structured = (Map<String, Object>) found.structuredContent();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> tools = (List<Map<String, Object>>) structured.get("tools");
        assertEquals("get-customer", tools.get(0).get("name"));
        assertEquals(new JsonObject(structured),
                new JsonObject(((McpSchema.TextContent) found.content().get(0)).text()));
    }

    @Test
    void toolErrorsOfTheFixturesAreResults() {
        McpSchema.CallToolResult failed = client.callTool(new McpSchema.CallToolRequest("test_error_handling", Map.of()));
        assertEquals(Boolean.TRUE, failed.isError());
    }

    @Test
    void aFailedProjectToolIsAResultTheSdkReturnsRatherThanThrows() {
        // what an agent loop hands its model: the reason, the stage and the tool
        assertEquals(new ToolError("input validation failed: validation error for field 'customer_id': expected int,"
                        + " got \"abc\"", -32000, "input_validation", "get-customer"),
                ToolError.of(execute("get-customer", Map.of("customer_id", "abc"))));
        assertEquals(new ToolError("tool not found: get-customers", -32601, "resolution", "get-customers"),
                ToolError.of(execute("get-customers", Map.of())));
        // so are execute's own arguments (MCP 2025-11-25: input validation is a tool error)
        assertEquals(new ToolError("execute: 'inputs' is required (use {} when the tool takes none)", -32602,
                "input_validation", "execute"), ToolError.of(client.callTool(new McpSchema.CallToolRequest("execute",
                Map.of("tool", "get-customer")))));
        // an unknown tools/call name stays a protocol error, which the SDK throws
        McpError unknown = assertThrows(McpError.class, () -> client.callTool(new McpSchema.CallToolRequest("nope",
                Map.of())));
        assertEquals(-32602, unknown.getJsonRpcError().code());
    }

    @Test
    void theSdksSamplingAndElicitationHandlersAnswerTheServersRequests() {
        McpSchema.CallToolResult sampled = McpSdk.call(client, "test_sampling", Map.of("prompt", "Say hi"));
        assertEquals("LLM response: Asked: Say hi (at most 100 tokens)",
                ((McpSchema.TextContent) sampled.content().get(0)).text());
        McpSchema.CallToolResult elicited = McpSdk.call(client, "test_elicitation", Map.of("message", "Who are you?"));
        String text = ((McpSchema.TextContent) elicited.content().get(0)).text();
        assertTrue(text.startsWith("User response: action=accept, content={"), text);
        assertTrue(text.contains("\"username\":\"sdk-user\"") && text.contains("\"email\":\"sdk@example.com\""), text);
    }

    private static McpSchema.CallToolResult execute(String tool, Map<String, Object> inputs) {
        return client.callTool(new McpSchema.CallToolRequest("execute", Map.of("tool", tool, "inputs", inputs)));
    }
}
