package dev.hyperterse.auth;

import io.vertx.core.Future;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code api_key}: the {@code X-API-Key} header must equal one of the policy's keys
 * ({@code value}: a key or a list of keys), else {@code HYPERTERSE_API_KEY}. Keys are compared
 * as SHA-256 digests with a constant-time comparison, so neither content nor length leaks
 * through timing.
 */
public final class ApiKeyPlugin implements AuthPlugin {
    public static final String HEADER = "X-API-Key";
    public static final String FALLBACK_VARIABLE = "HYPERTERSE_API_KEY";
    private static final Set<String> POLICY_KEYS = Set.of("value");

    @Override
    public String name() {
        return "api_key";
    }

    @Override
    public AuthCheck create(Map<String, Object> policy, Map<String, String> environment) throws AuthPolicyException {
        for (String key : policy.keySet()) {
            if (!POLICY_KEYS.contains(key)) {
                throw new AuthPolicyException("api_key policy has unknown key '" + key + "' (known: value)");
            }
        }
        List<String> keys = new ArrayList<>();
        Object value = policy.get("value");
        if (value instanceof Collection) {
            for (Object v : (Collection<?>) value) {
                keys.add(v == null ? "" : v.toString());
            }
        } else if (value != null) {
            keys.add(value.toString());
        } else if (environment.get(FALLBACK_VARIABLE) != null) {
            keys.add(environment.get(FALLBACK_VARIABLE));
        }
        if (keys.isEmpty()) {
            throw new AuthPolicyException("api_key needs policy.value or the " + FALLBACK_VARIABLE + " variable");
        }
        List<byte[]> digests = new ArrayList<>();
        for (String k : keys) {
            if (k.isBlank()) {
                throw new AuthPolicyException("api_key policy has an empty key");
            }
            digests.add(sha256(k));
        }
        return headers -> {
            String presented = headers.get(HEADER);
            if (presented == null || presented.isEmpty()) {
                return Future.failedFuture(new AuthDeniedException("missing " + HEADER + " header"));
            }
            byte[] digest = sha256(presented);
            boolean match = false;
            for (byte[] d : digests) {
                // no early exit: every key is compared whatever the outcome
                match |= MessageDigest.isEqual(d, digest);
            }
            return match ? Future.succeededFuture(Caller.ANONYMOUS)
                    : Future.failedFuture(new AuthDeniedException("invalid API key"));
        };
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
