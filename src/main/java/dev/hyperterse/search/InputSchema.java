package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tool's inputs as one JSON Schema (draft 2020-12) object, the form MCP clients and models read:
 * types, nesting, constraints, descriptions and defaults. Hyperterse's lenient coercion (a numeric
 * string for an int) still applies at call time; the schema states what a well-formed call sends.
 * A datetime is a string (RFC 3339, {@code YYYY-MM-DD HH:MM:SS} or a date), so it carries no
 * {@code format}; date and uuid carry theirs.
 */
public final class InputSchema {
    public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    private InputSchema() {
    }

    public static JsonObject of(ToolDef tool) {
        JsonObject properties = new JsonObject();
        JsonArray required = new JsonArray();
        for (InputDef input : tool.inputs()) {
            properties.put(input.name(), of(input));
            if (!input.optional() && !input.hasDefault()) {
                required.add(input.name());
            }
        }
        JsonObject schema = new JsonObject().put("$schema", DIALECT).put("type", "object")
                .put("properties", properties);
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        // a handler with open inputs also takes fields it does not declare
        schema.put("additionalProperties", tool.openInputs());
        return schema;
    }

    /** One input, element or property. */
    public static JsonObject of(InputDef input) {
        return of(input, false);
    }

    /**
     * A declared output ({@code output:} of a tool file), or one of its elements or properties:
     * as an input, except that an optional property may also be null (a script writes a value it
     * does not have as null as often as it leaves it out).
     */
    public static JsonObject ofOutput(InputDef output) {
        return of(output, true);
    }

    private static JsonObject of(InputDef input, boolean output) {
        JsonObject schema = new JsonObject();
        InputType type = input.type();
        switch (type) {
            case STRING:
            case DATETIME:
                schema.put("type", "string");
                break;
            case DATE:
                schema.put("type", "string").put("format", "date");
                break;
            case UUID:
                schema.put("type", "string").put("format", "uuid");
                break;
            case INT:
                schema.put("type", "integer");
                break;
            case FLOAT:
                schema.put("type", "number");
                break;
            case BOOLEAN:
                schema.put("type", "boolean");
                break;
            case ARRAY:
                schema.put("type", "array");
                if (input.items() != null) {
                    schema.put("items", of(input.items(), output));
                }
                break;
            case OBJECT:
                schema.put("type", "object");
                if (!input.properties().isEmpty()) {
                    JsonObject properties = new JsonObject();
                    JsonArray required = new JsonArray();
                    for (InputDef p : input.properties()) {
                        JsonObject property = of(p, output);
                        properties.put(p.name(), output && p.optional() ? nullable(property) : property);
                        if (!p.optional() && !p.hasDefault()) {
                            required.add(p.name());
                        }
                    }
                    schema.put("properties", properties);
                    if (!required.isEmpty()) {
                        schema.put("required", required);
                    }
                    schema.put("additionalProperties", false);
                }
                break;
            default:
                throw new IllegalStateException(type.name());
        }
        if (input.description() != null && !input.description().isEmpty()) {
            schema.put("description", input.description());
        }
        Map<String, Object> rules = new LinkedHashMap<>();
        input.constraints().describeInto(rules);
        rules.forEach(schema::put);
        if (input.hasDefault()) {
            schema.put("default", input.defaultValue());
        }
        return schema;
    }

    /** The same schema that also lets null through. */
    private static JsonObject nullable(JsonObject schema) {
        schema.put("type", new JsonArray().add(schema.getString("type")).add("null"));
        JsonArray allowed = schema.getJsonArray("enum");
        if (allowed != null) {
            schema.put("enum", allowed.copy().addNull());
        }
        return schema;
    }
}
