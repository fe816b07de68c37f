package dev.hyperterse.model;

import java.util.Map;

/**
 * An auth block: the plugin name (lower-cased) and its policy, with {@code {{ env.X }}}
 * already resolved in string values.
 */
public record AuthDef(String plugin, Map<String, Object> policy, SourceLocation location) {
    public AuthDef {
        policy = Map.copyOf(policy);
    }
}
