package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.McpException;
import dev.hyperterse.model.CallerText;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A session's client as one running call reaches it: the server's requests go out on the call's own
 * SSE stream, and each response comes back as a POST of the client's, possibly to another node,
 * which hands it to the session's {@link ClientRequests}. Bounded as those are: at most
 * {@link ClientRequests#MAX_PENDING} open per session, each forgotten after its answer time and
 * when the call ends or is cancelled, so nothing waits for a client that went away.
 */
final class SessionClient {
    /** The capability a client declares at initialize to be sent each method; other methods (ping) need none. */
    private static final Map<String, String> NEEDS = Map.of(
            "elicitation/create", "elicitation",
            "sampling/createMessage", "sampling",
            "roots/list", "roots");

    private final Vertx vertx;
    private final Session session;
    private final ClientRequests open;
    private final Consumer<JsonObject> stream;
    private final Duration answerWithin;
    /** This call's requests that await an answer: id → method. */
    private final Map<String, String> awaiting = new ConcurrentHashMap<>();
    /** Why no request may be sent any more, once the call ended; null while it runs. */
    private volatile String ended;

    /**
     * @param stream sends a message on the call's own stream, before its response
     */
    SessionClient(Vertx vertx, Session session, ClientRequests open, Consumer<JsonObject> stream, Duration answerWithin) {
        this.vertx = vertx;
        this.session = session;
        this.open = open;
        this.stream = stream;
        this.answerWithin = answerWithin;
    }

    /** See {@link CallScope#requestClient}. */
    Future<JsonObject> request(String method, JsonObject params) {
        String needed = NEEDS.get(method);
        if (needed != null && !session.declares(needed)) {
            return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "cannot send " + method
                    + " to the client: it did not declare the '" + needed + "' capability at initialize"));
        }
        if (ended != null) {
            return Future.failedFuture(new CallScope.NoAnswer(method, ended));
        }
        String id = "hyperterse-" + UUID.randomUUID();
        Future<JsonObject> response = open.expect(id);
        if (response == null) {
            return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "cannot send " + method
                    + " to the client: " + ClientRequests.MAX_PENDING + " requests to it await answers in this"
                    + " session already; answer them first"));
        }
        awaiting.put(id, method);
        String why = ended;
        if (why != null) {
            // the call ended while this request was being registered: ended() may have missed it
            forget(id, why);
            return Future.failedFuture(new CallScope.NoAnswer(method, why));
        }
        // the answer may arrive on any thread (another connection's event loop, the event bus):
        // the call continues on its own context, as it started
        Context context = vertx.getOrCreateContext();
        long timer = vertx.setTimer(answerWithin.toMillis(), t -> forget(id, "no answer within " + shown(answerWithin)));
        Promise<JsonObject> result = Promise.promise();
        response.onComplete(ar -> {
            vertx.cancelTimer(timer);
            awaiting.remove(id);
            if (Vertx.currentContext() == context) {
                settle(result, method, ar.succeeded() ? ar.result() : null, ar.cause());
            } else {
                context.runOnContext(v -> settle(result, method, ar.succeeded() ? ar.result() : null, ar.cause()));
            }
        });
        stream.accept(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method)
                .put("params", params == null ? new JsonObject() : params));
        return result.future();
    }

    /** The call ended (or was cancelled): its requests are forgotten and no more are sent. */
    void ended(String why) {
        ended = why;
        for (String id : awaiting.keySet()) {
            forget(id, why);
        }
    }

    private void forget(String id, String why) {
        String method = awaiting.remove(id);
        if (method != null) {
            open.forget(id, new CallScope.NoAnswer(method, why));
        }
    }

    /** The response's result, or why there is none (an error response names the client's code and message). */
    private static void settle(Promise<JsonObject> result, String method, JsonObject response, Throwable failed) {
        if (failed != null) {
            result.fail(failed instanceof CallScope.NoAnswer ? failed : new CallScope.NoAnswer(method, failed.toString()));
            return;
        }
        Object answer = response.getValue("result");
        if (answer instanceof JsonObject) {
            result.complete((JsonObject) answer);
            return;
        }
        Object error = response.getValue("error");
        if (error instanceof JsonObject) {
            Object code = ((JsonObject) error).getValue("code");
            Object message = ((JsonObject) error).getValue("message");
            result.fail(new CallScope.NoAnswer(method, "the client answered with error " + code
                    + (message instanceof String ? ": " + CallerText.cut((String) message) : "")));
            return;
        }
        result.fail(new CallScope.NoAnswer(method, "the client's response holds neither a result object nor an error"));
    }

    private static String shown(Duration d) {
        if (d.toMillis() % 60_000 != 0) {
            return d.toMillis() + " ms";
        }
        return d.toMinutes() == 1 ? "1 minute" : d.toMinutes() + " minutes";
    }
}
