package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LogLevel;
import dev.hyperterse.mcp.McpException;
import dev.hyperterse.mcp.UserConfirmation;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/**
 * One JSON-RPC request being answered within a POST: how its notifications and its response
 * reach the client (through its {@link PostExchange}), and its cancellation.
 */
final class RunningRequest implements CallScope {

    private final PostExchange exchange;
    private final Object id;
    private final Object progressToken;
    private final LogLevel logThreshold;
    private final Promise<Void> cancel = Promise.promise();
    // guarded by the exchange
    private boolean finished;
    private double lastProgress = Double.NEGATIVE_INFINITY;
    private UserConfirmation confirmation = UserConfirmation.CANNOT_ASK;
    /** Makes the session's client as this request reaches it; null without a session. */
    private java.util.function.Supplier<SessionClient> reach;
    /** The session's client, made the first time the call sends it a request. */
    private SessionClient client;
    /** Why no request may reach the client any more, once the call ended; null while it runs. */
    private String ended;

    /**
     * @param progressToken the request's {@code _meta.progressToken}, or null
     * @param logThreshold  the session's log level, or null when the client set none (no logs)
     */
    RunningRequest(PostExchange exchange, Object id, Object progressToken, LogLevel logThreshold) {
        this.exchange = exchange;
        this.id = id;
        this.progressToken = progressToken;
        this.logThreshold = logThreshold;
    }

    /** The JSON-RPC id as the client sent it. */
    Object id() {
        return id;
    }

    /** The id as the running-request registry keys it. */
    Object key() {
        return LiveSession.normalise(id);
    }

    @Override
    public boolean wantsProgress() {
        return progressToken != null;
    }

    @Override
    public void progress(double progress, Double total, String message) {
        if (progressToken == null) {
            return;
        }
        JsonObject params = new JsonObject().put("progressToken", progressToken).put("progress", progress);
        if (total != null) {
            params.put("total", total);
        }
        if (message != null) {
            params.put("message", message);
        }
        exchange.sendProgress(this, progress, notification("notifications/progress", params));
    }

    @Override
    public boolean logs(LogLevel level) {
        return logThreshold != null && level.atLeast(logThreshold);
    }

    @Override
    public void log(LogLevel level, String logger, Object data) {
        if (!logs(level)) {
            return;
        }
        exchange.send(this, notification("notifications/message", new JsonObject()
                .put("level", level.keyword()).put("logger", logger).put("data", data)));
    }

    /** How a tool marked {@code confirm: true} asks this request's user. */
    void confirmWith(UserConfirmation asking) {
        this.confirmation = asking;
    }

    @Override
    public UserConfirmation confirmation() {
        return confirmation;
    }

    /**
     * How this request reaches the session's client, made only if the call sends it a request
     * (most calls never do).
     */
    synchronized void reachClientThrough(java.util.function.Supplier<SessionClient> sessionClient) {
        this.reach = sessionClient;
    }

    @Override
    public Future<JsonObject> requestClient(String method, JsonObject params) {
        SessionClient reached;
        synchronized (this) {
            if (client == null && reach != null) {
                client = reach.get();
                if (ended != null) {
                    client.ended(ended);
                }
            }
            reached = client;
        }
        if (reached == null) {
            return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "cannot send " + method
                    + " to the client: this request came without a session (Mcp-Session-Id), so the client's"
                    + " response could not be matched to it"));
        }
        return reached.request(method, params);
    }

    /** Sends a request of the server's to the client on this call's stream, before its response. */
    void sendToClient(JsonObject message) {
        exchange.send(this, message);
    }

    @Override
    public Future<Void> cancellation() {
        return cancel.future();
    }

    @Override
    public void closeStream() {
        exchange.closeConnection();
    }

    /** Sends the response, unless the request was cancelled; the client's answers are no longer awaited. */
    void respond(JsonObject response) {
        clientDone("the call ended before the client answered");
        exchange.respond(this, response);
    }

    /**
     * The client cancelled: no response will be sent, and the work is told to stop. Marking the
     * exchange first means a result racing in after this is dropped.
     */
    void cancel() {
        exchange.cancelled(this);
        clientDone("the call was cancelled");
        cancel.tryComplete();
    }

    private void clientDone(String why) {
        SessionClient reached;
        synchronized (this) {
            if (ended != null) {
                return;
            }
            ended = why;
            reached = client;
        }
        if (reached != null) {
            reached.ended(why);
        }
    }

    // ---- state the exchange guards ----

    boolean finished() {
        return finished;
    }

    void markFinished() {
        finished = true;
    }

    /** True when {@code progress} exceeds the last value sent; then it becomes the last value. */
    boolean advance(double progress) {
        if (progress <= lastProgress) {
            return false;
        }
        lastProgress = progress;
        return true;
    }

    private static JsonObject notification(String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("method", method).put("params", params);
    }
}
