package dev.hyperterse.model;

import java.time.Duration;

/**
 * How long the server waits on a client's connection ({@code server.http}), so slow or silent
 * clients cannot hold connections until the server runs out of them.
 *
 * @param idle    a connection on which no byte moves either way for this long is closed (SSE
 *                streams send a comment line well within it, so an open stream is never idle)
 * @param headers a request's line and headers must be complete this long after the connection
 *                opened or the previous response ended
 * @param body    a request's body must be complete this long after its headers
 */
public record HttpTimeouts(Duration idle, Duration headers, Duration body) {
    public static final HttpTimeouts DEFAULTS =
            new HttpTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(10), Duration.ofSeconds(30));

    /**
     * How often an SSE stream sends a comment line: well within the idle timeout, and at least
     * every 30 s, which also keeps proxies (60 s read timeouts are common) from closing it.
     */
    public Duration sseKeepAlive() {
        Duration third = idle.dividedBy(3);
        Duration cap = Duration.ofSeconds(30);
        Duration every = third.compareTo(cap) < 0 ? third : cap;
        return every.isZero() ? Duration.ofMillis(1) : every;
    }
}
