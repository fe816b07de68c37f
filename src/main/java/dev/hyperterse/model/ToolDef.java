package dev.hyperterse.model;

import java.util.List;
import java.util.Optional;

/**
 * A compiled tool, its parts grouped by concern: how it is shown ({@link Presentation}), what runs
 * ({@link Body}: a statement on an adapter or a script handler), what it takes and gives
 * ({@link Signature}), the scripts around it ({@link Scripts}), what guards and bounds it
 * ({@link Policy}) and where it is declared ({@link Source}). {@code path} is the tool folder
 * relative to the tools folder, given to scripts as {@code payload.tool}.
 *
 * <p>The accessors below the components ({@link #statement()}, {@link #auth()}, {@link #inputs()},
 * …) read one value of a group each, for code that needs one fact rather than a concern.
 */
public record ToolDef(String name, String path, Presentation presentation, Body body, Signature signature,
                      Scripts scripts, Policy policy, Source source) {

    /**
     * How the tool is shown to clients and search. {@code title} is null when unset; {@code annotations}
     * are declared hints over inferred ones; {@code examples} are intents its author expects an agent to
     * phrase ("which orders are late"), searched with the tool.
     */
    public record Presentation(String description, String title, List<String> tags, ToolAnnotations annotations,
                               List<String> examples) {
        public Presentation {
            tags = tags == null ? List.of() : List.copyOf(tags);
            examples = examples == null ? List.of() : List.copyOf(examples);
            annotations = annotations == null ? ToolAnnotations.NONE : annotations;
        }
    }

    /** What a call runs: exactly one of a statement on an adapter and a script handler. */
    public sealed interface Body permits Statement, Handler {
    }

    /**
     * A database tool's statement on the adapter named {@code adapter}. A tool built by hand may have
     * neither (both null): it then runs nothing and only describes itself.
     */
    public record Statement(String adapter, String text) implements Body {
    }

    /**
     * A script tool's handler. {@code statementText} is a statement the tool carries without running it
     * (Hyperterse projects give some handler tools one, such as {@code SELECT 1}), or null.
     */
    public record Handler(ScriptRef script, String statementText) implements Body {
        public Handler {
            java.util.Objects.requireNonNull(script, "script");
        }
    }

    /**
     * What the tool takes and gives. Inputs keep their declaration order. {@code open} marks a handler
     * tool that takes the caller's inputs as Hyperterse does: declared ones are checked and coerced,
     * undeclared ones pass through unchanged, and a missing required one is left for the handler to
     * decide on. {@code output} is the declared shape of a handler's result (or of an output mapper's),
     * null when the tool declares none: an {@code object} (each row) or an {@code array} (of rows), as an
     * input-like declaration. {@code content} ({@code output: content}) says the tool answers with MCP
     * content (text, images, audio, resources) rather than rows.
     */
    public record Signature(List<InputDef> inputs, boolean open, InputDef output, boolean content) {
        public Signature {
            inputs = List.copyOf(inputs);
        }
    }

    /**
     * The scripts around a call: the input and output mappers (null when absent), the environment
     * variables they (and the handler) may read, and whether a caller sees the message of an exception
     * they throw that is not a {@code ToolError} ({@code tools.expose_script_errors}).
     */
    public record Scripts(ScriptRef inputMapper, ScriptRef outputMapper, List<String> env, boolean exposeErrors) {
        public Scripts {
            env = List.copyOf(env);
        }
    }

    /**
     * What guards and bounds a call: its auth (null: the project's default), result cache, the tools
     * whose cached results a call clears, limits, and whether the user must confirm each call.
     */
    public record Policy(AuthDef auth, CachePolicy cache, List<String> invalidates, Limits limits, boolean confirm) {
        public Policy {
            invalidates = List.copyOf(invalidates);
        }
    }

    /** Where the tool is declared, and where its statement is (the same place when it has none of its own). */
    public record Source(SourceLocation location, SourceLocation statementLocation) {
        public Source {
            if (statementLocation == null) {
                statementLocation = location;
            }
        }
    }

    public ToolDef {
        java.util.Objects.requireNonNull(presentation, "presentation");
        java.util.Objects.requireNonNull(body, "body");
        java.util.Objects.requireNonNull(signature, "signature");
        java.util.Objects.requireNonNull(scripts, "scripts");
        java.util.Objects.requireNonNull(policy, "policy");
        java.util.Objects.requireNonNull(source, "source");
    }

    /** A tool named {@code name} to build: its folder path is its name until set, everything else empty or off. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** This tool's values in a builder, to make a copy that differs in some. */
    public Builder toBuilder() {
        Builder b = new Builder(name);
        b.path = path;
        b.description = presentation.description();
        b.title = presentation.title();
        b.tags = presentation.tags();
        b.annotations = presentation.annotations();
        b.examples = presentation.examples();
        b.use = use();
        b.statement = statement();
        b.handler = handler();
        b.inputs = signature.inputs();
        b.openInputs = signature.open();
        b.output = signature.output();
        b.outputContent = signature.content();
        b.inputMapper = scripts.inputMapper();
        b.outputMapper = scripts.outputMapper();
        b.scriptEnv = scripts.env();
        b.exposeScriptErrors = scripts.exposeErrors();
        b.auth = policy.auth();
        b.cache = policy.cache();
        b.invalidates = policy.invalidates();
        b.limits = policy.limits();
        b.confirm = policy.confirm();
        b.location = source.location();
        b.statementLocation = source.statementLocation();
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
            Body body = handler != null ? new Handler(handler, statement) : new Statement(use, statement);
            return new ToolDef(name, path, new Presentation(description, title, tags, annotations, examples), body,
                    new Signature(inputs, openInputs, output, outputContent),
                    new Scripts(inputMapper, outputMapper, scriptEnv, exposeScriptErrors),
                    new Policy(auth, cache, invalidates, limits, confirm), new Source(location, statementLocation));
        }
    }

    /** The description shown to clients and searched. */
    public String description() {
        return presentation.description();
    }

    /** The display title, or null when unset. */
    public String title() {
        return presentation.title();
    }

    public List<String> tags() {
        return presentation.tags();
    }

    public ToolAnnotations annotations() {
        return presentation.annotations();
    }

    public List<String> examples() {
        return presentation.examples();
    }

    /** The adapter a database tool runs on, or null for a script tool. */
    public String use() {
        return body instanceof Statement s ? s.adapter() : null;
    }

    /** The tool's statement: the one a database tool runs, or the one a handler tool carries; null when none. */
    public String statement() {
        if (body instanceof Statement s) {
            return s.text();
        }
        return ((Handler) body).statementText();
    }

    /** A script tool's handler, or null for a database tool. */
    public ScriptRef handler() {
        return body instanceof Handler h ? h.script() : null;
    }

    public List<InputDef> inputs() {
        return signature.inputs();
    }

    public boolean openInputs() {
        return signature.open();
    }

    public InputDef output() {
        return signature.output();
    }

    public boolean outputContent() {
        return signature.content();
    }

    public ScriptRef inputMapper() {
        return scripts.inputMapper();
    }

    public ScriptRef outputMapper() {
        return scripts.outputMapper();
    }

    public List<String> scriptEnv() {
        return scripts.env();
    }

    public boolean exposeScriptErrors() {
        return scripts.exposeErrors();
    }

    public AuthDef auth() {
        return policy.auth();
    }

    public CachePolicy cache() {
        return policy.cache();
    }

    public List<String> invalidates() {
        return policy.invalidates();
    }

    public Limits limits() {
        return policy.limits();
    }

    public boolean confirm() {
        return policy.confirm();
    }

    public SourceLocation location() {
        return source.location();
    }

    public SourceLocation statementLocation() {
        return source.statementLocation();
    }

    /** The description a tool that writes none is given (Hyperterse's). */
    public static String generatedDescription(String name) {
        return "Tool generated from app tool: " + name;
    }

    /** Whether the tool's author wrote no description (it has the generated one). */
    public boolean describedByNoOne() {
        return description() == null || description().equals(generatedDescription(name));
    }

    /** True when any input the caller sends reaches the handler: a handler tool with open inputs that declares none. */
    public boolean takesAnyInputs() {
        return signature.open() && signature.inputs().isEmpty();
    }

    public boolean isDatabaseTool() {
        return use() != null;
    }

    public Optional<InputDef> input(String inputName) {
        for (InputDef def : signature.inputs()) {
            if (def.name().equals(inputName)) {
                return Optional.of(def);
            }
        }
        return Optional.empty();
    }
}
