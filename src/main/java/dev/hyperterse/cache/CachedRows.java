package dev.hyperterse.cache;

import io.vertx.core.json.JsonArray;

/** A cached result: the rows and whether a row limit cut them. Treat as read-only. */
public record CachedRows(JsonArray rows, boolean truncated) {
}
