package dev.hyperterse.mcp.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * This node's live session state by session id (see {@link LiveSession}). Only sessions the
 * {@link SessionStore} knows reach it; an entry is dropped when its session ends.
 */
final class LiveSessions {
    /** Events kept per stream for {@code Last-Event-ID} replay. */
    static final int EVENTS_PER_STREAM = 256;
    /** Finished POST streams kept per session for a late resume. */
    static final int FINISHED_STREAMS_KEPT = 16;
    /** The most bytes of messages a session's finished POST streams keep for a late resume. */
    static final long FINISHED_BYTES_KEPT = 8L << 20;

    private final Map<String, LiveSession> sessions = new ConcurrentHashMap<>();
    private final Clock clock;

    LiveSessions(Clock clock) {
        this.clock = clock;
    }

    /** The live state of a session the store just confirmed, created on first use. */
    LiveSession of(String sessionId) {
        LiveSession live = sessions.computeIfAbsent(sessionId, id -> new LiveSession(id,
                Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, Character.MAX_RADIX),
                EVENTS_PER_STREAM, FINISHED_STREAMS_KEPT, FINISHED_BYTES_KEPT));
        live.used(clock.instant());
        return live;
    }

    /** The live state of a session, or null when this node has none. */
    LiveSession find(String sessionId) {
        return sessions.get(sessionId);
    }

    /** Ends a session's live state: its requests are cancelled and its streams closed. */
    void end(String sessionId) {
        LiveSession live = sessions.remove(sessionId);
        if (live != null) {
            live.end();
        }
    }

    /** Whether a session has a running request or an open stream on this node. */
    boolean inUse(String sessionId) {
        LiveSession live = sessions.get(sessionId);
        return live != null && live.active();
    }

    /** Whether a session has a running request on this node. */
    boolean running(String sessionId) {
        LiveSession live = sessions.get(sessionId);
        return live != null && live.runningRequests();
    }

    /** Sessions with running requests or open streams: they are in use even without new requests. */
    List<String> active() {
        return sessions.values().stream().filter(LiveSession::active).map(LiveSession::id).toList();
    }

    /**
     * Ends live state nobody used for {@code idle}: its session has expired, or was ended while a
     * request for it was being looked up, or lives on through other nodes (which then hold what
     * matters). Either way these buffers are no longer wanted.
     */
    void endUnused(Duration idle) {
        Instant cutoff = clock.instant().minus(idle);
        for (LiveSession live : List.copyOf(sessions.values())) {
            if (!live.active() && live.lastUsed().isBefore(cutoff)) {
                end(live.id());
            }
        }
    }

    /** Every session's live state on this node. */
    List<LiveSession> all() {
        return List.copyOf(sessions.values());
    }

    int size() {
        return sessions.size();
    }

    void endAll() {
        List.copyOf(sessions.keySet()).forEach(this::end);
    }
}
