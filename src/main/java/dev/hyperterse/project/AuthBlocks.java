package dev.hyperterse.project;

import dev.hyperterse.model.AuthDef;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads an {@code auth:} block ({@code plugin} and {@code policy}), in a tool file or as the root
 * default. The block is strict in both places: a misspelt key in security settings must not be
 * silently dropped.
 */
final class AuthBlocks {
    static final List<String> KEYS = List.of("plugin", "policy");
    /** Plugins that verify a token and so can feed {@code {{ auth.claims.x }}} placeholders. */
    static final Set<String> CLAIM_PLUGINS = Set.of("jwt", "script");

    private final Set<String> authPlugins;
    private final EnvSubstitution env;
    private final Problems problems;

    AuthBlocks(Set<String> authPlugins, EnvSubstitution env, Problems problems) {
        this.authPlugins = authPlugins;
        this.env = env;
        this.problems = problems;
    }

    /**
     * @param owner who the block belongs to in messages: {@code tool 'x'} or {@code the root auth block}
     * @return the block, or null when its plugin is missing or unknown (reported)
     */
    AuthDef read(ConfigMap auth, String owner) {
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
        return plugin == null ? null : new AuthDef(plugin, policy, auth.ownerLocation());
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
            return env.resolve((String) v, name -> problems.error(node.file(), node.line(), owner
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
