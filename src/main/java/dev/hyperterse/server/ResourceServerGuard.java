package dev.hyperterse.server;

import dev.hyperterse.auth.AuthCheck;
import dev.hyperterse.auth.AuthDeniedException;
import dev.hyperterse.auth.Caller;
import dev.hyperterse.auth.ProtectedResource;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The MCP authorization spec's resource-server side, active when the root auth block is
 * token-based (jwt): every request to the endpoint needs a valid bearer token (401 with a
 * {@code WWW-Authenticate} challenge pointing at the protected-resource metadata otherwise, 403
 * for a missing scope), and {@code /.well-known/oauth-protected-resource} describes the server.
 * Tokens are read from the {@code Authorization} header only, never from the query string.
 */
final class ResourceServerGuard {
    static final String METADATA_PATH = "/.well-known/oauth-protected-resource";

    private final Supplier<AuthCheck> rootAuth;
    private final String endpointPath;

    ResourceServerGuard(Supplier<AuthCheck> rootAuth, String endpointPath) {
        this.rootAuth = rootAuth;
        this.endpointPath = endpointPath;
    }

    /** Mount before the endpoint so it runs first. */
    void mount(Router router) {
        router.get(METADATA_PATH).handler(this::metadata);
        router.get(METADATA_PATH + endpointPath).handler(this::metadata);
        router.route(endpointPath).handler(this::guard);
    }

    private Optional<ProtectedResource> protection() {
        AuthCheck root = rootAuth.get();
        return root == null ? Optional.empty() : root.protectedResource();
    }

    private void guard(RoutingContext rc) {
        Optional<ProtectedResource> protection = protection();
        if (protection.isEmpty() || rc.request().method() == HttpMethod.OPTIONS) {
            rc.next();
            return;
        }
        boolean presented = rc.request().getHeader(HttpHeaders.AUTHORIZATION) != null;
        rc.request().pause();
        Future<Caller> checked;
        try {
            checked = rootAuth.get().authenticate(rc.request()::getHeader);
        } catch (RuntimeException e) {
            // whatever a presented token makes a check do, the answer is 401, never a 500
            checked = Future.failedFuture(e);
        }
        checked.onComplete(ar -> {
            rc.request().resume();
            if (ar.succeeded()) {
                rc.next();
                return;
            }
            ProtectedResource resource = protection.get();
            String metadata = baseUrl(rc) + METADATA_PATH + endpointPath;
            Throwable e = ar.cause();
            boolean scope = e instanceof AuthDeniedException
                    && ((AuthDeniedException) e).reason() == AuthDeniedException.Reason.INSUFFICIENT_SCOPE;
            String message = e instanceof AuthDeniedException ? e.getMessage() : "cannot verify the token";
            StringBuilder challenge = new StringBuilder("Bearer resource_metadata=\"").append(metadata).append('"');
            if (scope) {
                challenge.append(", error=\"insufficient_scope\"");
            } else if (presented) {
                challenge.append(", error=\"invalid_token\"");
            }
            List<String> scopes = resource.scopes();
            if (!scopes.isEmpty()) {
                challenge.append(", scope=\"").append(String.join(" ", scopes)).append('"');
            }
            rc.response()
                    .setStatusCode(scope ? 403 : 401)
                    .putHeader("WWW-Authenticate", challenge.toString())
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(new JsonObject().put("jsonrpc", "2.0").putNull("id").put("error", new JsonObject()
                            .put("code", -32000)
                            .put("message", (scope ? "Forbidden: " : "Unauthorized: ") + message)).toBuffer());
        });
    }

    private void metadata(RoutingContext rc) {
        Optional<ProtectedResource> protection = protection();
        if (protection.isEmpty()) {
            rc.response().setStatusCode(404).end();
            return;
        }
        ProtectedResource r = protection.get();
        JsonObject body = new JsonObject()
                .put("resource", r.resource() != null ? r.resource() : baseUrl(rc) + endpointPath)
                .put("authorization_servers", new JsonArray(r.authorizationServers()))
                .put("bearer_methods_supported", new JsonArray().add("header"));
        if (!r.scopes().isEmpty()) {
            body.put("scopes_supported", new JsonArray(r.scopes()));
        }
        rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(body.toBuffer());
    }

    private static String baseUrl(RoutingContext rc) {
        String scheme = rc.request().scheme() == null ? "http" : rc.request().scheme();
        io.vertx.core.net.HostAndPort authority = rc.request().authority();
        String host = authority == null ? "localhost" : authority.host()
                + (authority.port() > 0 ? ":" + authority.port() : "");
        return scheme + "://" + host;
    }
}
