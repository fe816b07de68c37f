package dev.hyperterse.auth;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The auth plugins this server knows, by keyword. */
public final class AuthPlugins {
    private final Map<String, AuthPlugin> byName = new LinkedHashMap<>();

    public AuthPlugins(List<AuthPlugin> plugins) {
        for (AuthPlugin p : plugins) {
            byName.put(p.name(), p);
        }
    }

    public static AuthPlugins builtIn() {
        return new AuthPlugins(List.of(new AllowAllPlugin(), new ApiKeyPlugin(), new JwtPlugin(), new ScriptAuthPlugin()));
    }

    public Set<String> names() {
        return Collections.unmodifiableSet(byName.keySet());
    }

    /** @return the plugin, or null when unknown */
    public AuthPlugin get(String name) {
        return byName.get(name);
    }
}
