package dev.hyperterse.testing;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;

import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The MCP Java SDK client as the end-to-end tests use it: a real client of the server's {@code /mcp}. */
public final class McpSdk {

    private McpSdk() {
    }

    /** An initialized client of {@code baseUrl}'s {@code /mcp}, named {@code junit 1.0}. */
    public static McpSyncClient connect(String baseUrl, Duration requestTimeout) {
        return connect(baseUrl, requestTimeout, spec -> spec);
    }

    /** The same, with more of the client's settings (its name, consumers) set by {@code more}. */
    public static McpSyncClient connect(String baseUrl, Duration requestTimeout, UnaryOperator<McpClient.SyncSpec> more) {
        McpSyncClient client = more.apply(McpClient.sync(HttpClientStreamableHttpTransport.builder(baseUrl)
                        .endpoint("/mcp").build())
                .requestTimeout(requestTimeout)
                .clientInfo(new McpSchema.Implementation("junit", "1.0")))
                .build();
        client.initialize();
        return client;
    }

    /** Closes the client gracefully, when there is one. */
    public static void close(McpSyncClient client) {
        if (client != null) {
            client.closeGracefully();
        }
    }

    /** Calls tool {@code name}; asserts the result is not a tool error. */
    public static McpSchema.CallToolResult call(McpSyncClient client, String name, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(name, arguments));
        assertFalse(Boolean.TRUE.equals(result.isError()), () -> "unexpected tool error: " + result);
        return result;
    }

    /** Runs {@code tool} through {@code execute}; asserts the result is not a tool error. */
    public static McpSchema.CallToolResult execute(McpSyncClient client, String tool, Map<String, Object> inputs) {
        return call(client, "execute", Map.of("tool", tool, "inputs", inputs));
    }

    /** Calls tool {@code name}; asserts the result is a tool error and returns it. */
    public static ToolError failure(McpSyncClient client, String name, Map<String, Object> arguments) {
        return ToolError.of(client.callTool(new McpSchema.CallToolRequest(name, arguments)));
    }

    /** Runs {@code tool} through {@code execute}; asserts the result is a tool error and returns it. */
    public static ToolError executeFailure(McpSyncClient client, String tool, Map<String, Object> inputs) {
        return failure(client, "execute", Map.of("tool", tool, "inputs", inputs));
    }

    /** The rows of a result: the text of its first content item, as a JSON array. */
    public static JsonArray firstRows(McpSchema.CallToolResult result) {
        return new JsonArray(((McpSchema.TextContent) result.content().get(0)).text());
    }

    /** The rows of a result that must have exactly one content item. */
    public static JsonArray rows(McpSchema.CallToolResult result) {
        assertEquals(1, result.content().size());
        return firstRows(result);
    }
}
