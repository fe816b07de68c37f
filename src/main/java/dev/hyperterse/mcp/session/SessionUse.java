package dev.hyperterse.mcp.session;

/**
 * What only the serving node knows of a session, asked by a store that must give one up to make
 * room: whether it is in use here (an open stream or a running call), whether a call of it runs
 * here (such a session is never given up), and told when the store ended one, so what the node
 * holds for it goes too.
 */
public interface SessionUse {
    /** No session is in use; nothing to end (for stores used without an endpoint). */
    SessionUse NONE = new SessionUse() {
        @Override
        public boolean inUse(String sessionId) {
            return false;
        }

        @Override
        public void ended(String sessionId) {
        }
    };

    /** An open stream or a running call here. */
    boolean inUse(String sessionId);

    /**
     * A call of the session runs here. A session in use only by an open stream may be given up
     * to let another client in when the client holding the most sessions holds it; one running a
     * call never is. By default every session in use counts as running one.
     */
    default boolean callRunning(String sessionId) {
        return inUse(sessionId);
    }

    /** The store ended the session to make room (or because it expired). */
    void ended(String sessionId);
}
