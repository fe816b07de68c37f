package dev.hyperterse.auth;

import dev.hyperterse.model.Durations;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code jwt}: a bearer token in {@code Authorization}, signed with a shared secret (HS256,
 * HS384, HS512) or by a key from a JWKS URL (rotated keys are fetched when a token names an
 * unknown key id). The audience must be this server; issuer, expiry (with leeway), required
 * claims and scopes are checked. Claims reach statements as {@code {{ auth.claims.NAME }}}.
 */
public final class JwtPlugin implements AuthPlugin {
    static final Set<String> POLICY_KEYS = Set.of("secret", "algorithm", "jwks_url", "jwks_refresh", "issuer",
            "audience", "leeway", "required_claims", "scopes", "resource", "authorization_servers");
    private static final Set<String> HMAC = Set.of("HS256", "HS384", "HS512");

    @Override
    public String name() {
        return "jwt";
    }

    @Override
    public AuthCheck create(Map<String, Object> policy, Map<String, String> environment) throws AuthPolicyException {
        return new JwtCheck(read(policy));
    }

    /** The policy, checked. */
    record Policy(String secret, String algorithm, URI jwksUrl, Duration jwksRefresh, String issuer,
                  List<String> audience, int leewaySeconds, List<String> requiredClaims, List<String> scopes,
                  String resource, List<String> authorizationServers) {
    }

    static Policy read(Map<String, Object> policy) throws AuthPolicyException {
        for (String key : policy.keySet()) {
            if (!POLICY_KEYS.contains(key)) {
                throw new AuthPolicyException("jwt policy has unknown key '" + key + "' (known: "
                        + String.join(", ", new java.util.TreeSet<>(POLICY_KEYS)) + ")");
            }
        }
        String secret = string(policy, "secret");
        String jwks = string(policy, "jwks_url");
        if ((secret == null) == (jwks == null)) {
            throw new AuthPolicyException("jwt policy needs exactly one of 'secret' (HMAC) and 'jwks_url'");
        }
        String algorithm = string(policy, "algorithm");
        if (secret != null) {
            algorithm = algorithm == null ? "HS256" : algorithm.toUpperCase(Locale.ROOT);
            if (!HMAC.contains(algorithm)) {
                throw new AuthPolicyException("jwt 'algorithm' with a secret must be HS256, HS384 or HS512, got '"
                        + algorithm + "'");
            }
            if (secret.length() < 32) {
                throw new AuthPolicyException("jwt 'secret' must be at least 32 characters");
            }
        } else if (algorithm != null) {
            throw new AuthPolicyException("jwt 'algorithm' applies to 'secret'; with 'jwks_url' each key names its own");
        }
        URI jwksUrl = null;
        if (jwks != null) {
            try {
                jwksUrl = URI.create(jwks);
            } catch (IllegalArgumentException e) {
                throw new AuthPolicyException("jwt 'jwks_url' is not a URL: " + jwks);
            }
            if (!"https".equals(jwksUrl.getScheme()) && !"http".equals(jwksUrl.getScheme()) || jwksUrl.getHost() == null) {
                throw new AuthPolicyException("jwt 'jwks_url' must be an http(s) URL, got " + jwks);
            }
        }
        List<String> audience = strings(policy, "audience");
        if (audience.isEmpty()) {
            throw new AuthPolicyException("jwt policy needs 'audience': tokens must be issued for this server");
        }
        Duration leeway = duration(policy, "leeway", Duration.ofSeconds(30));
        Duration refresh = duration(policy, "jwks_refresh", Duration.ofSeconds(30));
        return new Policy(secret, algorithm, jwksUrl, refresh, string(policy, "issuer"), audience,
                (int) Math.min(Integer.MAX_VALUE, leeway.toSeconds()), strings(policy, "required_claims"),
                strings(policy, "scopes"), string(policy, "resource"), strings(policy, "authorization_servers"));
    }

    private static String string(Map<String, Object> policy, String key) throws AuthPolicyException {
        Object v = policy.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Collection || v instanceof Map) {
            throw new AuthPolicyException("jwt '" + key + "' must be a single value");
        }
        String s = v.toString().trim();
        return s.isEmpty() ? null : s;
    }

    private static List<String> strings(Map<String, Object> policy, String key) throws AuthPolicyException {
        Object v = policy.get(key);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (v instanceof Collection) {
            for (Object item : (Collection<?>) v) {
                if (item == null || item instanceof Collection || item instanceof Map) {
                    throw new AuthPolicyException("jwt '" + key + "' must be a list of strings");
                }
                out.add(item.toString());
            }
        } else if (v instanceof Map) {
            throw new AuthPolicyException("jwt '" + key + "' must be a string or a list of strings");
        } else {
            out.add(v.toString());
        }
        return out;
    }

    private static Duration duration(Map<String, Object> policy, String key, Duration fallback)
            throws AuthPolicyException {
        Object v = policy.get(key);
        if (v == null) {
            return fallback;
        }
        Duration d = Durations.parse(v);
        if (d == null) {
            throw new AuthPolicyException("jwt '" + key + "' must be a duration such as 30s, got '" + v + "'");
        }
        return d;
    }
}
