package dev.hyperterse.mcp;

import io.vertx.core.json.JsonArray;

/**
 * A JSON array whose JSON text was already written once (a tool's rows, encoded for the text
 * block of its answer), so the answer's {@code structuredContent} copies that text instead of
 * encoding the rows a second time ({@link AnswerJson}). It is the same array otherwise: it shares
 * the rows' list, and everything else reads it as the {@link JsonArray} it is.
 */
final class EncodedJsonArray extends JsonArray {
    /** The array's JSON, or null when it cannot be copied byte for byte (see {@link #of}). */
    private final String json;

    private EncodedJsonArray(JsonArray array, String json) {
        super(array.getList());
        this.json = json;
    }

    /**
     * {@code array}, known to encode as {@code json} ({@link JsonArray#encode()}). A text holding
     * characters outside the Basic Multilingual Plane is not kept: the answer's encoder writes
     * those as {@code \\u} escapes where {@code encode()} keeps them, so it encodes such rows itself.
     */
    static JsonArray of(JsonArray array, String json) {
        for (int i = 0; i < json.length(); i++) {
            if (Character.isSurrogate(json.charAt(i))) {
                return array;
            }
        }
        return new EncodedJsonArray(array, json);
    }

    /** The JSON text, as {@link JsonArray#encode()} wrote it. */
    String json() {
        return json;
    }
}
