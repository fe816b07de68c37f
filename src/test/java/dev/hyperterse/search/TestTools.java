package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolDef;

import java.nio.file.Path;
import java.util.List;

/** Builds tool definitions the way the project loader would, with only what ranking reads set. */
final class TestTools {

    private TestTools() {
    }

    static ToolDef db(String name, String description, String statement, InputDef... inputs) {
        return ToolDef.builder(name).description(description).statement("primary-db", statement)
                .inputs(List.of(inputs)).location(location(name)).build();
    }

    static ToolDef handler(String name, String description, InputDef... inputs) {
        return handlerWithStatement(name, description, null, inputs);
    }

    /** A handler tool that still carries a statement text, as Hyperterse's synthetic "SELECT 1". */
    static ToolDef handlerWithStatement(String name, String description, String statement, InputDef... inputs) {
        ScriptRef script = new ScriptRef(Path.of("app/tools", name, "handler.ts"), "default", location(name));
        return ToolDef.builder(name).description(description).statementText(statement).inputs(List.of(inputs))
                .handler(script).location(location(name)).build();
    }

    /** The description the loader gives a tool that declares none. */
    static String defaultDescription(String name) {
        return "Tool generated from app tool: " + name;
    }

    static InputDef input(String name, InputType type, String description) {
        return new InputDef(name, type, description, false, false, null, location(name));
    }

    static InputDef optionalInput(String name, InputType type, String description, Object defaultValue) {
        return new InputDef(name, type, description, true, true, defaultValue, location(name));
    }

    private static SourceLocation location(String name) {
        return new SourceLocation(Path.of("app/tools", name, "config.terse"), 1);
    }
}
