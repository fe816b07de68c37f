package dev.hyperterse.model;

import java.util.List;
import java.util.Optional;

/**
 * A compiled tool. Exactly one of {@code use} (a database tool with a {@code statement}) and
 * {@code handler} (a script tool) is set. {@code path} is the tool folder relative to the tools
 * folder, given to scripts as {@code payload.tool}. Inputs keep their declaration order.
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
        boolean confirm) {

    public ToolDef {
        inputs = List.copyOf(inputs);
        invalidates = List.copyOf(invalidates);
        if (statementLocation == null) {
            statementLocation = location;
        }
        scriptEnv = List.copyOf(scriptEnv);
    }

    /** A tool that runs without asking the client to confirm first. */
    public ToolDef(String name, String path, String description, String use, String statement, List<InputDef> inputs,
                   ScriptRef handler, ScriptRef inputMapper, ScriptRef outputMapper, AuthDef auth, CachePolicy cache,
                   List<String> invalidates, Limits limits, SourceLocation location, SourceLocation statementLocation,
                   List<String> scriptEnv) {
        this(name, path, description, use, statement, inputs, handler, inputMapper, outputMapper, auth, cache,
                invalidates, limits, location, statementLocation, scriptEnv, false);
    }

    /** A tool whose statement position is not known beyond its file, and whose scripts see no environment. */
    public ToolDef(String name, String path, String description, String use, String statement, List<InputDef> inputs,
                   ScriptRef handler, ScriptRef inputMapper, ScriptRef outputMapper, AuthDef auth, CachePolicy cache,
                   List<String> invalidates, Limits limits, SourceLocation location) {
        this(name, path, description, use, statement, inputs, handler, inputMapper, outputMapper, auth, cache,
                invalidates, limits, location, location, List.of(), false);
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
