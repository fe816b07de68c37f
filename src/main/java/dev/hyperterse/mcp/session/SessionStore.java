package dev.hyperterse.mcp.session;

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
     * Creates a session for a client. When the client holds its share of sessions, its least
     * recently used session not in use ends to make room. When the store holds its most, a session
     * of the client holding the most ends, if it holds two more than this client (its least
     * recently used not in use, else one in use only by an open stream), else the least recently
     * used session not in use of anyone. Empty when no candidate qualifies (a session running a
     * call never does).
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
