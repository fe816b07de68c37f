package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * What a running {@code tools/call} may do besides returning its result: report progress and log
 * to the caller (both travel on the call's own SSE stream, before the result), ask the caller's
 * client something (a request of the server's on that stream), learn that it was cancelled, and
 * let go of its connection for the client to resume (SEP-1699 polling).
 */
public interface CallScope {

    /** True when the caller sent a {@code progressToken}, so progress reports reach someone; any thread may ask. */
    boolean wantsProgress();

    /**
     * Sends {@code notifications/progress}. Ignored unless {@code progress} exceeds the last value
     * sent (the protocol requires it to increase), and after the call completed.
     *
     * @param total   null when unknown
     * @param message null for none
     */
    void progress(double progress, Double total, String message);

    /**
     * Sends {@code notifications/message} when the session's log level lets {@code level} through.
     * The message is shown to the client: it must hold no secret, credential or personal data.
     */
    default void log(LogLevel level, String message) {
        log(level, LOGGER, message);
    }

    /**
     * Sends {@code notifications/message} with {@code logger} and any JSON {@code data} when the
     * log level lets {@code level} through (a handler's {@code ctx.log} names its tool as the logger).
     */
    void log(LogLevel level, String logger, Object data);

    /** The logger the server's own messages about a call name. */
    String LOGGER = "hyperterse";

    /**
     * Whether {@link #log} at {@code level} reaches anyone: callers skip building messages nobody
     * reads. Fixed for the call, so any thread may ask (a script's {@code ctx.log} does).
     */
    boolean logs(LogLevel level);

    /** Completes when the caller cancelled the call; its result is then dropped. */
    Future<Void> cancellation();

    /**
     * Closes the HTTP connection carrying this call's SSE stream without ending the stream; the
     * client resumes it with GET and {@code Last-Event-ID}. Does nothing where that cannot work:
     * without a session, or before protocol 2025-11-25 (no priming event to resume from).
     */
    void closeStream();

    /**
     * Sends a request of the server's ({@code sampling/createMessage}, {@code elicitation/create},
     * {@code roots/list}, {@code ping}, …) to this caller's client on the call's own stream, and
     * completes with the {@code result} of the response the client POSTs back.
     * <p>
     * Fails with an {@link McpException} when the request cannot be sent: the call has no session
     * to answer in (or speaks protocol 2026-07-28, which asks through input-required results), the
     * client did not declare at {@code initialize} the capability the method needs, or too many of
     * the session's requests await answers. Fails with {@link NoAnswer} when it was sent but brought
     * no result: the client answered with an error, did not answer in time, or the call ended or was
     * cancelled first (the request is then forgotten, and a late response is dropped).
     */
    default Future<JsonObject> requestClient(String method, JsonObject params) {
        return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "cannot send " + method
                + " to the client: this call has no session to send it in"));
    }

    /**
     * {@link #requestClient(String, JsonObject)} for a question its asker named {@code key} (null:
     * unnamed): where the client answers in a later request (a 2026-07-28 input round), the key of
     * its input request.
     */
    default Future<JsonObject> requestClient(String method, JsonObject params, String key) {
        return requestClient(method, params);
    }

    /**
     * How this caller's user is asked to confirm a call of a tool marked {@code confirm: true};
     * {@link UserConfirmation#CANNOT_ASK} where the client cannot be asked.
     */
    default UserConfirmation confirmation() {
        return UserConfirmation.CANNOT_ASK;
    }

    /** A request of the server's reached the client but brought no result; the message says why. */
    final class NoAnswer extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String method;

        public NoAnswer(String method, String why) {
            super(method + ": " + why, null, false, false);
            this.method = method;
        }

        /** The method of the request, such as {@code sampling/createMessage}. */
        public String method() {
            return method;
        }
    }
}
