package dev.hyperterse.connector;

import dev.hyperterse.model.ResultCut;
import io.vertx.core.json.JsonArray;

/**
 * Rows of one statement as JSON objects in column order, and whether (and by which cap) they
 * were cut.
 */
public record QueryResult(JsonArray rows, ResultCut cut) {

    public boolean truncated() {
        return cut != ResultCut.NONE;
    }
}
