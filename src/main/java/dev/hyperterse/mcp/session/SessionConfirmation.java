package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.UserConfirmation;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Asks a session's client to confirm a call of a tool marked {@code confirm: true}: an
 * {@code elicitation/create} request of the call's (a boolean {@code confirm}), sent as any request
 * to the client is ({@link CallScope#requestClient}). Only an accepted {@code confirm: true} runs
 * the tool; a decline, a cancel, an error response, the call's cancellation or no answer within
 * {@link ClientRequests#ANSWER_WITHIN} runs nothing. A question that cannot be sent (too many open
 * in the session) fails the call instead, saying why.
 */
final class SessionConfirmation implements UserConfirmation {
    private final CallScope call;

    SessionConfirmation(CallScope call) {
        this.call = call;
    }

    @Override
    public Future<Decision> ask(String tool, JsonObject inputs, String question) {
        return call.requestClient("elicitation/create", UserConfirmation.elicitation(question)).transform(ar -> {
            if (ar.failed() && !(ar.cause() instanceof CallScope.NoAnswer)) {
                return Future.failedFuture(ar.cause());
            }
            return Future.succeededFuture(ar.succeeded() && UserConfirmation.confirms(ar.result())
                    ? Decision.ACCEPTED : Decision.DECLINED);
        });
    }
}
