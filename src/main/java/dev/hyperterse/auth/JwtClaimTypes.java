package dev.hyperterse.auth;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The types RFC 7519 gives the registered claims a token is checked by: {@code exp}, {@code nbf}
 * and {@code iat} are numbers (NumericDate), {@code iss} and {@code sub} strings, {@code aud} a
 * string or an array of strings. A claim of another type (text, null, an object) makes the token
 * invalid: it is refused like an expired one, before anything reads the claim as its type.
 */
final class JwtClaimTypes {
    private static final List<String> NUMERIC_DATES = List.of("exp", "nbf", "iat");
    private static final List<String> STRINGS = List.of("iss", "sub");

    private JwtClaimTypes() {
    }

    /**
     * @return what is wrong with the token's claim types, naming the claim but never its value, or
     *         null when they are right or the token cannot be read at all (the signature check
     *         refuses that one)
     */
    static String problem(String token) {
        JsonObject claims = payload(token);
        if (claims == null) {
            return null;
        }
        for (String name : NUMERIC_DATES) {
            if (claims.containsKey(name)) {
                Object value = claims.getValue(name);
                if (!(value instanceof Number) || !Double.isFinite(((Number) value).doubleValue())) {
                    return "claim '" + name + "' must be a number of seconds, got " + kind(value);
                }
            }
        }
        for (String name : STRINGS) {
            if (claims.containsKey(name) && !(claims.getValue(name) instanceof String)) {
                return "claim '" + name + "' must be a string, got " + kind(claims.getValue(name));
            }
        }
        if (claims.containsKey("aud")) {
            Object aud = claims.getValue("aud");
            boolean strings = aud instanceof JsonArray
                    && ((JsonArray) aud).stream().allMatch(element -> element instanceof String);
            if (!(aud instanceof String) && !strings) {
                return "claim 'aud' must be a string or an array of strings, got " + kind(aud);
            }
        }
        return null;
    }

    /** The token's claims, or null when it is not three base64url parts with a JSON object in the middle. */
    static JsonObject payload(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0 || token.indexOf('.', second + 1) >= 0) {
            return null;
        }
        try {
            byte[] json = Base64.getUrlDecoder().decode(token.substring(first + 1, second));
            Object parsed = io.vertx.core.json.Json.decodeValue(new String(json, StandardCharsets.UTF_8));
            return parsed instanceof JsonObject ? (JsonObject) parsed : null;
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private static String kind(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "text";
        }
        if (value instanceof Number) {
            return "a number";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof JsonArray) {
            return "an array";
        }
        return "an object";
    }
}
