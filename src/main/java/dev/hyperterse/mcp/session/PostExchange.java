package dev.hyperterse.mcp.session;

import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LargeJson;
import dev.hyperterse.mcp.LogLevel;
import dev.hyperterse.mcp.SseKeepAlive;
import dev.hyperterse.model.ByteSizes;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The answer to one POST that carried requests. It stays undecided while the requests run: if
 * one of them sends a notification first, the answer becomes an SSE stream (notifications, then
 * each response, then the end); otherwise it is plain JSON (one object, or an array for a
 * 2025-03-26 batch). Notifications after a request's response, and responses of cancelled
 * requests, are never sent.
 *
 * <p>A batch's answers together hold at most its budget of JSON bytes, counted as each response
 * arrives (whether it is collected for the JSON answer or sent on the stream, which keeps it for a
 * resume): once they reach it, every later response is replaced by an error naming the limit.
 */
final class PostExchange {
    private final RoutingContext rc;
    private final LiveSession live;
    private final boolean priming;
    private final boolean batch;
    private final SseKeepAlive keepAlive;
    /** The most bytes of JSON the responses may hold together; 0 for no limit (one request). */
    private final long budget;
    /** Estimated bytes of the responses so far, counted no further than the budget. */
    private long answered;
    /** Told, outside the lock, each time a request has answered or was cancelled. */
    private Runnable onFinished = () -> { };
    private final List<JsonObject> collected = new ArrayList<>();
    private int requests;
    private int outstanding;
    private boolean sealed;
    private boolean completed;
    private EventStream stream;

    /**
     * @param live    the session's live state, or null for a POST without a session
     * @param priming whether SSE streams start with a priming event (sessions of 2025-11-25 and later)
     * @param batch   whether the body was a JSON array (the JSON answer is then an array)
     * @param keepAlive what keeps an SSE answer from looking idle while a call runs quietly
     */
    PostExchange(RoutingContext rc, LiveSession live, boolean priming, boolean batch, SseKeepAlive keepAlive) {
        this(rc, live, priming, batch, keepAlive, 0);
    }

    /** @param budget the most bytes of JSON the responses may hold together, or 0 for no limit */
    PostExchange(RoutingContext rc, LiveSession live, boolean priming, boolean batch, SseKeepAlive keepAlive,
                 long budget) {
        this.rc = rc;
        this.keepAlive = keepAlive;
        this.live = live;
        this.priming = priming && live != null;
        this.batch = batch;
        this.budget = budget;
    }

    /** Runs {@code listener} (not under this exchange's lock) each time a request finishes. */
    synchronized void onFinished(Runnable listener) {
        this.onFinished = listener;
    }

    /** Whether the responses so far have reached the budget: what comes next is refused. */
    synchronized boolean spent() {
        return budget > 0 && answered >= budget;
    }

    /** The error that stands for a response past the budget. */
    JsonObject pastBudget(Object id) {
        return JsonRpc.error(id, JsonRpc.SERVER_ERROR, "Batch answer limit: the answers before this one in the batch"
                + " already hold " + ByteSizes.show(budget) + " of JSON, the most one batch's answers may"
                + " (tools.result_max_bytes); send this request on its own or in a later batch");
    }

    /** A request of this POST starts running. */
    synchronized RunningRequest open(Object id, Object progressToken, LogLevel logThreshold) {
        requests++;
        outstanding++;
        return new RunningRequest(this, id, progressToken, logThreshold);
    }

    /** A response known without running anything (e.g. an invalid batch entry). */
    synchronized void respondDirectly(JsonObject response) {
        requests++;
        deliver(withinBudget(response));
    }

    /**
     * Every message of the POST was read. With no request among them the answer is 202; otherwise
     * it is complete once every request has answered or was cancelled.
     */
    synchronized void seal() {
        sealed = true;
        if (requests == 0) {
            completed = true;
            rc.response().setStatusCode(202).end();
            return;
        }
        completeIfDone();
    }

    synchronized void send(RunningRequest request, JsonObject notification) {
        if (completed || request.finished()) {
            return;
        }
        streamOpen().send(notification);
    }

    synchronized void sendProgress(RunningRequest request, double progress, JsonObject notification) {
        if (completed || request.finished() || !request.advance(progress)) {
            return;
        }
        streamOpen().send(notification);
    }

    void respond(RunningRequest request, JsonObject response) {
        finish(request, response);
    }

    void cancelled(RunningRequest request) {
        finish(request, null);
    }

    /** A request is done: its response is delivered (none when it was cancelled), once. */
    private void finish(RunningRequest request, JsonObject response) {
        Runnable finished;
        synchronized (this) {
            if (request.finished()) {
                return;
            }
            request.markFinished();
            outstanding--;
            if (response != null) {
                deliver(withinBudget(response));
            }
            completeIfDone();
            finished = onFinished;
        }
        finished.run();
    }

    /**
     * The response, counted against the budget; or, once the responses before it reached the
     * budget, the error that says so (the response itself is dropped here, not held). Counting
     * stops at the budget, so a batch's responses are walked no further than it in all.
     */
    private JsonObject withinBudget(JsonObject response) {
        if (budget <= 0) {
            return response;
        }
        if (answered >= budget) {
            return pastBudget(response.getValue("id"));
        }
        answered += ResultBudget.size(response, budget - answered);
        return response;
    }

    /** SEP-1699 polling: let go of the connection; the client resumes the stream with GET. */
    synchronized void closeConnection() {
        if (completed || !priming) {
            return;
        }
        streamOpen().dropConnection();
    }

    private void deliver(JsonObject response) {
        if (stream != null) {
            stream.send(response);
        } else {
            collected.add(response);
        }
    }

    private void completeIfDone() {
        if (!sealed || outstanding > 0 || completed) {
            return;
        }
        completed = true;
        if (stream != null) {
            stream.finish();
            if (live != null) {
                live.retire(stream);
            }
            return;
        }
        HttpServerResponse response = rc.response();
        if (response.ended() || response.closed()) {
            return;
        }
        if (collected.isEmpty()) {
            // every request was cancelled: nothing may be sent, so the stream ends empty
            SseConnection.start(response, c -> { }, null).end();
            return;
        }
        Object body = batch ? new JsonArray(new ArrayList<Object>(collected)) : collected.get(0);
        // nothing can follow this answer, so encoding a large one on a worker reorders nothing
        LargeJson.respond(response, 200, body, batch ? null : collected.get(0).getValue("id"));
    }

    /** The SSE stream of this POST, opened (with its priming event) on first use. */
    private EventStream streamOpen() {
        if (stream == null) {
            EventStream s = live != null ? live.newStream()
                    : new EventStream("", -1, false, 0);
            SseConnection connection = SseConnection.start(rc.response(), s::detach, keepAlive);
            s.attach(connection, priming);
            stream = s;
            // responses that were ready before the stream opened (batch entries) go first
            collected.forEach(s::send);
            collected.clear();
        }
        return stream;
    }
}
