package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Sessions in the cluster's shared map, so a session created on one node works on every node
 * and survives the node that created it. Each entry carries a time-to-live of the idle timeout,
 * renewed when the session is used, so the cluster itself forgets idle sessions.
 */
public final class ClusteredSessionStore implements SessionStore {
    static final String MAP_NAME = "hyperterse.sessions";

    private final Future<AsyncMap<String, JsonObject>> map;
    private final Duration idleTimeout;
    private final int maxSessions;
    private final Clock clock;
    private final SessionIds ids = new SessionIds();
    /**
     * Renewing the TTL is a write to the cluster; doing it at most every 1/20 of the idle timeout
     * keeps every session alive for at least 95% of that timeout after its last use.
     */
    private final Duration renewEvery;

    public ClusteredSessionStore(Vertx vertx, Duration idleTimeout, int maxSessions, Clock clock) {
        this.map = vertx.sharedData().getAsyncMap(MAP_NAME);
        this.idleTimeout = idleTimeout;
        this.maxSessions = maxSessions;
        this.clock = clock;
        this.renewEvery = idleTimeout.dividedBy(20);
    }

    @Override
    public Future<Optional<Session>> create(String protocolVersion) {
        return map.compose(m -> m.size().compose(size -> {
            if (size >= maxSessions) {
                return Future.succeededFuture(Optional.<Session>empty());
            }
            Instant now = clock.instant();
            Session session = new Session(ids.next(), protocolVersion, null, now, now);
            return m.put(session.id(), encode(session), ttlMillis()).map(x -> Optional.of(session));
        }));
    }

    @Override
    public Future<Optional<Session>> find(String id) {
        return map.compose(m -> m.get(id).compose(json -> {
            if (json == null) {
                return Future.succeededFuture(Optional.<Session>empty());
            }
            Session stored = decode(json);
            Instant now = clock.instant();
            if (stored.lastSeen().plus(renewEvery).isAfter(now)) {
                return Future.succeededFuture(Optional.of(stored));
            }
            Session touched = stored.touched(now);
            return m.put(id, encode(touched), ttlMillis()).map(x -> Optional.of(touched));
        }));
    }

    @Override
    public Future<Void> update(Session session) {
        return map.compose(m -> m.replace(session.id(), encode(session.touched(clock.instant())), ttlMillis()))
                .mapEmpty();
    }

    @Override
    public Future<Boolean> remove(String id) {
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
                .put("lastSeen", s.lastSeen().toString());
    }

    static Session decode(JsonObject json) {
        return new Session(json.getString("id"), json.getString("protocolVersion"), json.getString("logLevel"),
                Instant.parse(json.getString("created")), Instant.parse(json.getString("lastSeen")));
    }
}
