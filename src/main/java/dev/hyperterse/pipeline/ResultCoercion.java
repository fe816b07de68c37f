package dev.hyperterse.pipeline;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

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
        if (value == null) {
            return out;
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
                out.add(element instanceof JsonObject ? element : new JsonObject().put("value", element));
            }
            return out;
        }
        if (value instanceof JsonObject) {
            return out.add(value);
        }
        return out.add(new JsonObject().put("value", value));
    }
}
