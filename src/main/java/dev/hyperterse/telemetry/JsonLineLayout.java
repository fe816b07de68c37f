package dev.hyperterse.telemetry;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import dev.hyperterse.model.Redaction;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.vertx.core.json.JsonObject;
import org.slf4j.event.KeyValuePair;

import java.time.Instant;

/**
 * One JSON object per line for log collectors: {@code time}, {@code level}, {@code logger},
 * {@code thread}, {@code message}, then each key-value pair of the event as its own field
 * ({@code tool}, {@code stage}, {@code reason} on a failed call), {@code trace_id} and
 * {@code span_id} when the line was written inside a traced request, and {@code error}
 * (plus {@code stack} at debug) for an exception. Everything is redacted as in the text format.
 */
public final class JsonLineLayout extends LayoutBase<ILoggingEvent> {
    @Override
    public String doLayout(ILoggingEvent event) {
        JsonObject line = new JsonObject()
                .put("time", Instant.ofEpochMilli(event.getTimeStamp()).toString())
                .put("level", event.getLevel().toString())
                .put("logger", event.getLoggerName())
                .put("thread", event.getThreadName())
                .put("message", Redaction.secrets(event.getFormattedMessage()));
        if (event.getKeyValuePairs() != null) {
            for (KeyValuePair kv : event.getKeyValuePairs()) {
                if (!line.containsKey(kv.key)) {
                    line.put(kv.key, LogLines.value(kv));
                }
            }
        }
        SpanContext span = Span.current().getSpanContext();
        if (span.isValid()) {
            line.put("trace_id", span.getTraceId()).put("span_id", span.getSpanId());
        }
        String error = LogLines.error(event);
        if (error != null) {
            line.put("error", error);
            String stack = LogLines.stack(event, (LoggerContext) getContext());
            if (stack != null) {
                line.put("stack", stack);
            }
        }
        return line.encode() + CoreConstants.LINE_SEPARATOR;
    }
}
