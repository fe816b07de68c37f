package dev.hyperterse.pipeline;

import dev.hyperterse.model.ResultCut;
import io.vertx.core.json.JsonArray;

/**
 * The rows a tool produced after every stage, whether one of its caps cut them, and the caps.
 *
 * @param rowLimit  the tool's row limit
 * @param byteLimit the tool's result size limit in bytes ({@code result_max_bytes})
 */
public record ToolResult(JsonArray rows, ResultCut cut, int rowLimit, long byteLimit) {

    public boolean truncated() {
        return cut != ResultCut.NONE;
    }
}
