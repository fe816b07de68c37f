package dev.hyperterse.telemetry;

import dev.hyperterse.model.BoundedText;
import dev.hyperterse.model.Redaction;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;

/**
 * One span being recorded, or {@link #NONE} when tracing is off. Attribute values are the
 * caller's responsibility to keep free of secrets; error messages are redacted here.
 */
public final class TraceSpan {
    /** Records nothing. */
    public static final TraceSpan NONE = new TraceSpan(null, null);

    private final Span span;
    private final Context context;

    TraceSpan(Span span, Context context) {
        this.span = span;
        this.context = context;
    }

    /** False for {@link #NONE}: callers may skip computing attribute values. */
    public boolean recording() {
        return span != null && span.isRecording();
    }

    public TraceSpan set(String key, String value) {
        if (span != null && value != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    public TraceSpan set(String key, long value) {
        if (span != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    public TraceSpan set(String key, boolean value) {
        if (span != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    /**
     * Marks the span failed: {@code error.type} (a stage key or an exception's simple name) and
     * the message callers would see, redacted. No stack trace: those stay in the debug log.
     */
    public TraceSpan fail(String type, String message) {
        if (span != null) {
            span.setAttribute("error.type", type);
            span.setStatus(StatusCode.ERROR, message == null ? type
                    : Redaction.secrets(message, BoundedText.MESSAGE_CHARS));
        }
        return this;
    }

    public void end() {
        if (span != null) {
            span.end();
        }
    }

    /** The OpenTelemetry context holding this span, or null for {@link #NONE}. */
    Context context() {
        return context;
    }
}
