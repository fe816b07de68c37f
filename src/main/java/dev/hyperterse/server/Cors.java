package dev.hyperterse.server;

import dev.hyperterse.mcp.OriginPolicy;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Locale;

/**
 * CORS headers on every response and preflight answers, for the origins configured in
 * {@code server.cors_origins} (default {@code *}). Origin validation still applies: CORS only
 * tells browsers what they may read, the origin policy decides what may run.
 */
final class Cors implements Handler<RoutingContext> {
    static final String METHODS = "GET, POST, DELETE, OPTIONS";
    static final String HEADERS = "Content-Type, Authorization, X-API-Key, Mcp-Session-Id, MCP-Protocol-Version, "
            + "Last-Event-ID, Accept";
    static final String EXPOSED = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate";

    private final List<String> origins;
    private final OriginPolicy originPolicy;

    Cors(List<String> origins, OriginPolicy originPolicy) {
        this.origins = origins.stream().map(o -> o.trim().toLowerCase(Locale.ROOT)).toList();
        this.originPolicy = originPolicy;
    }

    @Override
    public void handle(RoutingContext rc) {
        String origin = rc.request().getHeader(HttpHeaders.ORIGIN);
        HttpServerResponse response = rc.response();
        if (origin != null) {
            if (origins.contains("*")) {
                response.putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
            } else if (origins.contains(origin.trim().toLowerCase(Locale.ROOT))) {
                response.putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
                response.putHeader(HttpHeaders.VARY, "Origin");
            }
            response.putHeader(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
        }
        if (rc.request().method() == HttpMethod.OPTIONS) {
            if (!originPolicy.originAllowed(origin)) {
                response.setStatusCode(403).end();
                return;
            }
            response.putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, METHODS)
                    .putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, HEADERS)
                    .putHeader(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "86400")
                    .setStatusCode(204).end();
            return;
        }
        rc.next();
    }
}
