package dev.hyperterse.auth;

import java.util.Map;

/** Who made a call, as far as its auth plugin could tell; claims come from tokens. */
public record Caller(String subject, Map<String, Object> claims) {
    public static final Caller ANONYMOUS = new Caller(null, Map.of());

    public Caller {
        claims = Map.copyOf(claims);
    }
}
