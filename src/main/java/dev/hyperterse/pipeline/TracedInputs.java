package dev.hyperterse.pipeline;

import dev.hyperterse.model.Redaction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;

/**
 * A call's inputs as a span attribute ({@code observability.tracing.include_inputs}): values of
 * inputs whose names look secret are masked, text is redacted, and the whole is cut short.
 */
final class TracedInputs {
    static final int MAX_LENGTH = 2048;

    private TracedInputs() {
    }

    static String of(JsonObject inputs) {
        String text = masked(inputs).encode();
        return text.length() > MAX_LENGTH ? text.substring(0, MAX_LENGTH) + "…" : text;
    }

    private static JsonObject masked(JsonObject in) {
        JsonObject out = new JsonObject();
        for (Map.Entry<String, Object> e : in) {
            out.put(e.getKey(), Redaction.sensitiveName(e.getKey()) ? Redaction.MASK : value(e.getValue()));
        }
        return out;
    }

    private static Object value(Object v) {
        if (v instanceof JsonObject) {
            return masked((JsonObject) v);
        }
        if (v instanceof JsonArray) {
            JsonArray out = new JsonArray();
            ((JsonArray) v).forEach(item -> out.add(value(item)));
            return out;
        }
        if (v instanceof String) {
            return Redaction.secrets((String) v);
        }
        return v;
    }
}
