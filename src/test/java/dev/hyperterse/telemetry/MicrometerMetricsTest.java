package dev.hyperterse.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MicrometerMetricsTest {
    @Test
    void eachNameAndTagsIsOneMeterRecordingEveryCall() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerMetrics metrics = new MicrometerMetrics(registry);
        metrics.toolCall("get-customer", "ok", 1_000_000);
        metrics.toolCall("get-customer", "ok", 3_000_000);
        metrics.toolCall("get-customer", "input_validation", 1_000_000);
        metrics.cacheLookup("get-customer", true);
        metrics.cacheLookup("get-customer", true);
        metrics.cacheLookup("get-customer", false);

        Timer ok = registry.get("hyperterse.tool.call.duration").tags("tool", "get-customer", "outcome", "ok").timer();
        assertEquals(2, ok.count());
        assertEquals(4.0, ok.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS), 1e-9);
        assertEquals(1, registry.get("hyperterse.tool.call.duration").tags("outcome", "input_validation").timer().count());
        assertEquals(2, registry.get("hyperterse.tool.call.duration").timers().size());
        Counter hits = registry.get("hyperterse.cache.lookups").tags("result", "hit").counter();
        assertEquals(2.0, hits.count());
        assertEquals(1.0, registry.get("hyperterse.cache.lookups").tags("result", "miss").counter().count());

        metrics.request("tools/call", "ok", 1_000_000);
        metrics.request("tools/call", "ok", 1_000_000);
        metrics.request("tools/list", "ok", 1_000_000);
        metrics.request("tools/call", "-32602", 1_000_000);
        assertEquals(2, registry.get("hyperterse.mcp.request.duration").tags("method", "tools/call", "status", "ok")
                .timer().count());
        assertEquals(3, registry.get("hyperterse.mcp.request.duration").timers().size());
        metrics.connectorOperation("pg", "postgres", "execute", "ok", 1_000_000);
        metrics.connectorOperation("pg", "postgres", "execute", "ok", 1_000_000);
        metrics.connectorOperation("pg", "postgres", "execute", "error", 1_000_000);
        metrics.connectorOperation("shop", "postgres", "execute", "ok", 1_000_000);
        assertEquals(2, registry.get("hyperterse.connector.operation.duration")
                .tags("adapter", "pg", "operation", "execute", "outcome", "ok").timer().count());
        assertEquals(3, registry.get("hyperterse.connector.operation.duration").timers().size());
    }
}
