package dev.hyperterse.pipeline;

import dev.hyperterse.model.ResultCut;
import io.vertx.core.json.JsonArray;

/**
 * The rows a tool produced after every stage, whether one of its caps cut them, and the caps.
 *
 * @param rowLimit  the tool's row limit
 * @param byteLimit the tool's result size limit in bytes ({@code result_max_bytes})
 * @param outputMismatch why the rows do not fit the output shape described from the tool's
 *                       database ({@link OutputShape#mismatch}), or null when they do or the tool
 *                       has none (a declared shape that does not fit fails the call instead)
 * @param content   the MCP content blocks a script answered with instead of rows (then
 *                  {@code rows} is empty), or null for rows
 */
public record ToolResult(JsonArray rows, ResultCut cut, int rowLimit, long byteLimit, String outputMismatch,
                         JsonArray content) {

    public ToolResult(JsonArray rows, ResultCut cut, int rowLimit, long byteLimit) {
        this(rows, cut, rowLimit, byteLimit, null, null);
    }

    public ToolResult(JsonArray rows, ResultCut cut, int rowLimit, long byteLimit, String outputMismatch) {
        this(rows, cut, rowLimit, byteLimit, outputMismatch, null);
    }

    public boolean truncated() {
        return cut != ResultCut.NONE;
    }

    /** True when the result is MCP content rather than rows. */
    public boolean isContent() {
        return content != null;
    }
}
