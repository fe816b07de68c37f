package dev.hyperterse.auth;

import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/** Who made a call, as far as its auth plugin could tell; claims come from tokens. */
public record Caller(String subject, Map<String, Object> claims) {
    public static final Caller ANONYMOUS = new Caller(null, Map.of());

    public Caller {
        claims = Map.copyOf(claims);
    }

    /**
     * A token's or a script's claims as a caller holds them: a claim written as null is an absent
     * claim (required_claims treats it so too); an array or object claim is Vert.x JSON
     * ({@code getValue} wraps them), the form connectors bind as JSON.
     */
    static Map<String, Object> presentClaims(JsonObject claims) {
        Map<String, Object> present = new LinkedHashMap<>();
        for (String name : claims.fieldNames()) {
            Object value = claims.getValue(name);
            if (value != null) {
                present.put(name, value);
            }
        }
        return present;
    }
}
