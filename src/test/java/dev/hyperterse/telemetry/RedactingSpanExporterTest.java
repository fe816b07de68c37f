package dev.hyperterse.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What leaves the process: spans from any instrumentation, secrets removed. */
class RedactingSpanExporterTest {

    @Test
    void secretsInAttributesStatusAndEventsAreRedacted() {
        InMemorySpanExporter memory = InMemorySpanExporter.create();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(new RedactingSpanExporter(memory))).build();
        {
            Span span = provider.get("test").spanBuilder("Query").startSpan();
            span.setAttribute("db.query.text", "SELECT * FROM t WHERE password = 'hunter2' AND id = ?");
            span.setAttribute("url.full", "http://h:8080/mcp?access_token=abc123&x=1");
            span.setAttribute("http.request.header.authorization", "Bearer abc.def.ghi");
            span.setAttribute(AttributeKey.stringArrayKey("http.request.header.x-api-key"), List.of("k1", "k2"));
            span.setAttribute("db.system", "postgresql");
            span.setAttribute("hyperterse.rows", 3L);
            span.recordException(new IllegalStateException("cannot connect to postgres://u:pw@db/x"));
            span.setStatus(StatusCode.ERROR, "cannot connect to postgres://u:pw@db/x");
            span.end();
        }
        SpanData out = memory.getFinishedSpanItems().get(0);
        provider.close();
        Attributes a = out.getAttributes();
        assertEquals("SELECT * FROM t WHERE password = '***' AND id = ?", a.get(AttributeKey.stringKey("db.query.text")));
        assertEquals("http://h:8080/mcp?access_token=***&x=1", a.get(AttributeKey.stringKey("url.full")));
        assertEquals("***", a.get(AttributeKey.stringKey("http.request.header.authorization")));
        assertEquals(List.of("***", "***"), a.get(AttributeKey.stringArrayKey("http.request.header.x-api-key")));
        assertEquals("postgresql", a.get(AttributeKey.stringKey("db.system")));
        assertEquals(3L, a.get(AttributeKey.longKey("hyperterse.rows")));
        assertEquals("cannot connect to postgres://u:***@db/x", out.getStatus().getDescription());
        String event = out.getEvents().get(0).getAttributes().get(AttributeKey.stringKey("exception.message"));
        assertEquals("cannot connect to postgres://u:***@db/x", event);
        assertFalse(out.toString().contains("hunter2") || out.toString().contains("abc123") || out.toString().contains(":pw@"),
                out.toString());
    }
}
