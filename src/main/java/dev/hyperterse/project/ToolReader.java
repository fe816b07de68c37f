package dev.hyperterse.project;

import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.CachePolicy;
import dev.hyperterse.model.InputConstraints;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.InputValueException;
import dev.hyperterse.model.Limits;
import dev.hyperterse.model.Placeholders;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolAnnotations;
import dev.hyperterse.model.ToolDef;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Reads one tool file ({@code app/tools/**}{@code /config.terse}); unknown keys are errors. */
final class ToolReader {
    static final List<String> KEYS = List.of("name", "description", "use", "statement", "inputs", "handler",
            "mappers", "auth", "cache", "row_limit", "result_max_bytes", "timeout", "invalidates", "env", "title", "tags", "annotations",
            "confirm", "output", "examples");
    /** An example is one request; a page of text is a mistake (a description pasted in the wrong key). */
    static final int MAX_EXAMPLE_CHARS = 500;
    private static final List<String> ANNOTATION_KEYS = List.of("read_only", "destructive", "idempotent", "open_world");
    private static final List<String> INPUT_KEYS = List.of("type", "description", "optional", "default", "enum",
            "minimum", "maximum", "min_length", "max_length", "pattern", "min_items", "max_items", "items",
            "properties");
    /** An array's element: no default or optional of its own (the array has them). */
    private static final List<String> ITEM_KEYS = List.of("type", "description", "enum", "minimum", "maximum",
            "min_length", "max_length", "pattern", "min_items", "max_items", "items", "properties");
    /** A declared output: what a handler or output mapper returns, an object or an array. */
    private static final List<String> OUTPUT_KEYS = List.of("type", "description", "properties", "items");
    private static final List<String> OUTPUT_TYPES = List.of(InputType.OBJECT.keyword(), InputType.ARRAY.keyword());
    private static final List<String> MAPPER_KEYS = List.of("input", "output");
    private static final List<String> CACHE_KEYS = List.of("enabled", "ttl");
    private static final List<String> TYPE_NAMES =
            java.util.Arrays.stream(InputType.values()).map(InputType::keyword).toList();
    private static final Pattern INPUT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * A tool as read from its file. The compiler uses {@code nameLocation} to report duplicate
     * names and checks {@code invalidates} once every tool is known.
     */
    record ReadTool(ToolDef tool, SourceLocation nameLocation, List<YamlNode.Scalar> invalidates) {
    }

    private final RootConfigReader.RootConfig root;
    private final Map<String, AdapterDef> adapters;
    private final Set<String> unreadableAdapters;
    private final EnvSubstitution env;
    private final AuthBlocks authBlocks;
    private final ScriptFiles scripts;
    private final DisplayPaths paths;
    private final Problems problems;

    /**
     * @param unreadableAdapters file stems of adapter files that could not be parsed, so a tool
     *                           using one is not also reported as naming an unknown adapter
     */
    ToolReader(RootConfigReader.RootConfig root, Map<String, AdapterDef> adapters, Set<String> unreadableAdapters,
               EnvSubstitution env, AuthBlocks authBlocks, ScriptFiles scripts, DisplayPaths paths, Problems problems) {
        this.root = root;
        this.adapters = adapters;
        this.unreadableAdapters = unreadableAdapters;
        this.env = env;
        this.authBlocks = authBlocks;
        this.scripts = scripts;
        this.paths = paths;
        this.problems = problems;
    }

    ReadTool read(Path configFile, Path shown, Path toolsDir, YamlNode node) {
        ConfigMap cfg = ConfigMap.top(node, shown, problems);
        cfg.rejectUnknownKeys(KEYS);
        Path toolDir = configFile.getParent();
        String toolPath = ToolNames.toolPath(toolsDir, toolDir);
        String name = name(cfg, toolPath, shown);
        SourceLocation nameLocation = cfg.node("name") instanceof YamlNode.Scalar && declared(cfg, "name")
                ? cfg.location("name") : SourceLocation.of(shown);
        String owner = "tool '" + name + "'";

        String description = cfg.string("description");
        if (description == null || description.isBlank()) {
            description = ToolDef.generatedDescription(name);
        }

        // an unusable 'use' (a list, an unknown adapter) still makes this a database tool, so the
        // one mistake is not also reported as "neither 'use' nor 'handler'"
        boolean useDeclared = false;
        String use = null;
        YamlNode useNode = cfg.node("use");
        if (useNode instanceof YamlNode.Scalar) {
            use = ((YamlNode.Scalar) useNode).text();
            useDeclared = !use.isEmpty();
            if (useDeclared) {
                checkAdapter(cfg, use);
            } else {
                use = null;
            }
        } else if (useNode != null) {
            useDeclared = true;
            cfg.error("use", "'use' must be a string naming one adapter, got " + YamlNode.describe(useNode));
        }

        String statement = cfg.string("statement");
        List<InputDef> inputs = readInputs(cfg, owner);
        Scripts scripts = scripts(cfg, toolDir, useDeclared, shown);

        if (useDeclared && scripts.hasHandler()) {
            cfg.error("handler", owner + " sets both 'use' and 'handler'; a tool either runs a statement on an "
                    + "adapter or calls a handler script, not both");
        } else if (!useDeclared && !scripts.hasHandler()) {
            problems.error(shown, 1, owner + " sets neither 'use' (an adapter to run its 'statement' on) nor "
                    + "'handler' (a script; a handler.ts in the tool folder is found by itself)");
        }

        EffectiveAuth auth = auth(cfg, owner, toolDir);
        boolean databaseTool = useDeclared && !scripts.hasHandler();
        if (databaseTool) {
            if (statement == null && !cfg.has("statement")) {
                cfg.missing("statement", " (a tool with 'use' runs a statement on its adapter)");
            } else if (statement != null && statement.isBlank()) {
                cfg.error("statement", "'statement' must not be empty");
            } else if (statement != null) {
                checkStatement(cfg, statement, inputs, auth, owner);
            }
        } else if (!useDeclared && scripts.hasHandler() && cfg.has("statement")) {
            cfg.error("statement", "'statement' is not allowed on a handler tool (" + owner
                    + " has no adapter to run it on)");
        }

        boolean outputContent = outputContent(cfg, owner, databaseTool, scripts);
        InputDef output = outputContent ? null : output(cfg, owner, databaseTool, scripts);
        CachePolicy cache = cachePolicy(cfg, databaseTool);
        Limits limits = limits(cfg, databaseTool ? adapters.get(use) : null, databaseTool);
        List<YamlNode.Scalar> invalidates = invalidates(cfg);
        List<String> invalidated = new ArrayList<>();
        for (YamlNode.Scalar s : invalidates) {
            invalidated.add(s.text());
        }

        ToolDef tool = ToolDef.builder(name).path(toolPath).description(description)
                .statement(databaseTool ? use : null, databaseTool ? statement : null).inputs(inputs)
                .handler(databaseTool ? null : scripts.handler()).mappers(scripts.inputMapper(), scripts.outputMapper())
                .auth(auth.auth()).cache(cache).invalidates(invalidated).limits(limits)
                .location(SourceLocation.of(shown), statementLocation(cfg, shown)).scriptEnv(scriptEnv(cfg, owner, scripts))
                .openInputs(!databaseTool && !root.config().tools().strictHandlerInputs()).title(title(cfg)).tags(tags(cfg))
                .annotations(annotations(cfg, databaseTool ? statement : null, databaseTool ? adapters.get(use) : null))
                .exposeScriptErrors(root.config().tools().exposeScriptErrors()).confirm(confirm(cfg)).output(output)
                .outputContent(outputContent).examples(examples(cfg)).build();
        return new ReadTool(tool, nameLocation, invalidates);
    }

    private static String title(ConfigMap cfg) {
        String title = cfg.string("title");
        return title == null || title.isBlank() ? null : title.trim();
    }

    private static List<String> tags(ConfigMap cfg) {
        List<String> written = cfg.stringList("tags");
        List<String> out = new ArrayList<>();
        if (written != null) {
            for (String tag : written) {
                String t = tag.trim();
                if (t.isEmpty()) {
                    cfg.error("tags", "'tags' must not hold an empty tag");
                } else if (!out.contains(t)) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    /** Intents the author expects an agent to phrase, searched with the tool: distinct, non-empty texts. */
    private static List<String> examples(ConfigMap cfg) {
        YamlNode.Sequence written = cfg.list("examples", "strings");
        List<String> out = new ArrayList<>();
        if (written == null) {
            return out;
        }
        for (YamlNode item : written.items()) {
            if (!(item instanceof YamlNode.Scalar scalar) || scalar.isNull()) {
                cfg.errorAt(item, "'examples' must be a list of strings, but an item is " + YamlNode.describe(item));
                continue;
            }
            String e = scalar.text().strip();
            if (e.isEmpty()) {
                cfg.errorAt(item, "'examples' must not hold an empty example");
            } else if (e.length() > MAX_EXAMPLE_CHARS) {
                cfg.errorAt(item, "an example in 'examples' is " + e.length() + " characters long; at most "
                        + MAX_EXAMPLE_CHARS + " (an example is one request, as an agent would phrase it)");
            } else if (!out.contains(e)) {
                out.add(e);
            }
        }
        return out;
    }

    /** The hints written in {@code annotations}, each unwritten one inferred from a database tool's statement. */
    private static ToolAnnotations annotations(ConfigMap cfg, String statement, AdapterDef adapter) {
        ToolAnnotations inferred = statement == null || adapter == null ? ToolAnnotations.NONE
                : ToolAnnotations.inferred(statement, "redis".equals(adapter.connector()));
        ConfigMap map = cfg.map("annotations");
        if (map == null) {
            return inferred;
        }
        map.rejectUnknownKeys(ANNOTATION_KEYS);
        return new ToolAnnotations(map.bool("read_only"), map.bool("destructive"), map.bool("idempotent"),
                map.bool("open_world")).over(inferred);
    }

    private static SourceLocation statementLocation(ConfigMap cfg, Path shown) {
        YamlNode node = cfg.node("statement");
        return node == null ? SourceLocation.of(shown) : new SourceLocation(shown, node.line());
    }

    /** {@code confirm: true}: the client is asked to confirm each call (see ToolDef). */
    private static boolean confirm(ConfigMap cfg) {
        return Boolean.TRUE.equals(cfg.bool("confirm"));
    }

    /** {@code name} when set (and then checked), else derived from the tool folder. */
    private String name(ConfigMap cfg, String toolPath, Path shown) {
        String explicit = cfg.string("name");
        if (explicit != null && !explicit.isEmpty()) {
            if (!ToolNames.isValid(explicit)) {
                cfg.error("name", "tool name '" + explicit + "' is invalid: use 1 to 128 letters, digits, '_', '.' "
                        + "or '-', starting with a letter, digit or '_'");
            }
            return explicit;
        }
        String derived = ToolNames.fromToolPath(toolPath);
        if (!ToolNames.isValid(derived)) {
            problems.error(shown, 0, "tool name '" + derived + "' derived from the folder '" + toolPath
                    + "' is invalid (at most 128 characters); set 'name'");
        }
        return derived;
    }

    /**
     * A tool's scripts: explicit ones first, then convention discovery for slots left open.
     *
     * @param hasHandler true when a handler was written (even one whose file is missing) or found
     */
    private record Scripts(ScriptRef handler, ScriptRef inputMapper, ScriptRef outputMapper, boolean hasHandler) {
    }

    private Scripts scripts(ConfigMap cfg, Path toolDir, boolean useDeclared, Path shown) {
        boolean handlerDeclared = declared(cfg, "handler");
        ScriptRef handler = script(cfg, "handler", toolDir, "handler");
        ConfigMap mappers = cfg.map("mappers");
        // a malformed 'mappers' was reported; discovering mappers beside it would only add noise
        boolean inputDeclared = cfg.has("mappers");
        boolean outputDeclared = cfg.has("mappers");
        ScriptRef inputMapper = null;
        ScriptRef outputMapper = null;
        if (mappers != null) {
            mappers.rejectUnknownKeys(MAPPER_KEYS);
            inputDeclared = declared(mappers, "input");
            outputDeclared = declared(mappers, "output");
            inputMapper = script(mappers, "input", toolDir, "mappers.input");
            outputMapper = script(mappers, "output", toolDir, "mappers.output");
        }
        try {
            ScriptFiles.Discovered found =
                    ScriptFiles.discover(toolDir, !useDeclared && !handlerDeclared, !inputDeclared, !outputDeclared);
            handler = found.handler() == null ? handler : discovered(found.handler());
            inputMapper = found.inputMapper() == null ? inputMapper : discovered(found.inputMapper());
            outputMapper = found.outputMapper() == null ? outputMapper : discovered(found.outputMapper());
        } catch (IOException e) {
            problems.error(shown, 0, "cannot list the tool folder for scripts: " + e);
        }
        return new Scripts(handler, inputMapper, outputMapper, handlerDeclared || handler != null);
    }

    /**
     * The tool's own auth block, else the root default.
     *
     * @param broken true when the block that applies was written but is wrong (already reported),
     *               so checks that depend on the plugin are skipped rather than reported twice
     */
    private record EffectiveAuth(AuthDef auth, boolean broken) {
    }

    private EffectiveAuth auth(ConfigMap cfg, String owner, Path toolDir) {
        ConfigMap authMap = cfg.map("auth");
        if (authMap != null) {
            AuthDef auth = authBlocks.read(authMap, owner, toolDir);
            return new EffectiveAuth(auth, auth == null);
        }
        if (cfg.has("auth")) {
            return new EffectiveAuth(null, true);
        }
        return new EffectiveAuth(root.defaultAuth(), root.defaultAuthBroken());
    }

    private void checkAdapter(ConfigMap cfg, String use) {
        if (adapters.containsKey(use) || unreadableAdapters.contains(use)) {
            return;
        }
        TreeSet<String> known = new TreeSet<>(adapters.keySet());
        Path adaptersDir = root.config().folders().adaptersDir();
        String where = known.isEmpty()
                ? "no adapters are defined" + (adaptersDir == null ? ""
                        : " (looked for *.terse files in " + paths.show(adaptersDir) + ")")
                : "known adapters: " + String.join(", ", known);
        cfg.error("use", "unknown adapter '" + use + "' in 'use'" + Suggestions.adapter(use, adapters) + "; " + where);
    }

    /**
     * An empty value counts as not set, as in Hyperterse: {@code name: ""} derives the name, and an
     * empty script path leaves the slot to convention discovery.
     */
    private static boolean declared(ConfigMap map, String key) {
        YamlNode node = map.node(key);
        return node != null && !(node instanceof YamlNode.Scalar && ((YamlNode.Scalar) node).text().isEmpty());
    }

    private ScriptRef script(ConfigMap map, String key, Path toolDir, String role) {
        String written = map.string(key);
        if (written == null || written.isEmpty()) {
            return null;
        }
        return scripts.resolve(written, toolDir, map.location(key), "'" + role + "'", problems);
    }

    private ScriptRef discovered(Path file) {
        return new ScriptRef(file, "default", SourceLocation.of(paths.show(file)));
    }

    private List<InputDef> readInputs(ConfigMap cfg, String owner) {
        List<InputDef> out = new ArrayList<>();
        ConfigMap inputs = cfg.map("inputs");
        if (inputs == null) {
            return out;
        }
        for (YamlNode.Entry entry : inputs.entries()) {
            String name = entry.key();
            SourceLocation at = new SourceLocation(inputs.file(), entry.keyLine());
            if (!INPUT_NAME.matcher(name).matches()) {
                problems.error(at.file(), at.line(), "input name '" + name + "' of " + owner + " is invalid: use "
                        + "letters, digits, '_' and '-', starting with a letter or '_'");
                continue;
            }
            if (!(entry.value() instanceof YamlNode.Mapping)) {
                cfg.errorAt(entry.value(), "'inputs." + name + "' must be a mapping with at least 'type', got "
                        + YamlNode.describe(entry.value()));
                continue;
            }
            out.add(readInput(inputs.child(entry), name, at));
        }
        return out;
    }

    /**
     * {@code output}: the shape of what the handler (or the output mapper) returns, an object or an
     * array, declared as an input is. A tool that returns its statement's rows as they are has the
     * shape its database describes, so it declares none.
     */
    private InputDef output(ConfigMap cfg, String owner, boolean databaseTool, Scripts scripts) {
        if (!cfg.has("output") || cfg.isScalar("output")) {
            return null;
        }
        ConfigMap map = cfg.map("output");
        if (map == null) {
            return null;
        }
        if (databaseTool && scripts.outputMapper() == null) {
            cfg.error("output", "'output' declares what a handler or an output mapper returns; " + owner
                    + " returns its statement's rows, whose columns its database describes");
            return null;
        }
        String typeName = map.string("type");
        if (typeName != null && !OUTPUT_TYPES.contains(typeName.trim())) {
            map.error("type", "'output.type' must be object or array, got \"" + typeName + "\"");
            return null;
        }
        InputDef declared = readInput(map, "output", cfg.location("output"), InputRole.OUTPUT);
        return declared.type() == null ? null : declared;
    }

    /**
     * {@code output: content}: the tool answers with MCP content (text, images, audio, resources)
     * made by its handler or output mapper, not rows; any other scalar is a mistake.
     */
    private static boolean outputContent(ConfigMap cfg, String owner, boolean databaseTool, Scripts scripts) {
        if (!cfg.isScalar("output")) {
            return false;
        }
        String given = cfg.string("output").trim();
        if (!"content".equals(given)) {
            cfg.error("output", "'output' must be content (the handler answers with text, images, audio or"
                    + " resources) or a mapping describing the rows it returns, got \"" + given + "\"");
            return false;
        }
        if (databaseTool && scripts.outputMapper() == null) {
            cfg.error("output", "'output: content' is for tools whose handler or output mapper makes the answer; "
                    + owner + " returns its statement's rows");
            return false;
        }
        return true;
    }

    /** Where an input-like map stands, which decides the keys it may have. */
    private enum InputRole {
        INPUT, PROPERTY, ITEMS, OUTPUT, OUTPUT_PROPERTY, OUTPUT_ITEMS;

        boolean inOutput() {
            return this == OUTPUT || this == OUTPUT_PROPERTY || this == OUTPUT_ITEMS;
        }

        List<String> keys() {
            switch (this) {
                case ITEMS:
                case OUTPUT_ITEMS:
                    return ITEM_KEYS;
                case OUTPUT:
                    return OUTPUT_KEYS;
                default:
                    return INPUT_KEYS;
            }
        }

        InputRole property() {
            return inOutput() ? OUTPUT_PROPERTY : PROPERTY;
        }

        InputRole items() {
            return inOutput() ? OUTPUT_ITEMS : ITEMS;
        }
    }

    private InputDef readInput(ConfigMap input, String name, SourceLocation at) {
        return readInput(input, name, at, InputRole.INPUT);
    }

    private InputDef readInput(ConfigMap input, String name, SourceLocation at, InputRole role) {
        input.rejectUnknownKeys(role.keys());
        String typeName = input.requiredString("type", " (one of " + String.join(", ", TYPE_NAMES) + ")");
        InputType type = typeName == null ? null : InputType.fromKeyword(typeName);
        if (typeName != null && type == null) {
            input.error("type", "'" + input.name("type") + "' must be one of " + String.join(", ", TYPE_NAMES)
                    + ", got \"" + typeName + "\"" + Suggestions.didYouMean(typeName, TYPE_NAMES));
        }
        String description = input.string("description");
        Boolean optional = input.bool("optional");
        InputDef items = items(input, type, role);
        List<InputDef> properties = properties(input, type, role);
        InputConstraints constraints = constraints(input, type);
        InputDef declared = new InputDef(name, type, description, optional != null && optional, false, null, at,
                items, properties, constraints);
        YamlNode written = input.node("default");
        if (written != null && role.inOutput()) {
            if (role == InputRole.OUTPUT_PROPERTY) {
                // elsewhere in an output 'default' is an unknown key, reported as such
                input.error("default", "'" + input.name("default") + "': an output has no default (the result holds"
                        + " the value; an optional field may be left out or null)");
            }
            return declared;
        }
        if (written == null || type == null) {
            return declared;
        }
        if (written instanceof YamlNode.Scalar && ((YamlNode.Scalar) written).value() instanceof String
                && ((YamlNode.Scalar) written).text().isEmpty()) {
            return declared;
        }
        if (!(written instanceof YamlNode.Scalar) && type.isScalar()) {
            input.error("default", "default for input '" + name + "' must be a single value, got "
                    + YamlNode.describe(written));
            return declared;
        }
        try {
            Object value = declared.coerce(plain(written, type));
            return new InputDef(name, type, description, declared.optional(), true, value, at, items, properties,
                    constraints);
        } catch (InputValueException e) {
            input.error("default", "default for input '" + name + "'"
                    + (e.position().isEmpty() ? "" : " at " + e.position()) + ": " + e.getMessage());
            return declared;
        }
    }

    /**
     * A YAML value as the plain JSON-like value a caller would send. Scalars of a text type keep
     * the text as written (a string default of 1.50 stays "1.50"; dates are not read as numbers).
     */
    private static Object plain(YamlNode node, InputType type) {
        if (node instanceof YamlNode.Sequence) {
            List<Object> out = new ArrayList<>();
            for (YamlNode item : ((YamlNode.Sequence) node).items()) {
                out.add(plain(item, null));
            }
            return out;
        }
        if (node instanceof YamlNode.Mapping) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            for (YamlNode.Entry e : ((YamlNode.Mapping) node).entries().values()) {
                out.put(e.key(), plain(e.value(), null));
            }
            return out;
        }
        YamlNode.Scalar scalar = (YamlNode.Scalar) node;
        if (type == InputType.STRING || type == InputType.DATE || type == InputType.UUID) {
            return scalar.text();
        }
        return scalar.value();
    }

    /** An array's {@code items}: a type name or an input-like map; an array without it holds any values. */
    private InputDef items(ConfigMap input, InputType type, InputRole role) {
        YamlNode node = input.node("items");
        if (node == null) {
            return null;
        }
        String name = input.name("items");
        if (type != InputType.ARRAY) {
            if (type != null) {
                input.error("items", "'" + name + "' is for inputs of type array, not " + type.keyword());
            }
            return null;
        }
        SourceLocation at = input.location("items");
        if (node instanceof YamlNode.Scalar && !((YamlNode.Scalar) node).isNull()) {
            String typeName = ((YamlNode.Scalar) node).text();
            InputType itemType = InputType.fromKeyword(typeName);
            if (itemType == null) {
                input.error("items", "'" + name + "' must be a type (one of " + String.join(", ", TYPE_NAMES)
                        + ") or a mapping with 'type', got \"" + typeName + "\""
                        + Suggestions.didYouMean(typeName, TYPE_NAMES));
                return null;
            }
            return new InputDef("items", itemType, null, false, false, null, at);
        }
        ConfigMap map = input.map("items");
        return map == null ? null : readInput(map, "items", at, role.items());
    }

    /** An object's {@code properties}: name → input-like map; an object without them takes any properties. */
    private List<InputDef> properties(ConfigMap input, InputType type, InputRole role) {
        if (!input.has("properties")) {
            return List.of();
        }
        if (type != InputType.OBJECT) {
            if (type != null) {
                input.error("properties", "'" + input.name("properties") + "' is for inputs of type object, not "
                        + type.keyword());
            }
            return List.of();
        }
        ConfigMap map = input.map("properties");
        List<InputDef> out = new ArrayList<>();
        if (map == null) {
            return out;
        }
        for (YamlNode.Entry entry : map.entries()) {
            SourceLocation at = new SourceLocation(map.file(), entry.keyLine());
            if (!INPUT_NAME.matcher(entry.key()).matches()) {
                problems.error(at.file(), at.line(), "property name '" + entry.key() + "' in '"
                        + input.name("properties") + "' is invalid: use letters, digits, '_' and '-', starting with a "
                        + "letter or '_'");
                continue;
            }
            if (!(entry.value() instanceof YamlNode.Mapping)) {
                map.errorAt(entry.value(), "'" + map.name(entry.key()) + "' must be a mapping with at least 'type', "
                        + "got " + YamlNode.describe(entry.value()));
                continue;
            }
            out.add(readInput(map.child(entry), entry.key(), at, role.property()));
        }
        return out;
    }

    /** The constraint keys, each checked against the type it applies to and against the others. */
    private InputConstraints constraints(ConfigMap input, InputType type) {
        BigDecimal minimum = bound(input, "minimum", type);
        BigDecimal maximum = bound(input, "maximum", type);
        Integer minLength = count(input, "min_length", type, InputType.STRING);
        Integer maxLength = count(input, "max_length", type, InputType.STRING);
        Integer minItems = count(input, "min_items", type, InputType.ARRAY);
        Integer maxItems = count(input, "max_items", type, InputType.ARRAY);
        java.util.regex.Pattern pattern = pattern(input, type);
        if (minimum != null && maximum != null && minimum.compareTo(maximum) > 0) {
            input.error("minimum", "'" + input.name("minimum") + "' is greater than 'maximum'; no value could pass");
        }
        if (minLength != null && maxLength != null && minLength > maxLength) {
            input.error("min_length", "'" + input.name("min_length") + "' is greater than 'max_length'; no value "
                    + "could pass");
        }
        if (minItems != null && maxItems != null && minItems > maxItems) {
            input.error("min_items", "'" + input.name("min_items") + "' is greater than 'max_items'; no value "
                    + "could pass");
        }
        InputConstraints rules = new InputConstraints(null, minimum, maximum, minLength, maxLength, pattern,
                minItems, maxItems);
        List<Object> enumValues = enumValues(input, type, rules);
        return enumValues == null ? rules : new InputConstraints(enumValues, minimum, maximum, minLength, maxLength,
                pattern, minItems, maxItems);
    }

    private BigDecimal bound(ConfigMap input, String key, InputType type) {
        YamlNode node = input.node(key);
        if (node == null) {
            return null;
        }
        if (type != null && !type.isNumeric()) {
            input.error(key, "'" + input.name(key) + "' is for inputs of type int or float, not " + type.keyword());
            return null;
        }
        Object value = node instanceof YamlNode.Scalar ? ((YamlNode.Scalar) node).value() : null;
        if (value instanceof Number && !(value instanceof Double && !Double.isFinite((Double) value))) {
            return InputType.decimal((Number) value);
        }
        input.error(key, "'" + input.name(key) + "' must be a number, got " + YamlNode.describe(node));
        return null;
    }

    private Integer count(ConfigMap input, String key, InputType type, InputType appliesTo) {
        if (!input.has(key)) {
            return null;
        }
        if (type != null && type != appliesTo) {
            input.error(key, "'" + input.name(key) + "' is for inputs of type " + appliesTo.keyword() + ", not "
                    + type.keyword());
            return null;
        }
        Long n = input.integer(key, 0, Integer.MAX_VALUE, "a whole number, 0 or more");
        return n == null ? null : n.intValue();
    }

    private java.util.regex.Pattern pattern(ConfigMap input, InputType type) {
        String written = input.string("pattern");
        if (written == null) {
            return null;
        }
        if (type != null && type != InputType.STRING) {
            input.error("pattern", "'" + input.name("pattern") + "' is for inputs of type string, not "
                    + type.keyword());
            return null;
        }
        try {
            return java.util.regex.Pattern.compile(written);
        } catch (java.util.regex.PatternSyntaxException e) {
            input.error("pattern", "'" + input.name("pattern") + "' is not a valid regular expression: "
                    + e.getDescription() + (e.getIndex() >= 0 ? " at index " + e.getIndex() : ""));
            return null;
        }
    }

    /** {@code enum}: a list of values of the input's (scalar) type, each keeping the other rules. */
    private List<Object> enumValues(ConfigMap input, InputType type, InputConstraints rules) {
        if (!input.has("enum")) {
            return null;
        }
        if (type != null && !type.isScalar()) {
            input.error("enum", "'" + input.name("enum") + "' is for inputs of a single-value type, not "
                    + type.keyword());
            return null;
        }
        YamlNode.Sequence list = input.list("enum", "allowed values");
        if (list == null || type == null) {
            return null;
        }
        if (list.items().isEmpty()) {
            input.error("enum", "'" + input.name("enum") + "' must list at least one value");
            return null;
        }
        List<Object> out = new ArrayList<>();
        boolean ok = true;
        for (YamlNode item : list.items()) {
            if (!(item instanceof YamlNode.Scalar) || ((YamlNode.Scalar) item).isNull()) {
                input.errorAt(item, "'" + input.name("enum") + "' must list single values, but an item is "
                        + YamlNode.describe(item));
                ok = false;
                continue;
            }
            try {
                Object value = type.coerce(plain(item, type));
                rules.check(value);
                if (!out.contains(value)) {
                    out.add(value);
                }
            } catch (InputValueException e) {
                input.errorAt(item, "'" + input.name("enum") + "' value " + YamlNode.describe(item) + ": "
                        + e.getMessage());
                ok = false;
            }
        }
        return ok ? out : null;
    }

    private void checkStatement(ConfigMap cfg, String statement, List<InputDef> inputs, EffectiveAuth effective,
                                String owner) {
        AuthDef auth = effective.auth();
        // each problem at the placeholder's own line: a statement block may be dozens of lines long
        int from = 0;
        for (String bad : Placeholders.malformed(statement)) {
            int at = statement.indexOf(bad, from);
            String message = "malformed placeholder '" + bad + "' in 'statement'; expected {{ inputs.NAME }}, "
                    + "{{ env.NAME }} or {{ auth.claims.NAME }}";
            if (at < 0) {
                cfg.error("statement", message);
            } else {
                cfg.error("statement", statement, at, at + bad.length(), message);
                from = at + bad.length();
            }
        }
        List<String> declared = new ArrayList<>();
        for (InputDef input : inputs) {
            declared.add(input.name());
        }
        Set<String> used = new HashSet<>();
        Set<String> reported = new HashSet<>();
        for (Placeholders.Placeholder p : Placeholders.scan(statement)) {
            String name = p.name();
            if (p.isInput()) {
                used.add(name);
                if (!declared.contains(name) && reported.add("inputs." + name)) {
                    cfg.error("statement", statement, p.start(), p.end(), "'statement' uses {{ inputs." + name + " }} but " + owner
                            + " declares no input '" + name + "'" + Suggestions.didYouMean(name, declared));
                }
            } else if (p.isEnv()) {
                if (!env.isSet(name) && reported.add("env." + name)) {
                    cfg.missingVariable("statement", statement, p.start(), p.end(), name, owner
                            + ": environment variable '" + name
                            + "' is not set (used in 'statement')");
                }
            } else if (p.isClaim() && !effective.broken() && reported.add("claims." + name)
                    && (auth == null || !AuthBlocks.CLAIM_PLUGINS.contains(auth.plugin()))) {
                String claimPlugins = String.join(" or ", new TreeSet<>(AuthBlocks.CLAIM_PLUGINS));
                cfg.error("statement", statement, p.start(), p.end(), "'statement' uses {{ auth.claims." + name
                        + " }}, which needs an auth plugin "
                        + "that provides claims (" + claimPlugins + "); " + owner
                        + (auth == null ? " has no auth plugin" : " uses '" + auth.plugin() + "'"));
            }
        }
        for (InputDef input : inputs) {
            if (!used.contains(input.name())) {
                problems.warn(input.location().file(), input.location().line(), "input '" + input.name() + "' of "
                        + owner + " is declared but never used in its statement");
            }
        }
    }

    /**
     * The root {@code tools.cache} with the tool's own {@code cache:} keys over it. A handler may
     * have side effects, so a handler tool is cached only when its own block turns caching on.
     */
    private CachePolicy cachePolicy(ConfigMap cfg, boolean databaseTool) {
        CachePolicy root = this.root.config().tools().cache();
        CachePolicy base = databaseTool ? root : new CachePolicy(false, root.ttlSeconds());
        ConfigMap cache = cfg.map("cache");
        if (cache == null) {
            return base;
        }
        cache.rejectUnknownKeys(CACHE_KEYS);
        Boolean enabled = cache.bool("enabled");
        Long ttl = cache.integer("ttl", 0, Integer.MAX_VALUE, "a number of seconds (0 or more)");
        return new CachePolicy(enabled == null ? base.enabled() : enabled, ttl == null ? base.ttlSeconds() : ttl);
    }

    /**
     * A tool's {@code row_limit} and {@code timeout} win over its adapter's {@code options}, which
     * win over the root {@code tools.*}. {@code timeout} is the statement timeout of a database
     * tool and the script timeout of a handler tool. A tool's {@code result_max_bytes} wins over
     * the root's.
     */
    private Limits limits(ConfigMap cfg, AdapterDef adapter, boolean databaseTool) {
        Limits base = root.config().tools().limits();
        Integer rows = cfg.positiveInt("row_limit");
        Duration timeout = cfg.duration("timeout");
        Integer adapterRows = null;
        Duration adapterTimeout = null;
        if (adapter != null) {
            String rowOption = adapter.options().get(AdapterReader.ROW_LIMIT_OPTION);
            String timeoutOption = adapter.options().get(AdapterReader.STATEMENT_TIMEOUT_OPTION);
            adapterRows = rowOption == null ? null : AdapterReader.rowLimit(rowOption);
            adapterTimeout = timeoutOption == null ? null : AdapterReader.statementTimeout(timeoutOption);
        }
        int rowLimit = rows != null ? rows : adapterRows != null ? adapterRows : base.rowLimit();
        Long ownBytes = cfg.byteSize("result_max_bytes");
        long resultMaxBytes = ownBytes != null ? ownBytes : base.resultMaxBytes();
        if (databaseTool) {
            Duration statementTimeout = timeout != null ? timeout
                    : adapterTimeout != null ? adapterTimeout : base.statementTimeout();
            return new Limits(rowLimit, resultMaxBytes, statementTimeout, base.scriptTimeout());
        }
        return new Limits(rowLimit, resultMaxBytes, base.statementTimeout(),
                timeout != null ? timeout : base.scriptTimeout());
    }

    /**
     * {@code env}: the environment variables the tool's scripts may read as {@code process.env};
     * scripts see no others. Each must be set when the project compiles.
     */
    private List<String> scriptEnv(ConfigMap cfg, String owner, Scripts scripts) {
        List<String> out = new ArrayList<>();
        YamlNode.Sequence list = cfg.list("env", "environment variable names");
        if (list == null) {
            return out;
        }
        if (!scripts.hasHandler() && scripts.inputMapper() == null && scripts.outputMapper() == null) {
            cfg.error("env", "'env' passes environment variables to scripts, but " + owner + " has no handler or mapper");
            return out;
        }
        for (YamlNode item : list.items()) {
            String name = item instanceof YamlNode.Scalar && !((YamlNode.Scalar) item).isNull()
                    ? ((YamlNode.Scalar) item).text() : null;
            if (name == null || !ENV_NAME.matcher(name).matches()) {
                cfg.errorAt(item, "'env' must be a list of environment variable names (letters, digits and '_'), "
                        + "but an item is " + YamlNode.describe(item));
            } else if (!env.isSet(name)) {
                cfg.missingVariable(item, name, owner + ": environment variable '" + name + "' is not set (listed in 'env')");
            } else if (!out.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    private List<YamlNode.Scalar> invalidates(ConfigMap cfg) {
        List<YamlNode.Scalar> out = new ArrayList<>();
        YamlNode.Sequence list = cfg.list("invalidates", "tool names");
        if (list == null) {
            return out;
        }
        for (YamlNode item : list.items()) {
            if (item instanceof YamlNode.Scalar && !((YamlNode.Scalar) item).isNull()) {
                out.add((YamlNode.Scalar) item);
            } else {
                cfg.errorAt(item, "'invalidates' must be a list of tool names, but an item is "
                        + YamlNode.describe(item));
            }
        }
        return out;
    }
}
