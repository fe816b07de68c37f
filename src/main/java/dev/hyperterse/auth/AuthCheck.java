package dev.hyperterse.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** One tool's configured auth: decides per request, fails with {@link AuthDeniedException}. */
@FunctionalInterface
public interface AuthCheck {
    AuthCheck ALLOW = headers -> Future.succeededFuture(Caller.ANONYMOUS);

    Future<Caller> authenticate(RequestHeaders headers);

    /**
     * Decides for a call to {@code tool}. Checks whose answer depends on the tool (a script)
     * override this and {@link #perTool()}; the rest answer the same for every tool.
     */
    default Future<Caller> authenticate(String tool, RequestHeaders headers) {
        return authenticate(headers);
    }

    /** True when {@link #authenticate(String, RequestHeaders)} may answer differently per tool. */
    default boolean perTool() {
        return false;
    }

    /**
     * Prepares what the check needs at run time (keys, clients) before the server serves; a
     * check built only to validate a project is never started.
     */
    default Future<Void> start(Vertx vertx) {
        return Future.succeededFuture();
    }

    /** For token-based checks: the OAuth protected-resource settings; empty otherwise. */
    default java.util.Optional<ProtectedResource> protectedResource() {
        return java.util.Optional.empty();
    }

    /** Releases what {@link #start} acquired. */
    default Future<Void> close() {
        return Future.succeededFuture();
    }
}
