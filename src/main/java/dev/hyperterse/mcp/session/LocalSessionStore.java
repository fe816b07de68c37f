package dev.hyperterse.mcp.session;

import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Sessions in this JVM's memory, with idle expiry, a cap on live sessions and a share of it per
 * client. A client at its share replaces its own least recently used idle session, so a client
 * that opens sessions without end only ever replaces its own. A full store takes a newcomer's
 * place from the client holding the most sessions (even one whose only use is an open stream),
 * so a few clients holding streams open cannot lock every other client out either; only when
 * every client holds about as many as the newcomer does it fall back to the least recently used
 * idle session of anyone. Ids are 192 random bits (see {@link SessionIds}).
 */
public final class LocalSessionStore implements SessionStore {
    // guarded by this, like the ledger: every operation is O(1) (a few map operations)
    private final Map<String, Session> sessions = new HashMap<>();
    private final SessionLedger ledger = new SessionLedger();
    private final SessionIds ids = new SessionIds();
    private final Duration idleTimeout;
    private final int maxSessions;
    private final int perClient;
    private final Clock clock;

    /** With no share per client: one client may hold every session. */
    public LocalSessionStore(Duration idleTimeout, int maxSessions, Clock clock) {
        this(idleTimeout, maxSessions, maxSessions, clock);
    }

    /** @param perClient the most sessions one client ({@link ClientAddress}) holds at once */
    public LocalSessionStore(Duration idleTimeout, int maxSessions, int perClient, Clock clock) {
        this.idleTimeout = idleTimeout;
        this.maxSessions = maxSessions;
        this.perClient = Math.max(1, Math.min(perClient, maxSessions));
        this.clock = clock;
    }

    @Override
    public Future<Optional<Session>> create(String protocolVersion, String client, SessionUse use) {
        List<String> ended = new ArrayList<>();
        Optional<Session> created;
        synchronized (this) {
            Instant now = clock.instant();
            ended.addAll(dropExpired(now));
            boolean room = true;
            if (ledger.countOf(client) >= perClient) {
                // at its share: the client replaces its own least recently used idle session
                room = endOne(ledger.leastRecentlyUsedIdle(client, use::inUse, now), now, ended);
            } else if (ledger.size() >= maxSessions) {
                room = makeRoom(client, use, now, ended);
            }
            if (room) {
                Session session = Session.created(ids.next(), protocolVersion, now);
                sessions.put(session.id(), session);
                ledger.add(session.id(), client, now);
                created = Optional.of(session);
            } else {
                created = Optional.empty();
            }
        }
        // outside the lock: ending a session's live state closes connections
        ended.forEach(use::ended);
        return Future.succeededFuture(created);
    }

    /**
     * Ends a session so {@code client} gets one in a full store: one of the client holding the
     * most sessions, when it holds two more than {@code client} (its least recently used idle
     * session, else one whose only use is an open stream), else the least recently used idle
     * session of anyone. Sessions running a call are never ended. False when none qualifies.
     */
    private boolean makeRoom(String client, SessionUse use, Instant now, List<String> ended) {
        String donor = ledger.donorFor(client);
        if (donor != null && (endOne(ledger.leastRecentlyUsedIdle(donor, use::inUse, now), now, ended)
                || endOne(ledger.leastRecentlyUsedIdle(donor, use::callRunning, now), now, ended))) {
            return true;
        }
        return endOne(ledger.leastRecentlyUsedIdle(null, use::inUse, now), now, ended);
    }

    /** Ends the session a search found, if any; the ones in use it passed count as used now. */
    private boolean endOne(SessionLedger.Scan scan, Instant now, List<String> ended) {
        scan.inUse().forEach(id -> touchSession(id, now));
        if (scan.idle() == null) {
            return false;
        }
        drop(scan.idle());
        ended.add(scan.idle());
        return true;
    }

    @Override
    public synchronized Future<Optional<Session>> find(String id) {
        Session s = sessions.get(id);
        if (s == null) {
            return Future.succeededFuture(Optional.empty());
        }
        Instant now = clock.instant();
        if (expired(s, now)) {
            drop(id);
            return Future.succeededFuture(Optional.empty());
        }
        return Future.succeededFuture(Optional.of(touchSession(id, now)));
    }

    @Override
    public synchronized Future<Optional<Session>> update(String id, UnaryOperator<Session> change) {
        Session held = sessions.get(id);
        if (held == null || expired(held, clock.instant())) {
            return Future.succeededFuture(Optional.empty());
        }
        Session changed;
        try {
            changed = change.apply(held);
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
        Instant now = clock.instant();
        Session stored = changed.touched(held.lastSeen().isAfter(now) ? held.lastSeen() : now);
        sessions.put(id, stored);
        ledger.touch(id, stored.lastSeen());
        return Future.succeededFuture(Optional.of(stored));
    }

    @Override
    public synchronized Future<Boolean> remove(String id) {
        boolean held = sessions.containsKey(id);
        drop(id);
        return Future.succeededFuture(held);
    }

    @Override
    public synchronized Future<List<String>> evictExpired() {
        return Future.succeededFuture(dropExpired(clock.instant()));
    }

    /** How many sessions are held (expired ones included until they are dropped). */
    public synchronized int size() {
        return sessions.size();
    }

    private Session touchSession(String id, Instant now) {
        Session s = sessions.get(id);
        Session touched = now.isAfter(s.lastSeen()) ? s.touched(now) : s;
        sessions.put(id, touched);
        ledger.touch(id, now);
        return touched;
    }

    private void drop(String id) {
        sessions.remove(id);
        ledger.remove(id);
    }

    /** The ledger keeps sessions in order of use, so only the expired ones are looked at. */
    private List<String> dropExpired(Instant now) {
        List<String> expired = ledger.removeUnusedSince(now.minus(idleTimeout));
        expired.forEach(sessions::remove);
        return expired;
    }

    private boolean expired(Session s, Instant now) {
        return s.lastSeen().plus(idleTimeout).isBefore(now);
    }
}
