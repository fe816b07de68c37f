package dev.hyperterse.mcp.stateless;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;

/**
 * Seals the {@code requestState} of an input-required round so the client can carry it to the
 * next round (to any node of a cluster) but cannot change it: {@code base64url(json) "."
 * base64url(HMAC-SHA256(key, json))}. A sealed state names what it belongs to (e.g. the tool) and
 * expires, so it cannot be replayed elsewhere or forever.
 */
public final class RequestStateSeal {
    /** How long a client has to answer an input request. */
    static final long LIFETIME_MILLIS = 15 * 60 * 1000L;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    private final Clock clock;

    /** @param key at least 32 bytes of secret, the same on every node that must verify states */
    public RequestStateSeal(byte[] key, Clock clock) {
        if (key.length < 32) {
            throw new IllegalArgumentException("a request-state key needs at least 32 bytes");
        }
        this.key = new SecretKeySpec(key.clone(), ALGORITHM);
        this.clock = clock;
    }

    /** Seals {@code state} for {@code purpose} (what the next round must be, e.g. {@code tools/call:execute}). */
    String seal(String purpose, JsonObject state) {
        JsonObject body = new JsonObject().put("for", purpose)
                .put("exp", clock.millis() + LIFETIME_MILLIS).put("state", state);
        String payload = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(body.encode().getBytes(StandardCharsets.UTF_8));
        return payload + "." + mac(payload);
    }

    /**
     * The verified contents of {@code token} (what it was sealed for, its expiry and its state);
     * throws -32602 when the token was altered, was sealed with another key or expired. A request
     * carrying a forged, altered or stale state is refused before anything runs, rather than read as
     * no state; which round the state belongs to is {@link #stateFor}'s question.
     */
    JsonObject verify(Object token) {
        return authentic(token);
    }

    /** The state in {@code verified} (from {@link #verify}) when it was sealed for {@code purpose}; else -32602. */
    static JsonObject stateFor(String purpose, JsonObject verified) {
        if (!purpose.equals(verified.getString("for"))) {
            throw rejected("requestState belongs to another request");
        }
        return verified.getJsonObject("state", new JsonObject());
    }

    private JsonObject authentic(Object token) {
        if (!(token instanceof String)) {
            throw rejected("requestState must be a string");
        }
        String text = (String) token;
        int dot = text.indexOf('.');
        if (dot <= 0 || dot != text.lastIndexOf('.')) {
            throw rejected("requestState failed its integrity check");
        }
        String payload = text.substring(0, dot);
        byte[] expected = mac(payload).getBytes(StandardCharsets.US_ASCII);
        byte[] given = text.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, given)) {
            throw rejected("requestState failed its integrity check");
        }
        JsonObject body;
        try {
            body = new JsonObject(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | DecodeException e) {
            throw rejected("requestState failed its integrity check");
        }
        if (body.getLong("exp", 0L) < clock.millis()) {
            throw rejected("requestState expired; call again without it to start over");
        }
        return body;
    }

    private String mac(String payload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is unavailable", e);
        }
    }

    private static StatelessError rejected(String why) {
        return new StatelessError(200, dev.hyperterse.mcp.JsonRpc.INVALID_PARAMS, "Invalid params: " + why);
    }
}
