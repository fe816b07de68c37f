package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.ToolMethods;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.TraceSpan;
import dev.hyperterse.telemetry.Tracing;

/**
 * What one 2026-07-28 request leaves behind: its {@code mcp <method>} span (the parent of the
 * spans its tool call opens) and its request metric, both ended once, with the request's status:
 * {@code ok}, {@code cancelled}, {@code tool_error} (an {@code isError} result) or the JSON-RPC
 * error code.
 */
final class RequestRecord {
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

    /** @param method the method's name, or {@code other} for one this generation does not answer */
    static RequestRecord start(Tracing tracing, Metrics metrics, String method) {
        TraceSpan span = tracing.enabled() ? tracing.start("mcp " + method) : TraceSpan.NONE;
        if (span.recording()) {
            span.set("rpc.system", "jsonrpc").set("rpc.method", method).set("mcp.method.name", method)
                    .set("mcp.protocol.version", StatelessEndpoint.VERSION);
        }
        return new RequestRecord(metrics, span, method);
    }

    TraceSpan span() {
        return span;
    }

    String method() {
        return method;
    }

    void ok() {
        finish("ok", null);
    }

    /** Ends the span and counts the request; later calls do nothing. */
    synchronized void finish(String status, String message) {
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
}
