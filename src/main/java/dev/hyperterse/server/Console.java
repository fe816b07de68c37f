package dev.hyperterse.server;

import dev.hyperterse.telemetry.LiveCalls;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.HashSet;
import java.util.Set;

/**
 * The web console ({@code start --console}): a page and its files, and the Live page's data.
 * The page is a client of this server's own {@code /mcp}: it sends the key or token its user
 * pastes with each MCP request, so it reaches nothing an MCP client with that key could not.
 * The only data the console adds, {@link #LIVE_PATH}, is guarded as the metrics are (the MCP
 * Origin and Host checks, and {@code server.metrics.token} when set). Every answer carries a
 * Content-Security-Policy that lets the page load only its own scripts and styles and talk only
 * to this server. Routed only when the console is on.
 */
final class Console {
    static final String PATH = "/console";
    static final String LIVE_PATH = "/console/live";
    /**
     * Scripts and styles only from this server (no inline code, no eval), requests only to it,
     * no plugins, frames, forms posted elsewhere or base URL changes. Images and audio may also
     * be {@code data:} URLs: a tool's image and audio content is shown from the result itself (an
     * image or a sound runs no code, and a {@code data:} URL reaches no other server).
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; media-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'";

    private final ConsoleAssets assets;
    private final LiveCalls live;
    private final OperatorAccess access;

    Console(ConsoleAssets assets, LiveCalls live, OperatorAccess access) {
        this.assets = assets;
        this.live = live;
        this.access = access;
    }

    /** Every path the console answers (they get no CORS headers: the page is same-origin). */
    Set<String> paths() {
        Set<String> paths = new HashSet<>(assets.paths());
        paths.add(PATH);
        paths.add(PATH + "/");
        paths.add(LIVE_PATH);
        return paths;
    }

    void mount(Router router) {
        router.get(PATH).handler(access::checkOriginAndHost).handler(rc -> serve(rc, assets.page(), false));
        router.get(PATH + "/").handler(access::checkOriginAndHost).handler(rc -> serve(rc, assets.page(), false));
        router.get(ConsoleAssets.ASSETS + "*").handler(access::checkOriginAndHost).handler(rc -> {
            ConsoleAssets.Asset asset = assets.at(rc.normalizedPath());
            if (asset == null) {
                secured(rc.response()).setStatusCode(404)
                        .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                        .end("no such console file (the console's files are named by their content)\n");
                return;
            }
            serve(rc, asset, true);
        });
        router.get(LIVE_PATH).handler(access::handle).handler(rc -> secured(rc.response())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(live.snapshot().toBuffer()));
    }

    private static void serve(RoutingContext rc, ConsoleAssets.Asset asset, boolean immutable) {
        HttpServerResponse response = secured(rc.response())
                .putHeader(HttpHeaders.ETAG, asset.etag())
                .putHeader(HttpHeaders.CACHE_CONTROL, immutable ? "public, max-age=31536000, immutable" : "no-cache");
        if (asset.etag().equals(rc.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
            response.setStatusCode(304).end();
            return;
        }
        response.putHeader(HttpHeaders.CONTENT_TYPE, asset.contentType()).end(asset.body());
    }

    private static HttpServerResponse secured(HttpServerResponse response) {
        return response.putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("Referrer-Policy", "no-referrer")
                .putHeader("X-Frame-Options", "DENY")
                .putHeader("Cross-Origin-Opener-Policy", "same-origin")
                .putHeader("Cross-Origin-Resource-Policy", "same-origin");
    }
}
