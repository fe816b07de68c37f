package dev.hyperterse.mcp;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code tools.parse_json_strings}: a string sent for an input declared {@code object} or
 * {@code array} that holds a JSON object or array is taken as that value, as models often send
 * such values stringified. Anything else is left as sent, for the input check to refuse by name.
 */
final class JsonStringInputs {

    private JsonStringInputs() {
    }

    /** The inputs with such strings read; the same object when none is. */
    static JsonObject parsed(ToolDef tool, JsonObject inputs) {
        JsonObject out = null;
        for (InputDef def : tool.inputs()) {
            if (def.type() != InputType.OBJECT && def.type() != InputType.ARRAY) {
                continue;
            }
            Object given = inputs.getValue(def.name());
            if (!(given instanceof String)) {
                continue;
            }
            String text = ((String) given).strip();
            if (!text.startsWith(def.type() == InputType.OBJECT ? "{" : "[")) {
                continue;
            }
            Object value;
            try {
                value = StrictJson.read(Buffer.buffer(text));
            } catch (DecodeException | StrictJson.RepeatedName e) {
                continue;
            }
            if (def.type() == InputType.OBJECT ? value instanceof JsonObject : value instanceof JsonArray) {
                if (out == null) {
                    out = inputs.copy();
                }
                out.put(def.name(), value);
            }
        }
        return out == null ? inputs : out;
    }
}
