package dev.hyperterse.mcp.stateless;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The secret that seals input-round state. Every node that may receive the next round must hold
 * the same one: a configured secret ({@value #ENV}, any length, hashed to 32 bytes) when given;
 * otherwise the first node of a cluster draws one and the others adopt it from the cluster's
 * shared map; a single node draws its own at start.
 */
public final class RequestStateKey {
    /** The environment variable that configures the secret. */
    public static final String ENV = "HYPERTERSE_REQUEST_STATE_KEY";
    private static final String MAP = "hyperterse.mcp";
    private static final String ENTRY = "request-state-key";

    private RequestStateKey() {
    }

    /** @param configured the configured secret, or null/blank for none */
    public static Future<byte[]> resolve(Vertx vertx, String configured) {
        if (configured != null && !configured.isBlank()) {
            return Future.succeededFuture(sha256(configured));
        }
        byte[] drawn = new byte[32];
        new SecureRandom().nextBytes(drawn);
        if (!vertx.isClustered()) {
            return Future.succeededFuture(drawn);
        }
        String mine = Base64.getEncoder().encodeToString(drawn);
        return vertx.sharedData().<String, String>getAsyncMap(MAP)
                .compose(map -> map.putIfAbsent(ENTRY, mine))
                .map(existing -> Base64.getDecoder().decode(existing == null ? mine : existing));
    }

    private static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }
}
