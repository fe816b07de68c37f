package dev.hyperterse.connector;

import io.vertx.core.json.JsonArray;

/**
 * Rows of one statement as JSON objects in column order, and whether the row limit cut them.
 */
public record QueryResult(JsonArray rows, boolean truncated) {
}
