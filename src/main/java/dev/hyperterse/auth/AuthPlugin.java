package dev.hyperterse.auth;

import dev.hyperterse.model.AuthDef;

import java.util.Map;

/** An auth plugin ({@code auth.plugin} in a tool file) that turns a policy into a check. */
public interface AuthPlugin {

    /** The plugin keyword, lower case. */
    String name();

    /**
     * Builds the check for one policy, at start-up.
     *
     * @param policy      the policy map with {@code {{ env.X }}} resolved
     * @param environment the project's environment, for fallbacks such as {@code HYPERTERSE_API_KEY}
     * @throws AuthPolicyException when the policy cannot work
     */
    AuthCheck create(Map<String, Object> policy, Map<String, String> environment) throws AuthPolicyException;

    /**
     * Builds the check for a compiled auth block; plugins that need more than the policy (the
     * script plugin's resolved script) override this.
     */
    default AuthCheck create(AuthDef block, Map<String, String> environment) throws AuthPolicyException {
        return create(block.policy(), environment);
    }
}
