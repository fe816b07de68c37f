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
 * {@code outputContent} ({@code output: content}) says the tool answers with MCP content (text,
 * images, audio, resources) rather than rows.
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
        boolean outputContent,
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

    /** A tool named {@code name} to build: its folder path is its name until set, everything else empty or off. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** This tool's values in a builder, to make a copy that differs in some. */
    public Builder toBuilder() {
        Builder b = new Builder(name);
        b.path = path;
        b.description = description;
        b.use = use;
        b.statement = statement;
        b.inputs = inputs;
        b.handler = handler;
        b.inputMapper = inputMapper;
        b.outputMapper = outputMapper;
        b.auth = auth;
        b.cache = cache;
        b.invalidates = invalidates;
        b.limits = limits;
        b.location = location;
        b.statementLocation = statementLocation;
        b.scriptEnv = scriptEnv;
        b.openInputs = openInputs;
        b.title = title;
        b.tags = tags;
        b.annotations = annotations;
        b.exposeScriptErrors = exposeScriptErrors;
        b.confirm = confirm;
        b.output = output;
        b.outputContent = outputContent;
        b.examples = examples;
        return b;
    }

    /**
     * Builds a {@link ToolDef}. Defaults: path = name, no description, statement, adapter,
     * scripts, auth or output; cache off; {@link Limits#DEFAULTS}; no location; script errors
     * exposed (as in Hyperterse); not confirmed.
     */
    public static final class Builder {
        private final String name;
        private String path;
        private String description = "";
        private String use;
        private String statement;
        private List<InputDef> inputs = List.of();
        private ScriptRef handler;
        private ScriptRef inputMapper;
        private ScriptRef outputMapper;
        private AuthDef auth;
        private CachePolicy cache = CachePolicy.OFF;
        private List<String> invalidates = List.of();
        private Limits limits = Limits.DEFAULTS;
        private SourceLocation location;
        private SourceLocation statementLocation;
        private List<String> scriptEnv = List.of();
        private boolean openInputs;
        private String title;
        private List<String> tags = List.of();
        private ToolAnnotations annotations = ToolAnnotations.NONE;
        private boolean exposeScriptErrors = true;
        private boolean confirm;
        private InputDef output;
        private boolean outputContent;
        private List<String> examples = List.of();

        private Builder(String name) {
            this.name = name;
            this.path = name;
        }

        public Builder path(String value) {
            path = value;
            return this;
        }

        public Builder description(String value) {
            description = value;
            return this;
        }

        /** A database tool: the adapter it runs on and its statement. */
        public Builder statement(String adapter, String text) {
            use = adapter;
            statement = text;
            return this;
        }

        /** A statement text without an adapter (a handler tool that carries one, as Hyperterse's "SELECT 1"). */
        public Builder statementText(String text) {
            statement = text;
            return this;
        }

        public Builder inputs(List<InputDef> value) {
            inputs = value;
            return this;
        }

        public Builder handler(ScriptRef value) {
            handler = value;
            return this;
        }

        public Builder mappers(ScriptRef input, ScriptRef output) {
            inputMapper = input;
            outputMapper = output;
            return this;
        }

        public Builder auth(AuthDef value) {
            auth = value;
            return this;
        }

        public Builder cache(CachePolicy value) {
            cache = value;
            return this;
        }

        public Builder invalidates(List<String> value) {
            invalidates = value;
            return this;
        }

        public Builder limits(Limits value) {
            limits = value;
            return this;
        }

        /** Where the tool is declared, and where its statement is (null: the same place). */
        public Builder location(SourceLocation at, SourceLocation statementAt) {
            location = at;
            statementLocation = statementAt;
            return this;
        }

        public Builder location(SourceLocation at) {
            return location(at, at);
        }

        public Builder scriptEnv(List<String> value) {
            scriptEnv = value;
            return this;
        }

        public Builder openInputs(boolean value) {
            openInputs = value;
            return this;
        }

        public Builder title(String value) {
            title = value;
            return this;
        }

        public Builder tags(List<String> value) {
            tags = value;
            return this;
        }

        public Builder annotations(ToolAnnotations value) {
            annotations = value;
            return this;
        }

        public Builder exposeScriptErrors(boolean value) {
            exposeScriptErrors = value;
            return this;
        }

        public Builder confirm(boolean value) {
            confirm = value;
            return this;
        }

        /** The declared shape of the rows a handler or output mapper returns. */
        public Builder output(InputDef value) {
            output = value;
            return this;
        }

        /** {@code output: content}: the tool answers with MCP content, not rows. */
        public Builder outputContent(boolean value) {
            outputContent = value;
            return this;
        }

        public Builder examples(List<String> value) {
            examples = value;
            return this;
        }

        public ToolDef build() {
            return new ToolDef(name, path, description, use, statement, inputs, handler, inputMapper, outputMapper,
                    auth, cache, invalidates, limits, location, statementLocation, scriptEnv, openInputs, title, tags,
                    annotations, exposeScriptErrors, confirm, output, outputContent, examples);
        }
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
