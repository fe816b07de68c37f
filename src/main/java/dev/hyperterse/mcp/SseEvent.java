package dev.hyperterse.mcp;

import io.vertx.core.buffer.Buffer;

/**
 * One server-sent event carrying a JSON-RPC message.
 *
 * @param seq  position in its stream (the part of the id after the dash)
 * @param id   the SSE {@code id}, or null on streams that cannot be resumed (no session)
 * @param data the JSON-RPC message, encoded on one line
 */
record SseEvent(long seq, String id, String data) {
    /** How long a client should wait before it reconnects to a stream the server closed. */
    static final int RETRY_MILLIS = 1000;

    Buffer frame() {
        StringBuilder b = new StringBuilder(data.length() + 40);
        if (id != null) {
            b.append("id: ").append(id).append('\n');
        }
        return Buffer.buffer(b.append("event: message\ndata: ").append(data).append("\n\n").toString());
    }

    /**
     * The 2025-11-25 priming event: an id the client can resume from, the reconnection delay and
     * empty data, which clients skip.
     */
    static Buffer primingFrame(String id) {
        return Buffer.buffer("id: " + id + "\nretry: " + RETRY_MILLIS + "\ndata: \n\n");
    }
}
