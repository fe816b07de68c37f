package dev.hyperterse.pipeline;

import io.vertx.core.json.JsonArray;

/**
 * The rows a tool produced after every stage, and whether a row limit cut them.
 */
public record ToolResult(JsonArray rows, boolean truncated, int rowLimit) {
}
