package dev.hyperterse.server;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.Redaction;
import dev.hyperterse.project.ConfigProblem;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * {@code GET /ready}: 200 when the server can serve calls, 503 when it cannot, with the status
 * of every adapter (a cheap ping each, in parallel, bounded by a timeout). While the server shuts
 * down it answers 503 at once, so load balancers stop sending new work. {@code /heartbeat} stays
 * the liveness check: the process is up.
 *
 * <p>Every probe gets the answer and whether the server is ready; the details (project name and
 * version, tool count, adapters by name with their errors, which may name a database's host and
 * port, and the tools whose statement did not prepare, with file, line and the database's reason)
 * only a caller the operator authorised ({@link OperatorAccess#authorised}). Such tools leave the
 * server ready: the others serve, and a probe failing for good would only take it out of rotation.
 * So do scripts still loading after a start ({@code "scripts": "loading"} in the details): a call
 * to one of them waits for it rather than failing. Scripts still being checked after a start are
 * another matter: one that fails its check stops the server, so until the checks pass it answers
 * 503 {@code starting} ({@code "scripts": "checking"} in the details) while serving its other tools.
 */
final class Readiness implements Handler<RoutingContext> {
    /** Kept under common probe timeouts, so a slow database shows as down rather than as a probe timeout. */
    static final Duration PING_TIMEOUT = Duration.ofSeconds(2);

    private final Vertx vertx;
    private final CurrentSnapshot current;
    private final BooleanSupplier stopping;
    private final BooleanSupplier starting;
    private final LongSupplier generation;
    private final Predicate<HttpServerRequest> detailed;

    /**
     * @param starting whether the server still checks its project's scripts after its start: it
     *                 serves its other tools meanwhile, but is not ready
     * @param detailed whether a request may see the details, not only whether the server is ready
     */
    Readiness(Vertx vertx, CurrentSnapshot current, BooleanSupplier stopping, BooleanSupplier starting,
              LongSupplier generation, Predicate<HttpServerRequest> detailed) {
        this.vertx = vertx;
        this.current = current;
        this.stopping = stopping;
        this.starting = starting;
        this.generation = generation;
        this.detailed = detailed;
    }

    @Override
    public void handle(RoutingContext rc) {
        if (stopping.getAsBoolean()) {
            answer(rc, 503, new JsonObject().put("ready", false).put("status", "stopping"));
            return;
        }
        if (starting.getAsBoolean()) {
            JsonObject body = new JsonObject().put("ready", false).put("status", "starting");
            answer(rc, 503, detailed.test(rc.request()) ? body.put("scripts", "checking") : body);
            return;
        }
        Snapshot snapshot = current.lease();
        List<Future<JsonObject>> checks = new ArrayList<>();
        Map<String, AdapterDef> adapters = snapshot.project().adapters();
        snapshot.connectors().forEach((name, connector) -> checks.add(check(name, adapters.get(name), connector)));
        Future.join(checks).onComplete(done -> {
            current.release(snapshot);
            JsonArray list = new JsonArray();
            boolean up = true;
            for (Future<JsonObject> f : checks) {
                JsonObject adapter = f.result();
                up &= "up".equals(adapter.getString("status"));
                list.add(adapter);
            }
            JsonObject body = new JsonObject().put("ready", up).put("status", up ? "ready" : "unavailable");
            if (!detailed.test(rc.request())) {
                answer(rc, up ? 200 : 503, body);
                return;
            }
            String version = snapshot.project().config().version();
            JsonArray unavailable = new JsonArray();
            for (ConfigProblem p : snapshot.unprepared()) {
                unavailable.add(new JsonObject().put("at", String.valueOf(p.location()))
                        .put("error", Redaction.secrets(p.message())));
            }
            String scripts = snapshot.scriptsStatus();
            if (scripts != null) {
                // while they load the server serves (ready): a call to one of them waits for it
                body.put("scripts", scripts);
            }
            answer(rc, up ? 200 : 503, body
                    .put("project", snapshot.project().config().name())
                    .put("version", version)
                    .put("generation", generation.getAsLong())
                    .put("tools", snapshot.project().tools().size())
                    .put("adapters", list)
                    .put("unavailable", unavailable));
        });
    }

    /** One adapter's status; never fails. Messages are the connector's safe ones, redacted again. */
    private Future<JsonObject> check(String name, AdapterDef adapter, Connector connector) {
        JsonObject status = new JsonObject().put("name", name).put("connector", adapter == null ? null : adapter.connector());
        long started = System.nanoTime();
        Promise<JsonObject> result = Promise.promise();
        long timer = vertx.setTimer(PING_TIMEOUT.toMillis(), id -> result.tryComplete(status.copy()
                .put("status", "down").put("error", "no answer within " + PING_TIMEOUT.toSeconds() + "s")));
        Future<Void> ping;
        try {
            ping = connector.ping();
        } catch (RuntimeException e) {
            ping = Future.failedFuture(e);
        }
        ping.onComplete(ar -> {
            vertx.cancelTimer(timer);
            long millis = (System.nanoTime() - started) / 1_000_000;
            result.tryComplete(ar.succeeded()
                    ? status.put("status", "up").put("latency_ms", millis)
                    : status.put("status", "down").put("latency_ms", millis)
                            .put("error", Redaction.secrets(String.valueOf(ar.cause().getMessage()))));
        });
        return result.future();
    }

    private static void answer(RoutingContext rc, int status, JsonObject body) {
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(body.toBuffer());
    }
}
