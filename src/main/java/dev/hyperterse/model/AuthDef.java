package dev.hyperterse.model;

import java.util.List;
import java.util.Map;

/**
 * An auth block: the plugin name (lower-cased) and its policy, with {@code {{ env.X }}}
 * already resolved in string values.
 *
 * @param script    for {@code plugin: script}: the script that decides ({@code policy.path}); null otherwise
 * @param scriptEnv for {@code plugin: script}: the environment variables that script may read ({@code policy.env})
 */
public record AuthDef(String plugin, Map<String, Object> policy, SourceLocation location, ScriptRef script,
                      List<String> scriptEnv) {
    public AuthDef {
        policy = Map.copyOf(policy);
        scriptEnv = List.copyOf(scriptEnv);
    }

    public AuthDef(String plugin, Map<String, Object> policy, SourceLocation location) {
        this(plugin, policy, location, null, List.of());
    }
}
