package dev.hyperterse.pipeline;

import dev.hyperterse.model.BoundedText;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.Redaction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * A call's inputs as a span attribute ({@code observability.tracing.include_inputs}): values of
 * inputs whose names look secret are masked, text is redacted, and the whole is cut short. It is
 * built on the event loop before the inputs are validated, so it reads a bounded part of them
 * whatever the caller sent: at most {@link #MAX_VALUES} values, names cut like other caller
 * names, each string cut to {@link #VALUE_CHARS} (saying so) before it is redacted.
 */
final class TracedInputs {
    static final int MAX_LENGTH = 2048;
    static final int VALUE_CHARS = 256;
    /** Object members and array items read, at any depth; the rest is left out, saying how many. */
    static final int MAX_VALUES = 64;
    /** Stands for what was left out. */
    static final String MORE = "…";

    private TracedInputs() {
    }

    static String of(JsonObject inputs) {
        String text = masked(inputs, new int[] {MAX_VALUES}).encode();
        return BoundedText.cut(text, MAX_LENGTH);
    }

    /**
     * Whether the web console may keep these inputs as they are until it shows them
     * ({@link ConsoleCall}): at most {@link #MAX_VALUES} values, names and strings of at most
     * {@link #VALUE_CHARS} characters, numbers of a fixed size, so that keeping them holds no
     * more than their text would.
     */
    static boolean small(JsonObject inputs) {
        return small(inputs.getMap(), new int[] {MAX_VALUES});
    }

    private static boolean small(Object v, int[] budget) {
        if (v instanceof JsonObject) {
            return small(((JsonObject) v).getMap(), budget);
        }
        if (v instanceof JsonArray) {
            return small(((JsonArray) v).getList(), budget);
        }
        if (v instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (budget[0]-- <= 0 || !(e.getKey() instanceof String)
                        || ((String) e.getKey()).length() > VALUE_CHARS || !small(e.getValue(), budget)) {
                    return false;
                }
            }
            return true;
        }
        if (v instanceof List) {
            for (Object item : (List<?>) v) {
                if (budget[0]-- <= 0 || !small(item, budget)) {
                    return false;
                }
            }
            return true;
        }
        if (v instanceof String) {
            return ((String) v).length() <= VALUE_CHARS;
        }
        return v == null || v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Double
                || v instanceof Float || v instanceof Short || v instanceof Byte;
    }

    private static JsonObject masked(JsonObject in, int[] budget) {
        JsonObject out = new JsonObject();
        int left = in.size();
        for (Map.Entry<String, Object> e : in) {
            if (budget[0]-- <= 0) {
                out.put(MORE, left + " more not traced");
                break;
            }
            left--;
            String name = CallerText.cut(e.getKey());
            out.put(name, Redaction.sensitiveName(name) ? Redaction.MASK : value(e.getValue(), budget));
        }
        return out;
    }

    private static Object value(Object v, int[] budget) {
        if (v instanceof JsonObject) {
            return masked((JsonObject) v, budget);
        }
        if (v instanceof JsonArray) {
            JsonArray in = (JsonArray) v;
            JsonArray out = new JsonArray();
            int left = in.size();
            for (Object item : in) {
                if (budget[0]-- <= 0) {
                    out.add(MORE + " " + left + " more not traced");
                    break;
                }
                left--;
                out.add(value(item, budget));
            }
            return out;
        }
        if (v instanceof String) {
            return Redaction.secrets((String) v, VALUE_CHARS);
        }
        return v;
    }
}
