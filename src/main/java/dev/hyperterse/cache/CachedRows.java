package dev.hyperterse.cache;

import dev.hyperterse.model.ResultCut;
import io.vertx.core.json.JsonArray;

/**
 * A cached result: the rows and whether a cap cut them, or, for a tool that answers with MCP
 * content, the content blocks ({@code content} non-null, {@code rows} empty). Only results
 * already held to the tool's caps are stored, so an entry is never larger than the tool's
 * {@code result_max_bytes}. Treat as read-only.
 */
public record CachedRows(JsonArray rows, ResultCut cut, JsonArray content) {

    /** Rows, as every database tool and most handlers answer. */
    public CachedRows(JsonArray rows, ResultCut cut) {
        this(rows, cut, null);
    }
}
