package dev.hyperterse.server;

import dev.hyperterse.mcp.OriginPolicy;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * CORS headers on every response and preflight answers, for the origins configured in
 * {@code server.cors_origins} (default {@code *}). Origin validation still applies: CORS only
 * tells browsers what they may read, the origin policy decides what may run. The operator paths
 * ({@code /ready}, the metrics) get no CORS headers: they are for probes and scrapers, never for
 * a page in a browser, which under the default {@code *} could otherwise read what they show.
 */
final class Cors implements Handler<RoutingContext> {
    static final String METHODS = "GET, POST, DELETE, OPTIONS";
    static final String HEADERS = "Content-Type, Authorization, X-API-Key, Mcp-Session-Id, MCP-Protocol-Version, "
            + "Last-Event-ID, Accept, Mcp-Method, Mcp-Name";
    /**
     * The {@code Mcp-Param-*} headers a preflight may allow at once. A 2026-07-28 client mirrors a
     * tool's declared arguments into headers named after them, which no fixed list can hold, so the
     * ones a preflight asks for are allowed back; the request itself is checked as any other.
     */
    static final int MAX_PARAM_HEADERS = 32;
    private static final java.util.regex.Pattern PARAM_HEADER =
            java.util.regex.Pattern.compile("(?i)mcp-param-[a-z0-9_-]{1,64}");
    static final String EXPOSED = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate";

    private final List<String> origins;
    private final OriginPolicy originPolicy;
    private final Set<String> operatorPaths;

    /** @param operatorPaths paths answered without CORS headers (and without preflight answers) */
    Cors(List<String> origins, OriginPolicy originPolicy, Set<String> operatorPaths) {
        this.origins = origins.stream().map(o -> o.trim().toLowerCase(Locale.ROOT)).toList();
        this.originPolicy = originPolicy;
        this.operatorPaths = Set.copyOf(operatorPaths);
    }

    @Override
    public void handle(RoutingContext rc) {
        if (operatorPaths.contains(rc.normalizedPath())) {
            rc.next();
            return;
        }
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
                    .putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, allowedHeaders(rc))
                    .putHeader(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "86400")
                    .setStatusCode(204).end();
            return;
        }
        rc.next();
    }

    /** The fixed headers, and the {@code Mcp-Param-*} ones the preflight asks for (bounded). */
    private static String allowedHeaders(RoutingContext rc) {
        String requested = rc.request().getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS);
        if (requested == null) {
            return HEADERS;
        }
        rc.response().putHeader(HttpHeaders.VARY, "Origin, Access-Control-Request-Headers");
        StringBuilder allowed = new StringBuilder(HEADERS);
        int params = 0;
        for (String name : requested.split(",", MAX_PARAM_HEADERS * 4)) {
            String header = name.trim();
            if (params < MAX_PARAM_HEADERS && PARAM_HEADER.matcher(header).matches()) {
                allowed.append(", ").append(header);
                params++;
            }
        }
        return allowed.toString();
    }
}
