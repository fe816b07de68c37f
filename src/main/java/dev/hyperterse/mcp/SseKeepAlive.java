package dev.hyperterse.mcp;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

import java.util.function.Predicate;

/**
 * How often an open SSE stream sends a comment line (which clients ignore) while it has nothing
 * else to send, so the server's idle timeout and proxies between it and the client never take a
 * quiet stream for a dead one ({@code server.http.idle_timeout}: every third of it, at most 30 s).
 * Every generation's streams use it: resumable session streams and 2026-07-28 request and
 * listen streams alike.
 *
 * @param vertx       whose timers send it
 * @param everyMillis the interval
 */
public record SseKeepAlive(Vertx vertx, long everyMillis) {
    static final Buffer COMMENT = Buffer.buffer(": keep-alive\n\n");

    /**
     * Turns {@code response} into a {@code text/event-stream} and sends its status and headers at
     * once, so the client sees the stream begin.
     */
    public static void openStream(HttpServerResponse response) {
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

    /**
     * Sends the comment through {@code send} every interval until it answers false (the connection
     * stopped taking frames); returns the timer.
     */
    public long start(Predicate<Buffer> send) {
        return vertx.setPeriodic(everyMillis, everyMillis, timer -> {
            if (!send.test(COMMENT)) {
                vertx.cancelTimer(timer);
            }
        });
    }

    /**
     * Sends the comment on a stream that ends with its HTTP response every interval, until the
     * response ends or its connection closes; returns the timer.
     */
    public long start(HttpServerResponse response) {
        return vertx.setPeriodic(everyMillis, everyMillis, timer -> {
            if (response.ended() || response.closed()) {
                vertx.cancelTimer(timer);
            } else {
                response.write(COMMENT);
            }
        });
    }

    public void stop(long timer) {
        vertx.cancelTimer(timer);
    }
}
