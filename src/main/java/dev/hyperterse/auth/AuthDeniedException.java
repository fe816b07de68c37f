package dev.hyperterse.auth;

import java.util.List;

/**
 * A plugin refused a call; the message says why without revealing any key or token. The reason
 * tells the HTTP layer whether to answer 401 (who are you?) or 403 (not allowed).
 */
public final class AuthDeniedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** No credentials, or credentials that do not prove who the caller is. */
        UNAUTHENTICATED,
        /** A valid caller without the scope the tool needs. */
        INSUFFICIENT_SCOPE
    }

    private final Reason reason;
    private final transient List<String> scopes;

    public AuthDeniedException(String message) {
        this(message, Reason.UNAUTHENTICATED, List.of());
    }

    public AuthDeniedException(String message, Reason reason, List<String> scopes) {
        super(message, null, false, false);
        this.reason = reason;
        this.scopes = List.copyOf(scopes);
    }

    public Reason reason() {
        return reason;
    }

    /** The scopes the call needs (for {@code WWW-Authenticate}), possibly empty. */
    public List<String> scopes() {
        return scopes;
    }
}
