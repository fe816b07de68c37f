package dev.hyperterse.model;

import java.time.Duration;

/**
 * What the server grants a client's connection ({@code server.http}), so slow, silent or
 * half-finished clients cannot hold connections or memory until the server runs out of them.
 *
 * @param idle           a connection on which no byte moves either way for this long is closed (SSE
 *                       streams send a comment line well within it, so an open stream is never idle)
 * @param headers        a request's line and headers must be complete this long after the connection
 *                       opened or the previous response ended
 * @param body           a request's body must be complete this long after its headers
 * @param bodiesInFlight the most bytes of request bodies held while they arrive, all clients
 *                       together; 0 for {@link #AUTO_BODIES_IN_FLIGHT}
 */
public record HttpLimits(Duration idle, Duration headers, Duration body, long bodiesInFlight) {
    public static final HttpLimits DEFAULTS =
            new HttpLimits(Duration.ofMinutes(5), Duration.ofSeconds(10), Duration.ofSeconds(30), 0);
    /** {@code bodies_in_flight: auto}: a quarter of the heap the JVM may grow to. */
    public static final long AUTO_BODIES_IN_FLIGHT = 0;

    /**
     * The body budget in bytes: as set, or a quarter of the maximum heap (at least 16 MiB, so a
     * tiny heap still takes a few bodies at a time).
     */
    public long bodiesInFlightBytes() {
        if (bodiesInFlight > 0) {
            return bodiesInFlight;
        }
        return Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 4);
    }

    /**
     * How often an SSE stream sends a comment line: well within the idle timeout, and at least
     * every 30 s, which also keeps proxies (60 s read timeouts are common) from closing it.
     */
    public Duration sseKeepAlive() {
        // in nanoseconds: Duration.dividedBy and multipliedBy go through BigDecimal, whose set-up
        // (tens of milliseconds in a fresh JVM) a start need not pay
        Duration cap = Duration.ofSeconds(30);
        Duration every = idle.compareTo(Duration.ofSeconds(90)) >= 0 ? cap : Duration.ofNanos(idle.toNanos() / 3);
        return every.isZero() ? Duration.ofMillis(1) : every;
    }
}
