package dev.hyperterse.server;

import dev.hyperterse.mcp.OriginPolicy;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Who may read the metrics: the same Origin and Host checks as the MCP endpoint (a page in a
 * browser cannot read them through DNS rebinding), and, when {@code server.metrics.token} is
 * set, only a caller presenting it as a bearer token (401 with a challenge otherwise). Metrics
 * name the project's tools, so they are not for everyone who can reach the port.
 */
final class MetricsAccess {
    private static final String CHALLENGE = "Bearer realm=\"metrics\"";

    private final OriginPolicy originPolicy;
    /** SHA-256 of the token, or null when none is set: comparing digests takes the same time whatever was sent. */
    private final byte[] tokenDigest;

    MetricsAccess(OriginPolicy originPolicy, String token) {
        this.originPolicy = originPolicy;
        this.tokenDigest = token == null ? null : sha256(token);
    }

    void handle(RoutingContext rc) {
        String refusal = originPolicy.refusal(rc.request());
        if (refusal != null) {
            refuse(rc, 403, refusal);
            return;
        }
        if (tokenDigest != null && !presentsToken(rc.request().getHeader(HttpHeaders.AUTHORIZATION))) {
            rc.response().putHeader("WWW-Authenticate", CHALLENGE);
            refuse(rc, 401, "Unauthorized: the metrics need the bearer token set in server.metrics.token");
            return;
        }
        rc.next();
    }

    private boolean presentsToken(String authorization) {
        if (authorization == null || authorization.length() < 7
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(tokenDigest, sha256(authorization.substring(7).strip()));
    }

    private static void refuse(RoutingContext rc, int status, String message) {
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                .end(message + "\n");
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
