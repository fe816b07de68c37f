package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LargeJson;
import dev.hyperterse.mcp.LogLevel;
import dev.hyperterse.mcp.McpException;
import dev.hyperterse.mcp.SseKeepAlive;
import dev.hyperterse.mcp.UserConfirmation;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answer to one 2026-07-28 request: plain JSON, unless the request sends a notification
 * (progress, or a log message at the level its {@code _meta} asked for) before its result; then an
 * SSE stream scoped to the request, ending with the response. Nothing is resumable and nothing is
 * sent after the response. The client closing the connection cancels the request.
 */
final class StatelessExchange implements CallScope {
    private static final Logger LOG = LoggerFactory.getLogger(StatelessExchange.class);

    private final HttpServerResponse response;
    private final RequestMeta meta;
    private final SseKeepAlive keepAlive;
    private long keepAliveTimer = -1;
    private final Promise<Void> cancel = Promise.promise();
    private boolean streaming;
    private boolean finished;
    private double lastProgress = Double.NEGATIVE_INFINITY;
    private UserConfirmation confirmation = UserConfirmation.CANNOT_ASK;
    private RoundQuestions questions;

    StatelessExchange(HttpServerResponse response, RequestMeta meta, SseKeepAlive keepAlive) {
        this.response = response;
        this.meta = meta;
        this.keepAlive = keepAlive;
        response.closeHandler(v -> closed());
    }

    /** How a tool marked {@code confirm: true} asks this request's user (an input round). */
    void confirmWith(UserConfirmation asking) {
        this.confirmation = asking;
    }

    @Override
    public UserConfirmation confirmation() {
        return confirmation;
    }

    private synchronized void closed() {
        if (!finished) {
            finished = true;
            cancel.tryComplete();
        }
        stopKeepAlive();
    }

    @Override
    public boolean wantsProgress() {
        return meta.progressToken() != null;
    }

    @Override
    public synchronized void progress(double progress, Double total, String message) {
        if (meta.progressToken() == null || finished || progress <= lastProgress) {
            return;
        }
        lastProgress = progress;
        JsonObject params = new JsonObject().put("progressToken", meta.progressToken()).put("progress", progress);
        if (total != null) {
            params.put("total", total);
        }
        if (message != null) {
            params.put("message", message);
        }
        send(notification("notifications/progress", params));
    }

    @Override
    public boolean logs(LogLevel level) {
        return meta.logLevel() != null && level.atLeast(meta.logLevel());
    }

    @Override
    public synchronized void log(LogLevel level, String logger, Object data) {
        if (finished || !logs(level)) {
            return;
        }
        send(notification("notifications/message", new JsonObject()
                .put("level", level.keyword()).put("logger", logger).put("data", data)));
    }

    @Override
    public Future<Void> cancellation() {
        return cancel.future();
    }

    @Override
    public void closeStream() {
        // 2026-07-28 streams are not resumable: a request's stream ends with its response
    }

    @Override
    public Future<JsonObject> requestClient(String method, JsonObject params) {
        return requestClient(method, params, null);
    }

    @Override
    public Future<JsonObject> requestClient(String method, JsonObject params, String key) {
        // nothing the client sends later reaches this request: it answers in a round of its own
        if (questions == null) {
            return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "cannot send " + method
                    + " to the client: protocol 2026-07-28 has no requests from server to client; a tool asks"
                    + " through an input-required result instead"));
        }
        return questions.ask(method, params, key);
    }

    /** How a handler's questions reach this request's client: input rounds. */
    void askWith(RoundQuestions rounds) {
        this.questions = rounds;
    }

    /** Sends the response (on the stream when one is open, else as JSON with {@code httpStatus}). */
    synchronized void respond(JsonObject message, int httpStatus) {
        if (finished) {
            return;
        }
        finished = true;
        stopKeepAlive();
        if (response.ended() || response.closed()) {
            return;
        }
        // nothing is sent after the response, so encoding a large one on a worker reorders nothing
        if (!streaming) {
            LargeJson.respond(response, httpStatus, message, message.getValue("id"));
            return;
        }
        LargeJson.toBuffer(message).onComplete(encoded -> {
            if (response.ended() || response.closed()) {
                return;
            }
            if (encoded.failed()) {
                LOG.error("encoding a response failed", encoded.cause());
                response.end();
                return;
            }
            response.end(frame(encoded.result()));
        });
    }

    private void send(JsonObject notification) {
        if (response.ended() || response.closed()) {
            return;
        }
        if (!streaming) {
            streaming = true;
            SseKeepAlive.openStream(response);
            // the result may be long in coming after this first notification
            keepAliveTimer = keepAlive.start(response);
        }
        response.write(frame(notification));
    }

    private void stopKeepAlive() {
        if (keepAliveTimer >= 0) {
            keepAlive.stop(keepAliveTimer);
            keepAliveTimer = -1;
        }
    }

    static Buffer frame(JsonObject message) {
        return frame(message.toBuffer());
    }

    /** An SSE event carrying an encoded message. */
    static Buffer frame(Buffer message) {
        return Buffer.buffer("event: message\ndata: ").appendBuffer(message).appendString("\n\n");
    }

    static JsonObject notification(String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("method", method).put("params", params);
    }
}
