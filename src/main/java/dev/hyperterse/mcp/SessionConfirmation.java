package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.UUID;

/**
 * Asks a session's client to confirm a call of a tool marked {@code confirm: true}: an
 * {@code elicitation/create} request on the call's own SSE stream (a boolean {@code confirm}), whose
 * response the client POSTs back. Only an accepted {@code confirm: true} runs the tool; a decline,
 * a cancel, an error response, the call's cancellation or no answer within {@link #ANSWER_WITHIN}
 * runs nothing.
 */
final class SessionConfirmation implements UserConfirmation {
    static final Duration ANSWER_WITHIN = Duration.ofMinutes(10);
    static final String KEY = "confirm";

    private final Vertx vertx;
    private final LiveSession session;
    private final RunningRequest request;

    SessionConfirmation(Vertx vertx, LiveSession session, RunningRequest request) {
        this.vertx = vertx;
        this.session = session;
        this.request = request;
    }

    @Override
    public Future<Decision> ask(String tool, JsonObject inputs, String question) {
        String id = "hyperterse-confirm-" + UUID.randomUUID();
        ClientRequests open = session.clientRequests();
        Future<JsonObject> answer = open.expect(id);
        if (answer == null) {
            return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "too many questions to the user are"
                    + " open in this session (at most " + ClientRequests.MAX_PENDING + "); answer them first"));
        }
        long timer = vertx.setTimer(ANSWER_WITHIN.toMillis(),
                t -> open.forget(id, new IllegalStateException("no answer within " + ANSWER_WITHIN.toMinutes() + " minutes")));
        request.cancellation().onComplete(c -> open.forget(id, new IllegalStateException("the call was cancelled")));
        request.sendToClient(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "elicitation/create")
                .put("params", new JsonObject().put("message", question).put("requestedSchema", new JsonObject()
                        .put("type", "object")
                        .put("properties", new JsonObject().put(KEY, new JsonObject().put("type", "boolean")
                                .put("description", "true to run the tool")))
                        .put("required", new JsonArray().add(KEY)))));
        return answer.transform(ar -> {
            vertx.cancelTimer(timer);
            return Future.succeededFuture(ar.succeeded() && accepted(ar.result()) ? Decision.ACCEPTED : Decision.DECLINED);
        });
    }

    /** An ElicitResult with {@code action: accept} and {@code content.confirm: true}. */
    private static boolean accepted(JsonObject response) {
        Object result = response.getValue("result");
        if (!(result instanceof JsonObject) || !"accept".equals(((JsonObject) result).getValue("action"))) {
            return false;
        }
        Object content = ((JsonObject) result).getValue("content");
        return content instanceof JsonObject && Boolean.TRUE.equals(((JsonObject) content).getValue(KEY));
    }
}
