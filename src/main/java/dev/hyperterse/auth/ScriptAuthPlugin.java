package dev.hyperterse.auth;

import dev.hyperterse.model.AuthDef;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code plugin: script}: a project's own auth rule as a script ({@code policy: {path: ./auth.ts}}).
 * The project compiler resolves the script and the environment names it may read; the check
 * runs it per call (see {@link ScriptAuthCheck}).
 */
public final class ScriptAuthPlugin implements AuthPlugin {
    public static final String NAME = "script";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public AuthCheck create(Map<String, Object> policy, Map<String, String> environment) throws AuthPolicyException {
        throw new AuthPolicyException("the script plugin needs 'policy.path' naming its script, such as ./auth.ts");
    }

    @Override
    public AuthCheck create(AuthDef block, Map<String, String> environment) throws AuthPolicyException {
        if (block.script() == null) {
            return create(block.policy(), environment);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : block.scriptEnv()) {
            String value = environment.get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        return new ScriptAuthCheck(block.script(), env, useKey(block));
    }

    /** How the script runtime knows a script auth block's script: one set of contexts per block. */
    public static String useKey(AuthDef block) {
        return "auth@" + block.location();
    }
}
