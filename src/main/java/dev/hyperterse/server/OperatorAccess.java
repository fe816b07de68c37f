package dev.hyperterse.server;

import dev.hyperterse.mcp.OriginPolicy;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Who may read the operator paths ({@code /metrics}, {@code /ready}): the same Origin and Host
 * checks as the MCP endpoint (a page in a browser cannot read them through DNS rebinding), and
 * {@code server.metrics.token}. The metrics ask for the token as a bearer token when it is set
 * (401 with a challenge otherwise); readiness answers every probe, and its details (project,
 * version, tools, adapters and their errors) only to a caller presenting the token. Both name
 * parts of the project, so they are not for everyone who can reach the port.
 */
final class OperatorAccess {
    private static final String CHALLENGE = "Bearer realm=\"metrics\"";

    private final OriginPolicy originPolicy;
    /** SHA-256 of the token, or null when none is set: comparing digests takes the same time whatever was sent. */
    private final byte[] tokenDigest;

    OperatorAccess(OriginPolicy originPolicy, String token) {
        this.originPolicy = originPolicy;
        this.tokenDigest = token == null ? null : sha256(token);
    }

    /** For the metrics path: 403 for a foreign Origin or Host, 401 without the token when one is set. */
    void handle(RoutingContext rc) {
        if (refusedOriginOrHost(rc)) {
            return;
        }
        if (tokenDigest != null && !presentsToken(rc.request().getHeader(HttpHeaders.AUTHORIZATION))) {
            rc.response().putHeader("WWW-Authenticate", CHALLENGE);
            refuse(rc, 401, "Unauthorized: the metrics need the bearer token set in server.metrics.token");
            return;
        }
        rc.next();
    }

    /** For readiness: 403 for a foreign Origin or Host; a probe without the token passes. */
    void checkOriginAndHost(RoutingContext rc) {
        if (!refusedOriginOrHost(rc)) {
            rc.next();
        }
    }

    /** True when a token is set and the request presents it: the caller may see the details. */
    boolean authorised(HttpServerRequest request) {
        return tokenDigest != null && presentsToken(request.getHeader(HttpHeaders.AUTHORIZATION));
    }

    private boolean refusedOriginOrHost(RoutingContext rc) {
        String refusal = originPolicy.refusal(rc.request());
        if (refusal != null) {
            refuse(rc, 403, refusal);
            return true;
        }
        return false;
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
