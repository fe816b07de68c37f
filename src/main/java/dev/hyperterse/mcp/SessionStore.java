package dev.hyperterse.mcp;

import io.vertx.core.Future;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where sessions live: one JVM's memory, or a cluster-wide map. Every operation returns a future
 * so a store that crosses the network never blocks the event loop.
 */
public interface SessionStore {

    /**
     * Creates a session for a client. When the client holds its share of sessions, or the store
     * its most, the least recently used session not in use (of that client, or of anyone) ends to
     * make room; empty when every candidate is in use.
     *
     * @param client the client's network identity ({@link ClientAddress})
     * @param use    which sessions are in use on this node, and where to report the ones ended
     */
    Future<Optional<Session>> create(String protocolVersion, String client, SessionUse use);

    /** The live session with this id, touched (it counts as used now); empty when unknown or expired. */
    Future<Optional<Session>> find(String id);

    /**
     * Changes a live session's data (its log level, the resources it watches) as one atomic step
     * against concurrent changes from this and other nodes, and counts it as used; empty when the
     * session has ended. A {@code change} that throws fails the future with that exception and
     * changes nothing.
     */
    Future<Optional<Session>> update(String id, UnaryOperator<Session> change);

    /** Ends a session; false when it was not live. */
    Future<Boolean> remove(String id);

    /** Ends the sessions idle longer than the timeout and returns their ids. */
    Future<List<String>> evictExpired();
}
