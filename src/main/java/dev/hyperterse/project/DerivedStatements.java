package dev.hyperterse.project;

import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.Limits;
import dev.hyperterse.model.Placeholders;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolDef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a statement written on a resource template or an argument's {@code completion} into a
 * derived tool, so it runs through the same pipeline as every tool (auth, cache, row limit,
 * connector). Its {@code {{ args.NAME }}} placeholders become the tool's string inputs, bound as
 * parameters like {@code {{ inputs.NAME }}} of a tool, never pasted into the text.
 */
final class DerivedStatements {
    static final int COMPLETION_ROWS = 100;
    private static final Pattern ARGS = Pattern.compile("\\{\\{(\\s*)args\\.([A-Za-z_][\\w-]*)(\\s*)\\}\\}");

    private final RootConfigReader.RootConfig root;
    private final Map<String, AdapterDef> adapters;
    private final Set<String> unreadableAdapters;
    private final EnvSubstitution env;
    private final Problems problems;
    private final Map<String, ToolDef> derived = new LinkedHashMap<>();

    DerivedStatements(RootConfigReader.RootConfig root, Map<String, AdapterDef> adapters, Set<String> unreadableAdapters,
                      EnvSubstitution env, Problems problems) {
        this.root = root;
        this.adapters = adapters;
        this.unreadableAdapters = unreadableAdapters;
        this.env = env;
        this.problems = problems;
    }

    /** Every derived tool made so far, by name. */
    Map<String, ToolDef> tools() {
        return derived;
    }

    /**
     * Reads {@code use} and {@code statement} of {@code map} into a derived tool.
     *
     * @param allowed the {@code args.NAME} the statement may use (the template's variables, or {@code prefix})
     * @return the derived tool's name, or null when something was wrong (reported)
     */
    String read(ConfigMap map, String toolName, String owner, List<String> allowed, AuthDef auth, boolean authBroken) {
        String use = map.string("use");
        String statement = map.string("statement");
        if (use == null || use.isBlank()) {
            if (!map.has("use")) {
                map.missing("use", " (the adapter the statement runs on)");
            }
            return null;
        }
        if (!adapters.containsKey(use)) {
            if (!unreadableAdapters.contains(use)) {
                TreeSet<String> known = new TreeSet<>(adapters.keySet());
                map.error("use", "unknown adapter '" + use + "' in '" + map.name("use") + "'"
                        + Suggestions.adapter(use, adapters) + "; "
                        + (known.isEmpty() ? "no adapters are defined" : "known adapters: " + String.join(", ", known)));
            }
            return null;
        }
        if (statement == null || statement.isBlank()) {
            if (statement == null && !map.has("statement")) {
                map.missing("statement", " (a statement runs on its adapter '" + use + "')");
            } else {
                map.error("statement", "'" + map.name("statement") + "' must not be empty");
            }
            return null;
        }
        boolean ok = true;
        List<String> inputs = new ArrayList<>();
        Set<String> written = new java.util.HashSet<>();
        Matcher m = ARGS.matcher(statement);
        StringBuilder rewritten = new StringBuilder();
        while (m.find()) {
            String name = m.group(2);
            written.add(name);
            if (!allowed.contains(name)) {
                map.error("statement", "'" + map.name("statement") + "' of " + owner + " uses {{ args." + name
                        + " }}, but only " + describe(allowed) + " can be used" + Suggestions.didYouMean(name, allowed));
                ok = false;
            } else if (!inputs.contains(name)) {
                inputs.add(name);
            }
            m.appendReplacement(rewritten, Matcher.quoteReplacement("{{" + m.group(1) + "inputs." + name + m.group(3) + "}}"));
        }
        m.appendTail(rewritten);
        String text = rewritten.toString();
        for (String bad : Placeholders.malformed(text)) {
            map.error("statement", "malformed placeholder '" + bad.replace("inputs.", "args.") + "' in '"
                    + map.name("statement") + "'; expected {{ args.NAME }}, {{ env.NAME }} or {{ auth.claims.NAME }}");
            ok = false;
        }
        for (Placeholders.Placeholder p : Placeholders.scan(text)) {
            if (p.isInput() && !written.contains(p.name())) {
                // {{ inputs.x }} written directly: statements here speak of args
                map.error("statement", "'" + map.name("statement") + "' of " + owner + " uses {{ inputs." + p.name()
                        + " }}; write {{ args." + p.name() + " }}");
                ok = false;
            } else if (p.isEnv() && !env.isSet(p.name())) {
                // an error for start, a warning for validate without --strict-env, as in tool statements
                map.missingVariable("statement", p.name(), owner + ": environment variable '" + p.name()
                        + "' is not set (used in '" + map.name("statement") + "')");
            } else if (p.isClaim() && !authBroken && (auth == null || !AuthBlocks.CLAIM_PLUGINS.contains(auth.plugin()))) {
                map.error("statement", "'" + map.name("statement") + "' uses {{ auth.claims." + p.name()
                        + " }}, which needs an auth plugin that provides claims; " + owner
                        + (auth == null ? " has no auth plugin" : " uses '" + auth.plugin() + "'"));
                ok = false;
            }
        }
        if (!ok) {
            return null;
        }
        SourceLocation at = map.ownerLocation();
        SourceLocation statementAt = map.location("statement");
        List<InputDef> defs = new ArrayList<>();
        for (String name : allowed) {
            defs.add(new InputDef(name, InputType.STRING, null, false, false, null, at));
        }
        Limits limits = root.config().tools().limits();
        if (toolName.startsWith("completion:")) {
            // MCP takes at most 100 completion values: a row limit of 100 tells when there are more
            limits = new Limits(Math.min(limits.rowLimit(), COMPLETION_ROWS), limits.resultMaxBytes(),
                    limits.statementTimeout(), limits.scriptTimeout());
        }
        derived.put(toolName, ToolDef.builder(toolName).path("").description(owner).statement(use, text).inputs(defs)
                .auth(auth).cache(root.config().tools().cache()).limits(limits).location(at, statementAt).build());
        return toolName;
    }

    private static String describe(List<String> allowed) {
        List<String> shown = new ArrayList<>();
        allowed.forEach(a -> shown.add("{{ args." + a + " }}"));
        return shown.isEmpty() ? "no arguments" : String.join(", ", shown);
    }
}
