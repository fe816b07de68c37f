package dev.hyperterse.mcp;

import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.TraceSpan;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.json.JsonObject;

/**
 * What one JSON-RPC request leaves behind, in either protocol generation: its {@code mcp <method>}
 * span (the parent of the spans its tool call opens) and its request metric, both ended once, with
 * the request's status: {@code ok}, {@code cancelled}, {@code tool_error} (an {@code isError}
 * result) or the JSON-RPC error code. Both generations record a request only through this class,
 * so a span's attributes and a metric's labels mean the same whichever generation served it.
 */
public final class RequestRecord {
    private final Metrics metrics;
    private final TraceSpan span;
    private final String method;
    private final long started = System.nanoTime();
    private boolean finished;

    private RequestRecord(Metrics metrics, TraceSpan span, String method) {
        this.metrics = metrics;
        this.span = span;
        this.method = method;
    }

    /**
     * @param method          the method's metric label ({@link MethodTable#label}: {@code other} for a
     *                        method the generation does not answer)
     * @param protocolVersion the request's protocol version, or null when none is known (a session's
     *                        first request)
     */
    public static RequestRecord start(Tracing tracing, Metrics metrics, String method, String protocolVersion) {
        TraceSpan span = tracing.enabled() ? tracing.start("mcp " + method) : TraceSpan.NONE;
        if (span.recording()) {
            span.set("rpc.system", "jsonrpc").set("rpc.method", method).set("mcp.method.name", method);
            if (protocolVersion != null) {
                span.set("mcp.protocol.version", protocolVersion);
            }
        }
        return new RequestRecord(metrics, span, method);
    }

    /** The request's span: what runs for the request runs within it. */
    public TraceSpan span() {
        return span;
    }

    /** The method's metric label. */
    public String method() {
        return method;
    }

    /** Ends the record of a request that succeeded. */
    public void ok() {
        finish("ok", null);
    }

    /**
     * Ends the record with what {@code response} (a JSON-RPC response object) says:
     * {@code cancelled} when the caller cancelled the request, else {@link #status}.
     */
    public void finish(JsonObject response, boolean cancelled) {
        if (cancelled) {
            finish("cancelled", null);
            return;
        }
        Object error = response.getValue("error");
        finish(status(response), error instanceof JsonObject ? ((JsonObject) error).getString("message") : null);
    }

    /** Ends the span and counts the request; later calls do nothing. */
    public synchronized void finish(String status, String message) {
        if (finished) {
            return;
        }
        finished = true;
        if (!"ok".equals(status)) {
            if (!ToolMethods.TOOL_ERROR.equals(status)) {
                span.set("rpc.jsonrpc.error_code", status);
            }
            span.fail(status, message == null ? status : message);
        }
        span.end();
        metrics.request(method, status, System.nanoTime() - started);
    }

    /** {@code ok}, {@code tool_error} for an {@code isError} result, or the JSON-RPC error code of a response. */
    public static String status(JsonObject response) {
        Object error = response.getValue("error");
        if (!(error instanceof JsonObject)) {
            return ToolMethods.resultStatus(response.getValue("result"));
        }
        return String.valueOf(((JsonObject) error).getValue("code"));
    }
}
