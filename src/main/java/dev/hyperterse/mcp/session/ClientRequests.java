package dev.hyperterse.mcp.session;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests this server sent to one session's client (such as {@code elicitation/create}) that
 * await the client's response on this node. The response arrives as a POST of its own, possibly
 * at another node of a cluster, which hands it here. At most {@link #MAX_PENDING} are open at once
 * per session: a client is asked one thing at a time per call, and no caller can make the server
 * hold questions without bound. A request is forgotten when no answer came within
 * {@link #ANSWER_WITHIN}, or when the call that sent it ends.
 */
final class ClientRequests {
    static final int MAX_PENDING = 16;
    /** Long enough for a person to read and answer a question; a model's sampling is quicker. */
    static final Duration ANSWER_WITHIN = Duration.ofMinutes(10);

    private final Map<String, Promise<JsonObject>> pending = new ConcurrentHashMap<>();

    /** Registers a request about to be sent; null when {@link #MAX_PENDING} are open already. */
    Future<JsonObject> expect(String id) {
        if (pending.size() >= MAX_PENDING) {
            return null;
        }
        Promise<JsonObject> answer = Promise.promise();
        pending.put(id, answer);
        return answer.future();
    }

    /**
     * The client's response (a JSON-RPC response object) to request {@code id}.
     *
     * @return false when no request of that id awaits one here
     */
    boolean answered(Object id, JsonObject response) {
        Promise<JsonObject> answer = id instanceof String ? pending.remove(id) : null;
        if (answer == null) {
            return false;
        }
        answer.tryComplete(response);
        return true;
    }

    /** No answer is wanted any more (the call ended, was cancelled, or waited too long). */
    void forget(String id, Throwable why) {
        Promise<JsonObject> answer = pending.remove(id);
        if (answer != null) {
            answer.tryFail(why);
        }
    }
}
