package dev.hyperterse.mcp.session;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Sessions in the cluster's shared map, so a session created on one node works on every node
 * and survives the node that created it. Each entry carries a time-to-live of the idle timeout,
 * renewed when the session is used, so the cluster itself forgets idle sessions.
 *
 * <p>Making room is each node's own affair: a node keeps the sessions it created in order of use
 * (a {@link SessionLedger}), applies the share per client to them, and when the cluster is full
 * gives up one of them as {@link LocalSessionStore} does (of the client holding the most, else the
 * least recently used idle one) that runs no call here and that no other node used since (the
 * entry's last use, renewed by whichever node serves it, tells). A session used only
 * through other nodes for a whole idle timeout leaves the node's ledger, not the cluster.
 */
public final class ClusteredSessionStore implements SessionStore {
    static final String MAP_NAME = "hyperterse.sessions";
    /** Per session: a cluster-wide lock makes each read-change-write of it one step. */
    static final String LOCK_PREFIX = "hyperterse.session-lock.";
    static final long LOCK_TIMEOUT_MILLIS = 10_000;

    private final Vertx vertx;
    private final Future<AsyncMap<String, JsonObject>> map;
    private final Duration idleTimeout;
    private final int maxSessions;
    private final int perClient;
    private final Clock clock;
    private final SessionIds ids = new SessionIds();
    // guarded by itself
    private final SessionLedger created = new SessionLedger();
    /**
     * Renewing the TTL is a write to the cluster; doing it at most every 1/20 of the idle timeout
     * keeps every session alive for at least 95% of that timeout after its last use.
     */
    private final Duration renewEvery;

    /** @param perClient the most sessions one client ({@link ClientAddress}) holds through this node */
    public ClusteredSessionStore(Vertx vertx, Duration idleTimeout, int maxSessions, int perClient, Clock clock) {
        this.vertx = vertx;
        this.map = vertx.sharedData().getAsyncMap(MAP_NAME);
        this.idleTimeout = idleTimeout;
        this.maxSessions = maxSessions;
        this.perClient = Math.max(1, Math.min(perClient, maxSessions));
        this.clock = clock;
        this.renewEvery = idleTimeout.dividedBy(20);
    }

    @Override
    public Future<Optional<Session>> create(String protocolVersion, String client, SessionUse use) {
        return map.compose(m -> {
            boolean atShare;
            synchronized (created) {
                created.removeUnusedSince(clock.instant().minus(idleTimeout));
                atShare = created.countOf(client) >= perClient;
            }
            Future<Boolean> room = atShare ? makeRoom(m, client, () -> ownIdle(client, use), use, SessionLedger.SCAN)
                    : m.size().compose(size -> size < maxSessions ? Future.succeededFuture(true)
                            : makeRoom(m, null, () -> forNewcomer(client, use), use, SessionLedger.SCAN));
            return room.compose(made -> {
                if (!made) {
                    return Future.succeededFuture(Optional.<Session>empty());
                }
                Instant now = clock.instant();
                Session session = Session.created(ids.next(), protocolVersion, now);
                return m.put(session.id(), encode(session), ttlMillis()).map(x -> {
                    synchronized (created) {
                        created.add(session.id(), client, now);
                    }
                    return Optional.of(session);
                });
            });
        });
    }

    /** The client's own least recently used idle session (it is at its share); null when none. */
    private String ownIdle(String client, SessionUse use) {
        synchronized (created) {
            return created.leastRecentlyUsedIdle(client, use::inUse, clock.instant()).idle();
        }
    }

    /**
     * The session to end so {@code client} gets one in a full cluster, as {@link LocalSessionStore}
     * chooses among the sessions this node created: one of the client holding the most, when it
     * holds two more than {@code client} (idle first, else one whose only use is an open stream),
     * else the least recently used idle session; null when none qualifies.
     */
    private String forNewcomer(String client, SessionUse use) {
        synchronized (created) {
            Instant now = clock.instant();
            String donor = created.donorFor(client);
            String candidate = null;
            if (donor != null) {
                candidate = created.leastRecentlyUsedIdle(donor, use::inUse, now).idle();
                if (candidate == null) {
                    candidate = created.leastRecentlyUsedIdle(donor, use::callRunning, now).idle();
                }
            }
            return candidate != null ? candidate : created.leastRecentlyUsedIdle(null, use::inUse, now).idle();
        }
    }

    /**
     * Ends the session {@code choose} picks among the ones this node created, unless another node
     * used it since (its entry tells), then chooses again; false when nothing is found in
     * {@code attempts} tries.
     *
     * @param client the client at its share, whose own session makes room; null when the cluster is full
     */
    private Future<Boolean> makeRoom(AsyncMap<String, JsonObject> m, String client, Supplier<String> choose,
                                     SessionUse use, int attempts) {
        if (attempts == 0) {
            return Future.succeededFuture(false);
        }
        String candidate = choose.get();
        Instant knownUse;
        synchronized (created) {
            knownUse = candidate == null ? null : created.lastUsed(candidate);
        }
        if (candidate == null || knownUse == null) {
            return Future.succeededFuture(false);
        }
        return m.get(candidate).compose(json -> {
            if (json == null) {
                // already gone (expired or ended elsewhere): the client's share has room now, the
                // cluster does not
                synchronized (created) {
                    created.remove(candidate);
                }
                return client != null ? Future.succeededFuture(true) : makeRoom(m, null, choose, use, attempts - 1);
            }
            if (decode(json).lastSeen().isAfter(knownUse)) {
                // another node served it since: it is not this node's to judge idle
                synchronized (created) {
                    created.touch(candidate, decode(json).lastSeen());
                }
                return makeRoom(m, client, choose, use, attempts - 1);
            }
            synchronized (created) {
                created.remove(candidate);
            }
            return m.remove(candidate).map(x -> {
                use.ended(candidate);
                return true;
            });
        });
    }

    @Override
    public Future<Optional<Session>> find(String id) {
        return map.compose(m -> m.get(id).compose(json -> {
            if (json == null) {
                return Future.succeededFuture(Optional.<Session>empty());
            }
            Session stored = decode(json);
            Instant now = clock.instant();
            synchronized (created) {
                created.touch(id, now);
            }
            if (stored.lastSeen().plus(renewEvery).isAfter(now)) {
                return Future.succeededFuture(Optional.of(stored));
            }
            // renewing writes the whole session: read it again under the lock, so a change made
            // meanwhile (update) is not overwritten by the copy read above
            return locked(id, () -> m.get(id).compose(fresh -> {
                if (fresh == null) {
                    return Future.succeededFuture(Optional.<Session>empty());
                }
                Session touched = decode(fresh).touched(now);
                return m.put(id, encode(touched), ttlMillis()).map(x -> Optional.of(touched));
            }));
        }));
    }

    @Override
    public Future<Optional<Session>> update(String id, UnaryOperator<Session> change) {
        return map.compose(m -> locked(id, () -> m.get(id).compose(json -> {
            if (json == null) {
                return Future.succeededFuture(Optional.<Session>empty());
            }
            Session changed = change.apply(decode(json)).touched(clock.instant());
            return m.put(id, encode(changed), ttlMillis()).map(x -> Optional.of(changed));
        })));
    }

    /** Runs {@code work} holding the session's cluster-wide lock, released whatever the outcome. */
    private <T> Future<T> locked(String id, java.util.function.Supplier<Future<T>> work) {
        return vertx.sharedData().getLockWithTimeout(LOCK_PREFIX + id, LOCK_TIMEOUT_MILLIS).compose(lock -> {
            Future<T> done;
            try {
                done = work.get();
            } catch (RuntimeException e) {
                done = Future.failedFuture(e);
            }
            return done.andThen(x -> lock.release());
        });
    }

    @Override
    public Future<Boolean> remove(String id) {
        synchronized (created) {
            created.remove(id);
        }
        return map.compose(m -> m.remove(id)).map(removed -> removed != null);
    }

    /** The map's time-to-live ends idle sessions on every node; nothing is left to sweep here. */
    @Override
    public Future<List<String>> evictExpired() {
        return Future.succeededFuture(List.of());
    }

    private long ttlMillis() {
        return Math.max(1, idleTimeout.toMillis());
    }

    static JsonObject encode(Session s) {
        return new JsonObject()
                .put("id", s.id())
                .put("protocolVersion", s.protocolVersion())
                .put("logLevel", s.logLevel())
                .put("created", s.created().toString())
                .put("lastSeen", s.lastSeen().toString())
                .put("subscriptions", new JsonArray(new ArrayList<>(s.subscriptions())))
                .put("clientCapabilities", new JsonArray(new ArrayList<>(s.clientCapabilities())));
    }

    static Session decode(JsonObject json) {
        JsonArray watched = json.getJsonArray("subscriptions", new JsonArray());
        List<String> subscriptions = new ArrayList<>(watched.size());
        watched.forEach(uri -> subscriptions.add(String.valueOf(uri)));
        List<String> capabilities = new ArrayList<>();
        json.getJsonArray("clientCapabilities", new JsonArray()).forEach(c -> capabilities.add(String.valueOf(c)));
        return new Session(json.getString("id"), json.getString("protocolVersion"), json.getString("logLevel"),
                Instant.parse(json.getString("created")), Instant.parse(json.getString("lastSeen")), subscriptions,
                capabilities);
    }
}
