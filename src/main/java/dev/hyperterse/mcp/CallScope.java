package dev.hyperterse.mcp;

import io.vertx.core.Future;

/**
 * What a running {@code tools/call} may do besides returning its result: report progress and log
 * to the caller (both travel on the call's own SSE stream, before the result), learn that it was
 * cancelled, and let go of its connection for the client to resume (SEP-1699 polling).
 */
public interface CallScope {

    /** True when the caller sent a {@code progressToken}, so progress reports reach someone. */
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
    void log(LogLevel level, String message);

    /** Whether {@link #log} at {@code level} reaches anyone: callers skip building messages nobody reads. */
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
     * How this caller's user is asked to confirm a call of a tool marked {@code confirm: true};
     * {@link UserConfirmation#CANNOT_ASK} where the client cannot be asked.
     */
    default UserConfirmation confirmation() {
        return UserConfirmation.CANNOT_ASK;
    }
}
