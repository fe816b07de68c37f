package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.CallScope;
import dev.hyperterse.mcp.LogLevel;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * The answer to one 2026-07-28 request: plain JSON, unless the request sends a notification
 * (progress, or a log message at the level its {@code _meta} asked for) before its result; then an
 * SSE stream scoped to the request, ending with the response. Nothing is resumable and nothing is
 * sent after the response. The client closing the connection cancels the request.
 */
final class StatelessExchange implements CallScope {
    static final String LOGGER = "hyperterse";

    private final HttpServerResponse response;
    private final RequestMeta meta;
    private final Promise<Void> cancel = Promise.promise();
    private boolean streaming;
    private boolean finished;
    private double lastProgress = Double.NEGATIVE_INFINITY;

    StatelessExchange(HttpServerResponse response, RequestMeta meta) {
        this.response = response;
        this.meta = meta;
        response.closeHandler(v -> closed());
    }

    private synchronized void closed() {
        if (!finished) {
            finished = true;
            cancel.tryComplete();
        }
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
    public synchronized void log(LogLevel level, String message) {
        if (finished || !logs(level)) {
            return;
        }
        send(notification("notifications/message", new JsonObject()
                .put("level", level.keyword()).put("logger", LOGGER).put("data", message)));
    }

    @Override
    public Future<Void> cancellation() {
        return cancel.future();
    }

    @Override
    public void closeStream() {
        // 2026-07-28 streams are not resumable: a request's stream ends with its response
    }

    /** Sends the response (on the stream when one is open, else as JSON with {@code httpStatus}). */
    synchronized void respond(JsonObject message, int httpStatus) {
        if (finished) {
            return;
        }
        finished = true;
        if (response.ended() || response.closed()) {
            return;
        }
        if (streaming) {
            response.end(frame(message));
            return;
        }
        response.setStatusCode(httpStatus).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(message.toBuffer());
    }

    private void send(JsonObject notification) {
        if (response.ended() || response.closed()) {
            return;
        }
        if (!streaming) {
            streaming = true;
            openStream(response);
        }
        response.write(frame(notification));
    }

    /** Starts an SSE response at once, so the client sees the stream begin. */
    static void openStream(HttpServerResponse response) {
        response.setStatusCode(200)
                .setChunked(true)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
                // identity keeps the response compressor from holding events back; proxies such
                // as nginx buffer unless told not to
                .putHeader(HttpHeaders.CONTENT_ENCODING, HttpHeaders.IDENTITY)
                .putHeader("X-Accel-Buffering", "no");
        response.writeHead();
    }

    static Buffer frame(JsonObject message) {
        return Buffer.buffer("event: message\ndata: ").appendBuffer(message.toBuffer()).appendString("\n\n");
    }

    static JsonObject notification(String method, JsonObject params) {
        return new JsonObject().put("jsonrpc", "2.0").put("method", method).put("params", params);
    }
}
