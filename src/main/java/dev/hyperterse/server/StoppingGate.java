package dev.hyperterse.server;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What a stopping node does with the requests that still reach it. While it drains it serves them,
 * each answer with {@code Connection: close}, so the client's next request opens a connection the
 * balancer may route elsewhere. Once the drain is over it refuses them: {@code 503}, a JSON-RPC
 * error saying the request was not run, and {@code Connection: close}; a balancer may send such a
 * request to another node (the shipped nginx configuration does), since nothing of it ran. The node
 * stops listening only once requests stopped arriving ({@link #quiet}): closing a listener drops
 * the connections a balancer opened in that moment, with requests already written on them, which
 * a balancer cannot safely send elsewhere. A balancer that probes {@code /ready} has stopped
 * sending by then and sees none of this; open-source nginx learns that the node is gone when it
 * passes on a refused request (see deploy/nginx.conf).
 */
final class StoppingGate {
    /** Answered as usual while the node refuses: liveness, and readiness (which says 503 itself). */
    private final Set<String> alwaysServed;
    private final LongSupplier nanoTime;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicBoolean refusing = new AtomicBoolean();
    private final AtomicLong lastRequest = new AtomicLong();

    StoppingGate(Set<String> alwaysServed, LongSupplier nanoTime) {
        this.alwaysServed = Set.copyOf(alwaysServed);
        this.nanoTime = nanoTime;
    }

    /** The node drains: requests are served, connections not kept. */
    void drain() {
        stopping.set(true);
    }

    boolean stopping() {
        return stopping.get();
    }

    /** The drain is over: requests are refused, unrun. */
    void refuse() {
        stopping.set(true);
        lastRequest.set(nanoTime.getAsLong());
        refusing.set(true);
    }

    /** The router's first handler. */
    void handle(RoutingContext rc) {
        if (!stopping.get()) {
            rc.next();
            return;
        }
        rc.response().putHeader(HttpHeaders.CONNECTION, "close");
        if (!refusing.get() || alwaysServed.contains(rc.request().path())) {
            rc.next();
            return;
        }
        lastRequest.set(nanoTime.getAsLong());
        rc.response().setStatusCode(503)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.RETRY_AFTER, "0")
                .end(new JsonObject().put("jsonrpc", "2.0").putNull("id").put("error", new JsonObject()
                        .put("code", -32000)
                        .put("message", "Service Unavailable: this server is stopping; the request was not run, "
                                + "send it again (to another server)")).toBuffer());
    }

    /**
     * Completes once no request was refused for {@code quietMillis}, or after {@code maxMillis}
     * however many still arrive.
     */
    Future<Void> quiet(Vertx vertx, long quietMillis, long maxMillis) {
        Promise<Void> done = Promise.promise();
        long started = nanoTime.getAsLong();
        long step = Math.max(10, Math.min(100, quietMillis / 5));
        vertx.setPeriodic(step, step, id -> {
            long now = nanoTime.getAsLong();
            if (now - lastRequest.get() >= quietMillis * 1_000_000 || now - started >= maxMillis * 1_000_000) {
                vertx.cancelTimer(id);
                done.tryComplete();
            }
        });
        return done.future();
    }
}
