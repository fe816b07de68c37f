package dev.hyperterse.mcp.http;

import java.util.HashMap;
import java.util.Map;

/**
 * The bytes of request bodies the server holds while they arrive, all listeners together. A body
 * takes its bytes before they are read (its declared length at once, or each chunk as it comes)
 * and gives them back when it is complete or abandoned, so whatever clients send, half-sent bodies
 * hold at most {@link #total} bytes.
 *
 * <p>Large bodies (from {@link #LARGE} bytes) may use only seven eighths of the total, and those of
 * one client a quarter of it (at least one whole body of the largest size allowed): a client that
 * opens many connections and stops each just before its end fills its own share, not the server's,
 * and ordinary calls, whose bodies are small, still find room.
 */
public final class BodyBudget {
    /** From this size on a body counts as large. */
    public static final long LARGE = 64 * 1024;

    private final long total;
    private final long largeCap;
    private final long perClient;
    private long held;
    private long largeHeld;
    private final Map<String, Long> largeByClient = new HashMap<>();

    /**
     * @param total   the most bytes held at once
     * @param maxBody the largest body accepted, which one client may always hold
     */
    public BodyBudget(long total, long maxBody) {
        this.total = total;
        this.largeCap = total - total / 8;
        this.perClient = Math.min(largeCap, Math.max(maxBody, total / 4));
    }

    public long total() {
        return total;
    }

    /** Bytes held now by bodies still arriving. */
    public synchronized long held() {
        return held;
    }

    /** One body's claim on the budget; not thread-safe (a request is served on one event loop). */
    public Claim claim(String client) {
        return new Claim(client);
    }

    private synchronized boolean take(String client, long had, long more) {
        long after = had + more;
        if (held + more > total) {
            return false;
        }
        if (after >= LARGE) {
            // the bytes it had while small count as large from now on
            long added = had >= LARGE ? more : after;
            long clientHeld = largeByClient.getOrDefault(client, 0L);
            if (largeHeld + added > largeCap || clientHeld + added > perClient) {
                return false;
            }
            largeHeld += added;
            largeByClient.put(client, clientHeld + added);
        }
        held += more;
        return true;
    }

    private synchronized void give(String client, long had) {
        held -= had;
        if (had >= LARGE) {
            largeHeld -= had;
            long left = largeByClient.getOrDefault(client, 0L) - had;
            if (left > 0) {
                largeByClient.put(client, left);
            } else {
                largeByClient.remove(client);
            }
        }
    }

    /** The bytes one body holds; {@link #release} gives them all back, once. */
    public final class Claim {
        private final String client;
        private long bytes;
        private boolean released;

        private Claim(String client) {
            this.client = client;
        }

        /** @return false, taking nothing, when {@code more} bytes do not fit (the body must then be refused) */
        public boolean grow(long more) {
            if (released || more <= 0) {
                return !released;
            }
            if (!take(client, bytes, more)) {
                return false;
            }
            bytes += more;
            return true;
        }

        public long bytes() {
            return bytes;
        }

        public void release() {
            if (!released) {
                released = true;
                give(client, bytes);
                bytes = 0;
            }
        }
    }
}
