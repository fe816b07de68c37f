package dev.hyperterse.telemetry;

import dev.hyperterse.model.Redaction;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributeType;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The last stop before spans leave the process: every string attribute, status message and
 * event attribute is passed through {@link Redaction#secrets}, and attributes whose name says
 * they hold a secret (an {@code authorization} header, say) are masked whole. It covers the
 * spans Vert.x records too (their URLs, SQL text with {@code {{ env.X }}} values pasted in,
 * driver messages), which this server does not write itself.
 */
public final class RedactingSpanExporter implements SpanExporter {
    private final SpanExporter delegate;

    public RedactingSpanExporter(SpanExporter delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        List<SpanData> clean = new ArrayList<>(spans.size());
        for (SpanData span : spans) {
            clean.add(new Redacted(span));
        }
        return delegate.export(clean);
    }

    @Override
    public CompletableResultCode flush() {
        return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return delegate.shutdown();
    }

    static Attributes redact(Attributes attributes) {
        AttributesBuilder out = Attributes.builder();
        attributes.forEach((key, value) -> put(out, key, value));
        return out.build();
    }

    @SuppressWarnings("unchecked")
    private static void put(AttributesBuilder out, AttributeKey<?> key, Object value) {
        if (key.getType() == AttributeType.STRING) {
            String text = (String) value;
            out.put((AttributeKey<String>) key, Redaction.sensitiveName(key.getKey()) ? Redaction.MASK
                    : Redaction.secrets(text));
        } else if (key.getType() == AttributeType.STRING_ARRAY) {
            List<String> items = new ArrayList<>();
            for (String s : (List<String>) value) {
                items.add(Redaction.sensitiveName(key.getKey()) ? Redaction.MASK : Redaction.secrets(s));
            }
            out.put((AttributeKey<List<String>>) key, items);
        } else {
            out.put((AttributeKey<Object>) key, value);
        }
    }

    private static final class Redacted extends DelegatingSpanData {
        private final Attributes attributes;
        private final StatusData status;
        private final List<EventData> events;

        Redacted(SpanData span) {
            super(span);
            this.attributes = redact(span.getAttributes());
            StatusData s = span.getStatus();
            this.status = s.getStatusCode() == StatusCode.ERROR && !s.getDescription().isEmpty()
                    ? StatusData.create(StatusCode.ERROR, Redaction.secrets(s.getDescription())) : s;
            List<EventData> redacted = new ArrayList<>(span.getEvents().size());
            for (EventData e : span.getEvents()) {
                redacted.add(EventData.create(e.getEpochNanos(), e.getName(), redact(e.getAttributes()),
                        e.getTotalAttributeCount()));
            }
            this.events = redacted;
        }

        @Override
        public Attributes getAttributes() {
            return attributes;
        }

        @Override
        public StatusData getStatus() {
            return status;
        }

        @Override
        public List<EventData> getEvents() {
            return events;
        }
    }
}
