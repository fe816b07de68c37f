package dev.hyperterse.project;

import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SourceLocation;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads an {@code auth:} block ({@code plugin} and {@code policy}), in a tool file or as the root
 * default. The block is strict in both places: a misspelt key in security settings must not be
 * silently dropped.
 */
final class AuthBlocks {
    static final List<String> KEYS = List.of("plugin", "policy");
    /** Plugins that verify a token and so can feed {@code {{ auth.claims.x }}} placeholders. */
    static final Set<String> CLAIM_PLUGINS = Set.of("jwt", "script");
    /** The plugin whose policy names a script the compiler resolves and the server runs. */
    static final String SCRIPT_PLUGIN = "script";
    static final List<String> SCRIPT_POLICY_KEYS = List.of("path", "env");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Set<String> authPlugins;
    private final EnvSubstitution env;
    private final ScriptFiles scripts;
    private final Problems problems;

    AuthBlocks(Set<String> authPlugins, EnvSubstitution env, ScriptFiles scripts, Problems problems) {
        this.authPlugins = authPlugins;
        this.env = env;
        this.scripts = scripts;
        this.problems = problems;
    }

    /**
     * @param owner   who the block belongs to in messages: {@code tool 'x'} or {@code the root auth block}
     * @param baseDir where a script policy's relative {@code path} starts: the tool folder, or the
     *                project folder for the root block
     * @return the block, or null when its plugin is missing or unknown, or its script is (reported)
     */
    AuthDef read(ConfigMap auth, String owner, Path baseDir) {
        auth.rejectUnknownKeys(KEYS);
        String written = auth.requiredString("plugin", "");
        String plugin = null;
        if (written != null) {
            plugin = written.strip().toLowerCase(Locale.ROOT);
            if (!authPlugins.contains(plugin)) {
                auth.error("plugin", "unknown auth plugin '" + written + "'"
                        + Suggestions.didYouMean(plugin, new TreeSet<>(authPlugins))
                        + "; known plugins: " + String.join(", ", new TreeSet<>(authPlugins)));
                plugin = null;
            }
        }
        Map<String, Object> policy = new LinkedHashMap<>();
        ConfigMap policyMap = auth.map("policy");
        if (policyMap != null) {
            for (YamlNode.Entry entry : policyMap.entries()) {
                Object value = policyValue(entry, policyMap, owner);
                if (value != null) {
                    policy.put(entry.key(), value);
                }
            }
        }
        if (plugin == null) {
            return null;
        }
        if (plugin.equals(SCRIPT_PLUGIN)) {
            return scriptBlock(auth, policyMap, policy, owner, baseDir);
        }
        return new AuthDef(plugin, policy, auth.ownerLocation());
    }

    /**
     * {@code plugin: script}: {@code policy.path} names the script ({@code ./auth.ts#export},
     * resolved like a handler path) and {@code policy.env} the environment variables it may read.
     */
    private AuthDef scriptBlock(ConfigMap auth, ConfigMap policyMap, Map<String, Object> policy, String owner,
                                Path baseDir) {
        if (policyMap == null) {
            auth.error(auth.has("policy") ? "policy" : "plugin", owner + ": the script auth plugin needs "
                    + "'policy: {path: ./auth.ts}' naming the script that decides");
            return null;
        }
        policyMap.rejectUnknownKeys(SCRIPT_POLICY_KEYS);
        Object path = policy.get("path");
        SourceLocation pathAt = policyMap.location("path");
        ScriptRef script = null;
        if (!(path instanceof String) || ((String) path).isBlank()) {
            if (policyMap.has("path")) {
                problems.error(pathAt.file(), pathAt.line(), owner + ": 'policy.path' must be the script's path, "
                        + "such as ./auth.ts");
            } else {
                policyMap.missing("path", " (the script that decides, such as ./auth.ts)");
            }
        } else {
            script = scripts.resolve((String) path, baseDir, pathAt, "'auth.policy.path'", problems);
        }
        List<String> names = new ArrayList<>();
        Object listed = policy.get("env");
        SourceLocation envAt = policyMap.location("env");
        if (listed != null) {
            List<?> items = listed instanceof List ? (List<?>) listed : List.of(listed);
            for (Object item : items) {
                String name = String.valueOf(item);
                if (!(item instanceof String) || !ENV_NAME.matcher(name).matches()) {
                    problems.error(envAt.file(), envAt.line(), owner + ": 'policy.env' must list environment "
                            + "variable names (letters, digits and '_'), got '" + name + "'");
                } else if (!env.isSet(name)) {
                    problems.missingVariable(envAt.file(), envAt.line(), name, owner + ": environment variable '" + name
                            + "' is not set (listed in 'policy.env')");
                } else if (!names.contains(name)) {
                    names.add(name);
                }
            }
        }
        return script == null ? null : new AuthDef(SCRIPT_PLUGIN, policy, auth.ownerLocation(), script, names);
    }

    private Object policyValue(YamlNode.Entry entry, ConfigMap policyMap, String owner) {
        String key = policyMap.name(entry.key());
        YamlNode node = entry.value();
        if (node instanceof YamlNode.Sequence) {
            List<Object> items = new ArrayList<>();
            for (YamlNode item : ((YamlNode.Sequence) node).items()) {
                Object value = scalar(item, key, owner);
                if (value == null) {
                    problems.error(item.file(), item.line(), "'" + key
                            + "' must be a list of plain values, but an item is " + YamlNode.describe(item));
                    return null;
                }
                items.add(value);
            }
            return items;
        }
        Object value = scalar(node, key, owner);
        if (value == null) {
            problems.error(node.file(), node.line(), "'" + key + "' must be a value or a list of values, got "
                    + YamlNode.describe(node));
        }
        return value;
    }

    /** Strings with env placeholders resolved, booleans, and numbers as Long or Double. */
    private Object scalar(YamlNode node, String key, String owner) {
        if (!(node instanceof YamlNode.Scalar) || ((YamlNode.Scalar) node).isNull()) {
            return null;
        }
        Object v = ((YamlNode.Scalar) node).value();
        if (v instanceof String) {
            return env.resolve((String) v, name -> problems.missingVariable(node.file(), node.line(), name, owner
                    + ": environment variable '" + name + "' is not set (used in '" + key + "')"));
        }
        if (v instanceof Integer) {
            return ((Integer) v).longValue();
        }
        if (v instanceof BigInteger && ((BigInteger) v).bitLength() < 64) {
            return ((BigInteger) v).longValue();
        }
        return v;
    }
}
