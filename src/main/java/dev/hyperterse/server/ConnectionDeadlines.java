package dev.hyperterse.server;

import dev.hyperterse.model.HttpTimeouts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deadlines a client must meet on its connection, so a slow or silent client cannot hold one
 * open (Vert.x's own idle timeout only sees a connection where nothing moves; a client that sends
 * one byte now and then never trips it). A request's line and headers must be complete within
 * {@link HttpTimeouts#headers()} of the connection opening or (HTTP/1) of its previous response
 * ending, else the connection is closed; its body must be complete within
 * {@link HttpTimeouts#body()} of its headers, else it gets 408 and the connection is closed.
 * Long answers (SSE streams, slow calls) are not limited here: the server is the one sending.
 */
final class ConnectionDeadlines {
    private final Vertx vertx;
    private final long headerMillis;
    private final long bodyMillis;
    private final Map<HttpConnection, Watch> watched = new ConcurrentHashMap<>();

    ConnectionDeadlines(Vertx vertx, HttpTimeouts timeouts) {
        this.vertx = vertx;
        this.headerMillis = Math.max(1, timeouts.headers().toMillis());
        this.bodyMillis = Math.max(1, timeouts.body().toMillis());
    }

    /** For {@code HttpServer.connectionHandler}: the first request's headers are due now. */
    void opened(HttpConnection connection) {
        Watch watch = new Watch(connection);
        watched.put(connection, watch);
        connection.closeHandler(v -> {
            watched.remove(connection);
            watch.closed();
        });
        watch.awaitHeaders();
    }

    /** The router's first handler: a request's headers arrived; its body is due. */
    void handle(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        Watch watch = watched.get(request.connection());
        if (watch != null) {
            watch.requestStarted(request.version());
        }
        long bodyTimer = request.isEnded() ? -1 : vertx.setTimer(bodyMillis, id -> bodyOverdue(rc));
        rc.addEndHandler(done -> {
            if (bodyTimer >= 0) {
                vertx.cancelTimer(bodyTimer);
            }
            if (watch != null) {
                watch.responseEnded();
            }
        });
        rc.next();
    }

    private static void bodyOverdue(RoutingContext rc) {
        if (rc.request().isEnded()) {
            return;
        }
        HttpServerResponse response = rc.response();
        if (!response.headWritten() && !response.closed()) {
            response.setStatusCode(408)
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                    .end("Request Timeout: the body did not arrive in time\n");
        }
        rc.request().connection().close();
    }

    /** One connection: the timer for the next request's headers, and how many of its requests are open. */
    private final class Watch {
        private final HttpConnection connection;
        private long headerTimer = -1;
        private int open;
        private boolean multiplexed;
        private boolean closed;

        Watch(HttpConnection connection) {
            this.connection = connection;
        }

        synchronized void awaitHeaders() {
            if (closed || multiplexed || open > 0 || headerTimer >= 0) {
                return;
            }
            headerTimer = vertx.setTimer(headerMillis, id -> headersOverdue());
        }

        synchronized void requestStarted(HttpVersion version) {
            open++;
            // HTTP/2 streams come and go at will on one connection; only its first request is due
            multiplexed |= version == HttpVersion.HTTP_2;
            cancel();
        }

        void responseEnded() {
            synchronized (this) {
                open = Math.max(0, open - 1);
            }
            awaitHeaders();
        }

        synchronized void closed() {
            closed = true;
            cancel();
        }

        private void headersOverdue() {
            synchronized (this) {
                headerTimer = -1;
                if (closed || open > 0) {
                    return;
                }
            }
            connection.close();
        }

        private void cancel() {
            if (headerTimer >= 0) {
                vertx.cancelTimer(headerTimer);
                headerTimer = -1;
            }
        }
    }
}
