package dev.hyperterse.auth;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * What the JOSE header of a token may ask of its reader. RFC 7515 §4.1.11: a header's
 * {@code crit} lists extensions the reader must understand and process, or refuse the token. This
 * server understands none (the JWT provider it verifies with ignores {@code crit}, so it would
 * have accepted a token its issuer meant to be checked in a way it is not), so a token with
 * {@code crit} is refused, as is one whose {@code crit} is malformed (not an array of names, or
 * empty), whatever its signature.
 */
final class JwtHeader {

    private JwtHeader() {
    }

    /**
     * @return why the token's header cannot be accepted, never repeating what the header says, or
     *         null when it can or the token cannot be read at all (the signature check refuses that one)
     */
    static String problem(String token) {
        JsonObject header = header(token);
        if (header == null || !header.containsKey("crit")) {
            return null;
        }
        Object crit = header.getValue("crit");
        boolean names = crit instanceof JsonArray && !((JsonArray) crit).isEmpty()
                && ((JsonArray) crit).stream().allMatch(name -> name instanceof String && !((String) name).isEmpty());
        return names ? "it requires header extensions this server does not understand (crit)"
                : "header 'crit' must be a non-empty array of names";
    }

    /** The token's header, or null when its first part is not base64url of a JSON object. */
    private static JsonObject header(String token) {
        int first = token.indexOf('.');
        if (first <= 0) {
            return null;
        }
        try {
            byte[] json = Base64.getUrlDecoder().decode(token.substring(0, first));
            Object parsed = io.vertx.core.json.Json.decodeValue(new String(json, StandardCharsets.UTF_8));
            return parsed instanceof JsonObject ? (JsonObject) parsed : null;
        } catch (RuntimeException unreadable) {
            return null;
        }
    }
}
