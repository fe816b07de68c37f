package dev.hyperterse.telemetry;

import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * What the server counts. Every method does nothing by default, so {@link #NONE} costs nothing
 * and a component can be handed a {@code Metrics} whether or not metrics are served. Names and
 * labels are the caller's data; implementations keep label values bounded (tool names come from
 * the project, never from a caller).
 *
 * <p>The script runtime reports through {@link #scriptCall}, {@link #scriptWorkerBusy},
 * {@link #scriptWorkerIdle} and {@link #scriptContextsChanged}.
 */
public interface Metrics {
    /** Counts nothing. */
    Metrics NONE = new Metrics() {
    };

    /**
     * One JSON-RPC request answered (or cancelled).
     *
     * @param method the MCP method ({@code tools/call}, {@code initialize}, …)
     * @param status {@code ok}, {@code cancelled}, {@code tool_error} (answered with an {@code isError} result),
     *               or the JSON-RPC error code ({@code -32602})
     */
    default void request(String method, String status, long nanos) {
    }

    /**
     * One tool call through the pipeline.
     *
     * @param tool    the tool's name, or {@code unknown} when no such tool exists
     * @param outcome {@code ok}, or the key of the stage that failed ({@code input_validation}, {@code execution}, …)
     */
    default void toolCall(String tool, String outcome, long nanos) {
    }

    /**
     * Whether {@link #callFinished} wants each call's details (the web console's recent calls).
     * False by default: then the details are never gathered, so a server without the console
     * spends nothing on them.
     */
    default boolean recordsCalls() {
        return false;
    }

    /**
     * One tool call through the pipeline finished, with what the web console shows of it; called
     * only when {@link #recordsCalls} is true, besides {@link #toolCall} and {@link #cacheLookup}
     * (whose counts it repeats, so that a recorder keeps a call's counts in one place per call).
     *
     * @param tool    the tool's name, or {@code unknown}
     * @param caller  the caller's subject when one was authenticated, else null
     * @param inputs  the inputs as traces show them (secret-looking names masked, text redacted,
     *                cut short), made when asked for (so a call pays nothing for a text no one
     *                reads; asked for on any thread, any number of times), or null when not shown
     * @param outcome {@code ok}, or the key of the stage that failed
     * @param error   the failure's message as the caller gets it, or null
     * @param cache   {@code hit} or {@code miss} when the call looked its result up in the result
     *                cache (as {@link #cacheLookup} was told), else null
     */
    default void callFinished(String tool, String caller, Supplier<String> inputs, String outcome, String error,
                              String cache, long nanos) {
    }

    /** A cached tool's result was looked up: found ({@code hit}) or loaded ({@code miss}). */
    default void cacheLookup(String tool, boolean hit) {
    }

    /**
     * One operation of a connector.
     *
     * @param connector the connector type ({@code sqlite}, {@code postgres}, …)
     * @param operation {@code execute}, {@code check} or {@code ping}
     * @param outcome   {@code ok} or {@code error}
     */
    default void connectorOperation(String adapter, String connector, String operation, String outcome, long nanos) {
    }

    /**
     * One script call (handler or mapper) finished.
     *
     * @param outcome {@code ok}, {@code error}, {@code timeout} or {@code memory} (stopped because the heap was nearly full)
     */
    default void scriptCall(String tool, String outcome, long nanos) {
    }

    /** A script call got a worker thread after waiting {@code queuedNanos} for one. */
    default void scriptWorkerBusy(long queuedNanos) {
    }

    /** A script call gave up waiting for a worker thread after {@code waitedNanos}: its time limit passed. */
    default void scriptQueueTimedOut(long waitedNanos) {
    }

    /** A script call gave its worker thread back. */
    default void scriptWorkerIdle() {
    }

    /** Script contexts were loaded (positive) or closed (negative). */
    default void scriptContextsChanged(int delta) {
    }

    /** A reload of the project finished: applied, or failed (the old version kept serving). */
    default void reload(boolean applied) {
    }

    /** A value read when metrics are scraped, e.g. live sessions. */
    default void gauge(String name, String description, DoubleSupplier value) {
    }
}
