package dev.hyperterse.mcp.session;

import io.vertx.core.buffer.Buffer;

/**
 * One server-sent event carrying a JSON-RPC message.
 *
 * @param seq  position in its stream (the part of the id after the dash)
 * @param id   the SSE {@code id}, or null on streams that cannot be resumed (no session)
 * @param data the JSON-RPC message, encoded on one line (UTF-8)
 */
record SseEvent(long seq, String id, Buffer data) {
    /** How long a client should wait before it reconnects to a stream the server closed. */
    static final int RETRY_MILLIS = 1000;

    Buffer frame() {
        String head = id != null ? "id: " + id + "\nevent: message\ndata: " : "event: message\ndata: ";
        return Buffer.buffer(head.length() + data.length() + 2).appendString(head).appendBuffer(data).appendString("\n\n");
    }

    /**
     * The 2025-11-25 priming event: an id the client can resume from, the reconnection delay and
     * empty data, which clients skip.
     */
    static Buffer primingFrame(String id) {
        return Buffer.buffer("id: " + id + "\nretry: " + RETRY_MILLIS + "\ndata: \n\n");
    }
}
