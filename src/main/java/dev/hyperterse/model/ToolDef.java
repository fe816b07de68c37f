package dev.hyperterse.model;

import java.util.List;
import java.util.Optional;

/**
 * A compiled tool. Exactly one of {@code use} (a database tool with a {@code statement}) and
 * {@code handler} (a script tool) is set. {@code path} is the tool folder relative to the tools
 * folder, given to scripts as {@code payload.tool}. Inputs keep their declaration order.
 * {@code openInputs} marks a handler tool that takes the caller's inputs as Hyperterse does: declared
 * ones are checked and coerced, undeclared ones pass through unchanged, and a missing required one is
 * left for the handler to decide on. {@code title} (null when unset), {@code tags} and
 * {@code annotations} (declared hints over inferred ones) describe the tool to clients and search.
 * {@code exposeScriptErrors} ({@code tools.expose_script_errors}) says whether a caller sees the
 * message of an exception its scripts throw that is not a {@code ToolError}. {@code output} is the
 * declared shape of a handler's result (or of an output mapper's), null when the tool declares
 * none: an {@code object} (each row) or an {@code array} (of rows), as an input-like declaration.
 * {@code examples} are intents its author expects an agent to phrase ("which orders are late"),
 * searched with the tool; empty when none are written.
 */
public record ToolDef(
        String name,
        String path,
        String description,
        String use,
        String statement,
        List<InputDef> inputs,
        ScriptRef handler,
        ScriptRef inputMapper,
        ScriptRef outputMapper,
        AuthDef auth,
        CachePolicy cache,
        List<String> invalidates,
        Limits limits,
        SourceLocation location,
        SourceLocation statementLocation,
        List<String> scriptEnv,
        boolean openInputs,
        String title,
        List<String> tags,
        ToolAnnotations annotations,
        boolean exposeScriptErrors,
        boolean confirm,
        InputDef output,
        List<String> examples) {

    public ToolDef {
        tags = tags == null ? List.of() : List.copyOf(tags);
        examples = examples == null ? List.of() : List.copyOf(examples);
        annotations = annotations == null ? ToolAnnotations.NONE : annotations;
        inputs = List.copyOf(inputs);
        invalidates = List.copyOf(invalidates);
        if (statementLocation == null) {
            statementLocation = location;
        }
        scriptEnv = List.copyOf(scriptEnv);
    }

    /** A tool that declares no output. */
    public ToolDef(String name, String path, String description, String use, String statement, List<InputDef> inputs,
                   ScriptRef handler, ScriptRef inputMapper, ScriptRef outputMapper, AuthDef auth, CachePolicy cache,
                   List<String> invalidates, Limits limits, SourceLocation location, SourceLocation statementLocation,
                   List<String> scriptEnv, boolean openInputs, String title, List<String> tags,
                   ToolAnnotations annotations, boolean exposeScriptErrors, boolean confirm) {
        this(name, path, description, use, statement, inputs, handler, inputMapper, outputMapper, auth, cache,
                invalidates, limits, location, statementLocation, scriptEnv, openInputs, title, tags, annotations,
                exposeScriptErrors, confirm, null, List.of());
    }

    /** A tool with no title, tags or annotations (Hyperterse's model). */
    public ToolDef(String name, String path, String description, String use, String statement, List<InputDef> inputs,
                   ScriptRef handler, ScriptRef inputMapper, ScriptRef outputMapper, AuthDef auth, CachePolicy cache,
                   List<String> invalidates, Limits limits, SourceLocation location, SourceLocation statementLocation,
                   List<String> scriptEnv, boolean openInputs) {
        this(name, path, description, use, statement, inputs, handler, inputMapper, outputMapper, auth, cache,
                invalidates, limits, location, statementLocation, scriptEnv, openInputs, null, List.of(),
                ToolAnnotations.NONE, true, false);
    }

    /** A tool whose statement position is not known beyond its file, and whose scripts see no environment. */
    public ToolDef(String name, String path, String description, String use, String statement, List<InputDef> inputs,
                   ScriptRef handler, ScriptRef inputMapper, ScriptRef outputMapper, AuthDef auth, CachePolicy cache,
                   List<String> invalidates, Limits limits, SourceLocation location) {
        this(name, path, description, use, statement, inputs, handler, inputMapper, outputMapper, auth, cache,
                invalidates, limits, location, location, List.of(), false);
    }

    /** A tool whose inputs are checked strictly: unknown fields and missing required inputs are errors. */
    public ToolDef(String name, String path, String description, String use, String statement, List<InputDef> inputs,
                   ScriptRef handler, ScriptRef inputMapper, ScriptRef outputMapper, AuthDef auth, CachePolicy cache,
                   List<String> invalidates, Limits limits, SourceLocation location, SourceLocation statementLocation,
                   List<String> scriptEnv) {
        this(name, path, description, use, statement, inputs, handler, inputMapper, outputMapper, auth, cache,
                invalidates, limits, location, statementLocation, scriptEnv, false);
    }

    /** The description a tool that writes none is given (Hyperterse's). */
    public static String generatedDescription(String name) {
        return "Tool generated from app tool: " + name;
    }

    /** Whether the tool's author wrote no description (it has the generated one). */
    public boolean describedByNoOne() {
        return description == null || description.equals(generatedDescription(name));
    }

    /** True when any input the caller sends reaches the handler: a handler tool with open inputs that declares none. */
    public boolean takesAnyInputs() {
        return openInputs && inputs.isEmpty();
    }

    public boolean isDatabaseTool() {
        return use != null;
    }

    public Optional<InputDef> input(String inputName) {
        for (InputDef def : inputs) {
            if (def.name().equals(inputName)) {
                return Optional.of(def);
            }
        }
        return Optional.empty();
    }
}
