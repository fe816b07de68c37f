package dev.hyperterse.pipeline;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Turns whatever a script returned into rows: null → {@code []}; an array → its elements, with
 * non-objects wrapped as {@code {"value": x}}; an object → {@code [obj]}; a scalar →
 * {@code [{"value": x}]}.
 */
public final class ResultCoercion {

    private ResultCoercion() {
    }

    public static JsonArray rows(Object value) {
        JsonArray out = new JsonArray();
        eachRow(value, row -> {
            out.add(row);
            return true;
        });
        return out;
    }

    /**
     * Hands the rows {@link #rows} makes to {@code take} one at a time, and stops at the first
     * it refuses: a caller keeping only the rows that fit converts no more than those, however
     * many values a script returned.
     */
    public static void eachRow(Object value, Predicate<Object> take) {
        if (value == null) {
            return;
        }
        if (value instanceof List) {
            value = new JsonArray((List<?>) value);
        } else if (value instanceof Map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) value;
            value = new JsonObject(map);
        }
        if (value instanceof JsonArray) {
            for (Object element : (JsonArray) value) {
                if (!take.test(element instanceof JsonObject ? element : new JsonObject().put("value", element))) {
                    return;
                }
            }
            return;
        }
        take.test(value instanceof JsonObject ? value : new JsonObject().put("value", value));
    }
}
