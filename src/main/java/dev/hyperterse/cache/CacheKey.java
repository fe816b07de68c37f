package dev.hyperterse.cache;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * What identifies a cached result: the tool, its statement template (so an edited statement
 * never serves old rows) and the bound values in order. Values are the coerced inputs (String,
 * Long, Double, Boolean, null, JSON arrays and objects) and claims, so equal calls give equal
 * keys. {@code caller} is set when the result depends on who called (a handler that sees the
 * caller's claims).
 *
 * <p>Arrays and objects are kept as their JSON text: Vert.x's JSON equality compares numbers by
 * their double value ({@code [9007199254740993]} equals {@code [9007199254740992.0]}), which would
 * serve one input's rows for another.
 */
public record CacheKey(String tool, String statement, List<Object> values, String caller) {
    public CacheKey {
        List<Object> exact = new java.util.ArrayList<>(values.size());
        for (Object value : values) {
            exact.add(value instanceof JsonObject || value instanceof JsonArray || value instanceof Map
                    || value instanceof List ? new JsonText(Json.encode(value)) : value);
        }
        values = java.util.Collections.unmodifiableList(exact);
    }

    /**
     * About what the key holds, in bytes: its texts by length and a fixed amount per other value.
     * An entry weighs its key as well as its rows, since a key holds what the caller sent.
     */
    public long bytes() {
        long bytes = tool.length() + (long) statement.length() + (caller == null ? 0 : caller.length());
        for (Object value : values) {
            bytes += value instanceof String ? ((String) value).length()
                    : value instanceof JsonText ? ((JsonText) value).encoded().length() : VALUE_BYTES;
        }
        return bytes;
    }

    /** A number, a boolean or a null in a key, with its slot. */
    private static final int VALUE_BYTES = 16;

    /** A structured value by its encoding, never equal to a string value with the same text. */
    private record JsonText(String encoded) {
    }
}
