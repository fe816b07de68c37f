package dev.hyperterse.mcp;

import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions in this JVM's memory, with idle expiry and a cap on live sessions. Ids are 192 random
 * bits from {@link SecureRandom}, URL-safe base64 (visible ASCII only).
 */
public final class LocalSessionStore implements SessionStore {
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final SessionIds ids = new SessionIds();
    private final Duration idleTimeout;
    private final int maxSessions;
    private final Clock clock;

    public LocalSessionStore(Duration idleTimeout, int maxSessions, Clock clock) {
        this.idleTimeout = idleTimeout;
        this.maxSessions = maxSessions;
        this.clock = clock;
    }

    @Override
    public Future<Optional<Session>> create(String protocolVersion) {
        // The cap is checked, then expired sessions are dropped and it is checked again; two
        // concurrent creates may overshoot it by one, which a cap against exhaustion tolerates.
        if (sessions.size() >= maxSessions) {
            dropExpired();
            if (sessions.size() >= maxSessions) {
                return Future.succeededFuture(Optional.empty());
            }
        }
        String id = ids.next();
        Instant now = clock.instant();
        Session session = new Session(id, protocolVersion, null, now, now);
        sessions.put(id, session);
        return Future.succeededFuture(Optional.of(session));
    }

    @Override
    public Future<Optional<Session>> find(String id) {
        Session s = sessions.get(id);
        if (s == null) {
            return Future.succeededFuture(Optional.empty());
        }
        Instant now = clock.instant();
        if (expired(s, now)) {
            sessions.remove(id, s);
            return Future.succeededFuture(Optional.empty());
        }
        Session touched = s.touched(now);
        sessions.replace(id, s, touched);
        return Future.succeededFuture(Optional.of(touched));
    }

    @Override
    public Future<Void> update(Session session) {
        sessions.computeIfPresent(session.id(), (k, v) -> session.touched(v.lastSeen().isAfter(session.lastSeen())
                ? v.lastSeen() : session.lastSeen()));
        return Future.succeededFuture();
    }

    @Override
    public Future<Boolean> remove(String id) {
        return Future.succeededFuture(sessions.remove(id) != null);
    }

    @Override
    public Future<List<String>> evictExpired() {
        return Future.succeededFuture(dropExpired());
    }

    /** How many sessions are held (expired ones included until they are dropped). */
    public int size() {
        return sessions.size();
    }

    private List<String> dropExpired() {
        Instant now = clock.instant();
        List<String> ended = new ArrayList<>();
        for (Session s : sessions.values()) {
            if (expired(s, now) && sessions.remove(s.id(), s)) {
                ended.add(s.id());
            }
        }
        return ended;
    }

    private boolean expired(Session s, Instant now) {
        return s.lastSeen().plus(idleTimeout).isBefore(now);
    }
}
