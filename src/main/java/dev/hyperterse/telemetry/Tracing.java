package dev.hyperterse.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;

import java.util.function.Supplier;

/**
 * Starts the server's own spans (MCP requests, tool calls, pipeline stages, connector calls).
 * {@link #OFF} starts none and runs work directly, so instrumented code costs a null check when
 * tracing is disabled.
 *
 * <p>Parents: a span started with {@link #start(String)} is a child of the span current on the
 * calling Vert.x context (the HTTP request's server span, which Vert.x opens from an incoming
 * {@code traceparent}). {@link #within} makes a span current for a piece of asynchronous work,
 * so the spans Vert.x's own clients open inside it (SQL, HTTP) become its children.
 */
public final class Tracing {
    /** Records nothing. */
    public static final Tracing OFF = new Tracing(null, false);
    static final String INSTRUMENTATION = "dev.hyperterse";

    private final Tracer tracer;
    private final boolean includeInputs;

    private Tracing(Tracer tracer, boolean includeInputs) {
        this.tracer = tracer;
        this.includeInputs = includeInputs;
    }

    /** @param includeInputs whether tool calls carry their (redacted) inputs as an attribute */
    public static Tracing of(OpenTelemetry openTelemetry, boolean includeInputs) {
        return new Tracing(openTelemetry.getTracer(INSTRUMENTATION), includeInputs);
    }

    public boolean enabled() {
        return tracer != null;
    }

    /** {@code observability.tracing.include_inputs}. */
    public boolean includeInputs() {
        return tracer != null && includeInputs;
    }

    /** An internal span under the span current on this thread's Vert.x context (or a new trace). */
    public TraceSpan start(String name) {
        return start(name, SpanKind.INTERNAL, null);
    }

    /** An internal span under {@code parent} (under the current span when parent is {@link TraceSpan#NONE}). */
    public TraceSpan start(String name, TraceSpan parent) {
        return start(name, SpanKind.INTERNAL, parent);
    }

    /** A span of the given kind under {@code parent}, or under the current span when parent is null or NONE. */
    public TraceSpan start(String name, SpanKind kind, TraceSpan parent) {
        if (tracer == null) {
            return TraceSpan.NONE;
        }
        Context parentContext = parent != null && parent.context() != null ? parent.context() : Context.current();
        Span span = tracer.spanBuilder(name).setParent(parentContext).setSpanKind(kind).startSpan();
        return new TraceSpan(span, parentContext.with(span));
    }

    /**
     * Runs {@code work} with {@code span} current. The work runs on a duplicate of the caller's
     * Vert.x context (same thread, same event loop, its own locals) that keeps the span for as
     * long as the work's callbacks run there; the caller's context is left as it was, so
     * concurrent calls of one request (a batch) do not see each other's spans.
     */
    public <T> Future<T> within(TraceSpan span, Supplier<Future<T>> work) {
        ContextInternal caller = ContextInternal.current();
        if (tracer == null || span.context() == null || caller == null) {
            return work.get();
        }
        ContextInternal own = caller.duplicate();
        @SuppressWarnings("unchecked")
        Future<T>[] result = new Future[1];
        own.dispatch(() -> {
            // the scope is not closed: the duplicate belongs to this work alone and is dropped with it
            span.context().makeCurrent();
            try {
                result[0] = work.get();
            } catch (RuntimeException e) {
                result[0] = Future.failedFuture(e);
            }
        });
        return result[0];
    }
}
