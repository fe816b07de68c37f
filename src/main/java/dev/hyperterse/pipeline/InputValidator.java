package dev.hyperterse.pipeline;

import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputValueException;
import dev.hyperterse.model.PatternBudget;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a call's inputs against the tool's declarations and coerces them to their types:
 * unknown fields and missing required inputs are errors, defaults fill gaps, and an optional
 * input with no default becomes null (bound as SQL NULL). A tool with open inputs (a handler tool
 * unless {@code tools.strict_handler_inputs} is set) still gets its declared inputs checked and
 * coerced, but undeclared fields pass through unchanged after them and a missing required input
 * is simply absent: the handler decides what it means, as in Hyperterse. A value that breaks a
 * rule is reported with the field, where inside it the problem is and the rule:
 * {@code validation error for field 'ids': inputs.ids[3]: must be ≤ 1000 (maximum), got 1001}.
 */
public final class InputValidator {

    private InputValidator() {
    }

    /**
     * Characters of caller text from which a call to a tool with {@code pattern} rules is checked
     * on a worker rather than the event loop: pattern matching may read each character many times
     * (within {@link PatternBudget#PER_CALL} for the call), and a few milliseconds are already too
     * long to hold a loop that serves every other caller.
     */
    static final int PATTERN_TEXT_ON_WORKER = 1024;

    /**
     * Whether checking these inputs may take long enough to belong on a worker: the tool has a
     * {@code pattern} rule somewhere in its inputs, and the inputs that have one carry more than
     * {@link #PATTERN_TEXT_ON_WORKER} characters of text. Reads them only up to that count.
     */
    public static boolean heavy(ToolDef tool, Map<String, ?> inputs) {
        long wanted = PATTERN_TEXT_ON_WORKER;
        for (InputDef def : tool.inputs()) {
            Object value = inputs.get(def.name());
            if (value != null && patterned(def)) {
                wanted = textAtLeast(List.of(value), wanted);
                if (wanted <= 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean patterned(InputDef def) {
        if (def.constraints().pattern() != null || (def.items() != null && patterned(def.items()))) {
            return true;
        }
        for (InputDef p : def.properties()) {
            if (patterned(p)) {
                return true;
            }
        }
        return false;
    }

    /** {@code wanted} less the characters of text in the values, stopping once it reaches 0. */
    private static long textAtLeast(Iterable<?> values, long wanted) {
        for (Object v : values) {
            if (wanted <= 0) {
                break;
            }
            if (v instanceof String) {
                wanted -= ((String) v).length();
            } else if (v instanceof JsonArray || v instanceof List) {
                wanted = textAtLeast(v instanceof JsonArray ? ((JsonArray) v).getList() : (List<?>) v, wanted);
            } else if (v instanceof JsonObject || v instanceof Map) {
                Map<?, ?> map = v instanceof JsonObject ? ((JsonObject) v).getMap() : (Map<?, ?>) v;
                wanted = textAtLeast(map.values(), wanted);
            }
        }
        return wanted;
    }

    /** @return the coerced inputs in declaration order */
    public static Map<String, Object> validate(ToolDef tool, JsonObject inputs) {
        if (!tool.openInputs()) {
            for (String key : inputs.fieldNames()) {
                if (tool.input(key).isEmpty()) {
                    throw failure(tool, "unknown input field '" + CallerText.cut(key) + "'");
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        PatternBudget budget = PatternBudget.forCall();
        for (InputDef def : tool.inputs()) {
            Object raw = inputs.getValue(def.name());
            if (raw == null) {
                if (def.hasDefault()) {
                    out.put(def.name(), json(def.defaultValue()));
                } else if (def.optional()) {
                    out.put(def.name(), null);
                } else if (!tool.openInputs()) {
                    throw failure(tool, "required input '" + def.name() + "' is missing");
                } else if (inputs.containsKey(def.name())) {
                    out.put(def.name(), null);
                }
                continue;
            }
            try {
                out.put(def.name(), json(def.coerce(plain(raw), budget)));
            } catch (InputValueException e) {
                throw failure(tool, "validation error for field '" + def.name() + "': "
                        + (e.position().isEmpty() ? "" : "inputs." + def.name() + e.position() + ": ")
                        + e.getMessage());
            }
        }
        if (tool.openInputs()) {
            for (Map.Entry<String, Object> field : inputs) {
                if (tool.input(field.getKey()).isEmpty()) {
                    out.put(field.getKey(), field.getValue());
                }
            }
        }
        return out;
    }

    /**
     * Arrays and objects leave validation as Vert.x JSON, the form every connector binds (a
     * PostgreSQL array or jsonb parameter, JSON text elsewhere) and scripts receive.
     */
    @SuppressWarnings("unchecked")
    private static Object json(Object value) {
        if (value instanceof List) {
            return new JsonArray((List<Object>) value);
        }
        if (value instanceof Map) {
            return new JsonObject((Map<String, Object>) value);
        }
        return value;
    }

    /** Vert.x wraps nested JSON; coercion speaks plain maps and lists. */
    private static Object plain(Object raw) {
        if (raw instanceof JsonObject) {
            return ((JsonObject) raw).getMap();
        }
        if (raw instanceof JsonArray) {
            return ((JsonArray) raw).getList();
        }
        return raw;
    }

    private static ToolException failure(ToolDef tool, String why) {
        return new ToolException(Stage.INPUT_VALIDATION, tool.name(), "input validation failed: " + why);
    }
}
