package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.SseKeepAlive;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * One HTTP response turned into a {@code text/event-stream}. A stream of events outlives its
 * connections: when this one closes, the stream keeps buffering until the client resumes it.
 */
final class SseConnection {
    private final HttpServerResponse response;
    private boolean open = true;
    private SseKeepAlive keepAlive;
    private long keepAliveTimer = -1;

    private SseConnection(HttpServerResponse response) {
        this.response = response;
    }

    /**
     * Sends the status and headers at once, so the client sees the stream begin.
     *
     * @param onClose   told when the client goes away before the server ended the stream
     * @param keepAlive what keeps the connection from looking idle, or null for a stream that ends at once
     */
    static SseConnection start(HttpServerResponse response, Handler<SseConnection> onClose, SseKeepAlive keepAlive) {
        SseConnection connection = new SseConnection(response);
        if (response.closed() || response.ended()) {
            // the client left before the first event: the stream keeps its events for a resume
            connection.open = false;
            return connection;
        }
        response.closeHandler(v -> {
            if (connection.markClosed()) {
                onClose.handle(connection);
            }
        });
        response.exceptionHandler(e -> {
            if (connection.markClosed()) {
                onClose.handle(connection);
            }
        });
        SseKeepAlive.openStream(response);
        if (keepAlive != null) {
            connection.keepAlive(keepAlive);
        }
        return connection;
    }

    private synchronized void keepAlive(SseKeepAlive sender) {
        if (open) {
            keepAlive = sender;
            keepAliveTimer = sender.start(this::send);
        }
    }

    /** Writes one frame; false when the connection is gone (the caller keeps the event for replay). */
    synchronized boolean send(Buffer frame) {
        if (!open || response.ended() || response.closed()) {
            open = false;
            stopKeepAlive();
            return false;
        }
        response.write(frame);
        return true;
    }

    /** Ends the HTTP response; the stream it carried may go on over a later connection. */
    synchronized void end() {
        if (open && !response.ended() && !response.closed()) {
            response.end();
        }
        open = false;
        stopKeepAlive();
    }

    synchronized boolean isOpen() {
        return open && !response.closed();
    }

    private synchronized boolean markClosed() {
        boolean was = open;
        open = false;
        stopKeepAlive();
        return was;
    }

    private void stopKeepAlive() {
        if (keepAliveTimer >= 0) {
            keepAlive.stop(keepAliveTimer);
            keepAliveTimer = -1;
        }
    }
}
