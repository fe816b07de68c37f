package dev.hyperterse.server;

import dev.hyperterse.model.HttpLimits;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deadlines a client must meet on its connection, so a slow or silent client cannot hold one
 * open (Vert.x's own idle timeout only sees a connection where nothing moves; a client that sends
 * one byte now and then never trips it). A request's line and headers must be complete within
 * {@link HttpLimits#headers()} of the connection opening or (HTTP/1) of its previous response
 * ending, else the connection is closed; its body must be complete within
 * {@link HttpLimits#body()} of its headers, else it gets 408 and the connection is closed.
 * Long answers (SSE streams, slow calls) are not limited here: the server is the one sending.
 *
 * <p>No timer is armed per request: each connection records when its next deadline falls, and
 * one periodic sweep ({@link #start}) acts on those past due, on the connection's own context. A
 * deadline therefore acts up to one sweep period after it falls: a tenth of the shorter of the two
 * timeouts, between 10 ms and 1 s.
 */
final class ConnectionDeadlines {
    private static final long MIN_SWEEP_MILLIS = 10;
    private static final long MAX_SWEEP_MILLIS = 1000;

    private final Vertx vertx;
    private final long headerMillis;
    private final long bodyMillis;
    private final long headerNanos;
    private final long bodyNanos;
    private final Map<HttpConnection, Watch> watched = new ConcurrentHashMap<>();
    private long sweeper = -1;

    ConnectionDeadlines(Vertx vertx, HttpLimits timeouts) {
        this.vertx = vertx;
        this.headerMillis = Math.max(1, timeouts.headers().toMillis());
        this.bodyMillis = Math.max(1, timeouts.body().toMillis());
        this.headerNanos = headerMillis * 1_000_000L;
        this.bodyNanos = bodyMillis * 1_000_000L;
    }

    /** How often the deadlines are checked: a tenth of the shorter timeout, between 10 ms and 1 s. */
    long sweepMillis() {
        return Math.max(MIN_SWEEP_MILLIS, Math.min(MAX_SWEEP_MILLIS, Math.min(headerMillis, bodyMillis) / 10));
    }

    /** Starts the periodic sweep; {@link #stop} ends it. */
    synchronized void start() {
        if (sweeper < 0) {
            sweeper = vertx.setPeriodic(sweepMillis(), id -> sweep(System.nanoTime()));
        }
    }

    synchronized void stop() {
        if (sweeper >= 0) {
            vertx.cancelTimer(sweeper);
            sweeper = -1;
        }
    }

    /** For {@code HttpServer.connectionHandler}: the first request's headers are due now. */
    void opened(HttpConnection connection) {
        Watch watch = new Watch(connection, Vertx.currentContext());
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
        if (watch == null) {
            // not seen opening (closed meanwhile): a timer of its own
            long bodyTimer = request.isEnded() ? -1 : vertx.setTimer(bodyMillis, id -> bodyOverdue(rc));
            if (bodyTimer >= 0) {
                rc.addEndHandler(done -> vertx.cancelTimer(bodyTimer));
            }
            rc.next();
            return;
        }
        BodyDue body = request.isEnded() ? null : new BodyDue(rc, Vertx.currentContext(), System.nanoTime() + bodyNanos);
        watch.requestStarted(request.version(), body);
        rc.addEndHandler(done -> watch.responseEnded(body));
        rc.next();
    }

    /** Acts on every deadline past at {@code now} (a {@link System#nanoTime()}). */
    void sweep(long now) {
        for (Watch watch : watched.values()) {
            watch.sweep(now);
        }
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

    private static void onContext(Context context, Runnable action) {
        if (context == null) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    /** A request whose body is due by {@code due}, answered on its own context when it is late. */
    private record BodyDue(RoutingContext rc, Context context, long due) {
    }

    /** One connection: when the next request's headers are due, its requests open and their bodies due. */
    private final class Watch {
        private final HttpConnection connection;
        private final Context context;
        /** When the next request's headers are due ({@link System#nanoTime()}); 0: none is. Guarded by this. */
        private long headersDue;
        private int open;
        private boolean multiplexed;
        private boolean closed;
        /** Requests whose bodies are due (one at a time but for HTTP/2). Guarded by this. */
        private List<BodyDue> bodies;

        Watch(HttpConnection connection, Context context) {
            this.connection = connection;
            this.context = context;
        }

        synchronized void awaitHeaders() {
            if (closed || multiplexed || open > 0 || headersDue != 0) {
                return;
            }
            headersDue = nonZero(System.nanoTime() + headerNanos);
        }

        synchronized void requestStarted(HttpVersion version, BodyDue body) {
            open++;
            // HTTP/2 streams come and go at will on one connection; only its first request is due
            multiplexed |= version == HttpVersion.HTTP_2;
            headersDue = 0;
            if (body != null) {
                if (bodies == null) {
                    bodies = new ArrayList<>(1);
                }
                bodies.add(body);
            }
        }

        void responseEnded(BodyDue body) {
            synchronized (this) {
                open = Math.max(0, open - 1);
                if (body != null && bodies != null) {
                    bodies.remove(body);
                }
            }
            awaitHeaders();
        }

        synchronized void closed() {
            closed = true;
            headersDue = 0;
            bodies = null;
        }

        void sweep(long now) {
            boolean headersLate;
            List<BodyDue> late = null;
            synchronized (this) {
                if (closed) {
                    return;
                }
                headersLate = headersDue != 0 && now - headersDue >= 0 && open == 0;
                if (headersLate) {
                    headersDue = 0;
                }
                if (bodies != null) {
                    for (Iterator<BodyDue> it = bodies.iterator(); it.hasNext(); ) {
                        BodyDue body = it.next();
                        if (now - body.due() >= 0) {
                            it.remove();
                            if (late == null) {
                                late = new ArrayList<>(1);
                            }
                            late.add(body);
                        }
                    }
                }
            }
            if (headersLate) {
                onContext(context, this::closeIfStillIdle);
            }
            if (late != null) {
                for (BodyDue body : late) {
                    onContext(body.context(), () -> bodyOverdue(body.rc()));
                }
            }
        }

        private void closeIfStillIdle() {
            synchronized (this) {
                if (closed || open > 0) {
                    return;
                }
            }
            connection.close();
        }
    }

    private static long nonZero(long nanos) {
        return nanos == 0 ? 1 : nanos;
    }
}
