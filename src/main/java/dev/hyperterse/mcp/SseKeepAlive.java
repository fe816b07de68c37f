package dev.hyperterse.mcp;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;

/**
 * How often an open SSE connection sends a comment line (which clients ignore) while it has
 * nothing else to send, so the server's idle timeout and proxies between it and the client
 * never take a quiet stream for a dead one.
 *
 * @param vertx       whose timers send it
 * @param everyMillis the interval
 */
record SseKeepAlive(Vertx vertx, long everyMillis) {
    static final Buffer COMMENT = Buffer.buffer(": keep-alive\n\n");

    /** Sends the comment on the connection every interval until it stops taking frames; returns the timer. */
    long start(SseConnection connection) {
        return vertx.setPeriodic(everyMillis, everyMillis, timer -> {
            if (!connection.send(COMMENT)) {
                vertx.cancelTimer(timer);
            }
        });
    }

    void stop(long timer) {
        vertx.cancelTimer(timer);
    }
}
