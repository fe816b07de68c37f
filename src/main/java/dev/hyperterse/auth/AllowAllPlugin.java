package dev.hyperterse.auth;

import java.util.Map;

/** {@code allow_all}: every call passes. */
public final class AllowAllPlugin implements AuthPlugin {

    @Override
    public String name() {
        return "allow_all";
    }

    @Override
    public AuthCheck create(Map<String, Object> policy, Map<String, String> environment) throws AuthPolicyException {
        if (!policy.isEmpty()) {
            throw new AuthPolicyException("allow_all takes no policy, found keys " + policy.keySet());
        }
        return AuthCheck.ALLOW;
    }
}
