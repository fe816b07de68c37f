package dev.hyperterse.auth;

import dev.hyperterse.model.AuthDef;

import dev.hyperterse.script.ScriptRuntime;

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
        return new ScriptAuthCheck(block.script(), useKey(block));
    }

    /** How the script runtime knows a script auth block's script: one set of contexts per block. */
    public static String useKey(AuthDef block) {
        return ScriptRuntime.AUTH_USE_PREFIX + block.location();
    }
}
