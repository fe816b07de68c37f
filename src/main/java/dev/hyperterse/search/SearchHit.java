package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.ToolAnnotations;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One ranked tool. {@code rawScore} is the unrounded score in (0, 1] the ranking sorts by;
 * {@code relevanceScore} is what callers see, 1..100.
 */
public record SearchHit(String name, int relevanceScore, double rawScore, ToolDef tool) {

    /**
     * The hit as the {@code search} tool returns it. Keys are inserted in wire order (JsonObject
     * keeps insertion order): {@code name, relevance_score}, {@code title} (when set),
     * {@code description, statement} (database tools only, and only with {@code statements}:
     * {@code tools.search.statements}), {@code inputs}, then {@code any_inputs:
     * true} for a handler that takes whatever inputs the caller sends (it declares none). An input's
     * {@code description} appears only when non-empty and {@code default_value} only when it has a
     * default, as in Hyperterse. After Hyperterse's fields: {@code input_schema} (the inputs as one
     * JSON Schema 2020-12 object, nesting and constraints included), {@code tags} (when any) and
     * {@code annotations} (MCP's hints, when any is known).
     */
    public JsonObject toJson(boolean statements) {
        JsonObject json = new JsonObject()
                .put("name", name)
                .put("relevance_score", relevanceScore);
        if (tool.title() != null) {
            json.put("title", tool.title());
        }
        json.put("description", tool.description() == null ? "" : tool.description());
        if (statements && tool.isDatabaseTool()) {
            json.put("statement", tool.statement());
        }
        JsonArray inputs = new JsonArray();
        for (InputDef input : tool.inputs()) {
            JsonObject entry = new JsonObject()
                    .put("name", input.name())
                    .put("type", input.type().keyword())
                    .put("optional", input.optional());
            if (input.description() != null && !input.description().isEmpty()) {
                entry.put("description", input.description());
            }
            if (input.hasDefault()) {
                entry.put("default_value", input.defaultValue());
            }
            inputs.add(entry);
        }
        json.put("inputs", inputs);
        if (tool.takesAnyInputs()) {
            json.put("any_inputs", true);
        }
        json.put("input_schema", InputSchema.of(tool));
        if (!tool.tags().isEmpty()) {
            json.put("tags", new JsonArray(tool.tags()));
        }
        if (!tool.annotations().isEmpty()) {
            json.put("annotations", annotations(tool.annotations()));
        }
        return json;
    }

    /** The hints under MCP's names; unknown ones are left out. */
    public static JsonObject annotations(ToolAnnotations hints) {
        JsonObject out = new JsonObject();
        if (hints.readOnly() != null) {
            out.put("readOnlyHint", hints.readOnly());
        }
        if (hints.destructive() != null) {
            out.put("destructiveHint", hints.destructive());
        }
        if (hints.idempotent() != null) {
            out.put("idempotentHint", hints.idempotent());
        }
        if (hints.openWorld() != null) {
            out.put("openWorldHint", hints.openWorld());
        }
        return out;
    }
}
