package dev.hyperterse.testing;

import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A failed tool call as {@code server.tool_errors: result} (the default) answers it: a result with
 * {@code isError: true} and one text block holding {@code {"error", "code", "stage", "tool"?}}.
 *
 * @param tool null when the failure named no tool
 */
public record ToolError(String message, int code, String stage, String tool) {

    /** The tool error a JSON-RPC answer carries; asserts the answer is a result with {@code isError: true}. */
    public static ToolError ofAnswer(JsonObject answer) {
        assertNull(answer.getValue("error"), () -> "a tool failure is a result, not a JSON-RPC error: " + answer.encode());
        JsonObject result = answer.getJsonObject("result");
        assertNotNull(result, answer::encode);
        return ofResult(result);
    }

    /** The tool error of a CallToolResult; asserts it has {@code isError: true} and one text block of the failure. */
    public static ToolError ofResult(JsonObject result) {
        assertEquals(Boolean.TRUE, result.getValue("isError"), result::encode);
        JsonArray content = result.getJsonArray("content");
        assertEquals(1, content.size(), result::encode);
        assertEquals("text", content.getJsonObject(0).getString("type"), result::encode);
        assertNull(result.getValue("structuredContent"), result::encode);
        return parse(content.getJsonObject(0).getString("text"));
    }

    /** The tool error of a CallToolResult as the MCP Java SDK client reads it. */
    public static ToolError of(McpSchema.CallToolResult result) {
        assertEquals(Boolean.TRUE, result.isError(), result::toString);
        assertEquals(1, result.content().size(), result::toString);
        return parse(((McpSchema.TextContent) result.content().get(0)).text());
    }

    private static ToolError parse(String text) {
        JsonObject error = new JsonObject(text);
        return new ToolError(error.getString("error"), error.getInteger("code"), error.getString("stage"),
                error.getString("tool"));
    }
}
