package dev.hyperterse.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

/**
 * {@link Metrics} on a Micrometer registry (the Prometheus one in production). Meter names are
 * dotted here and come out as {@code hyperterse_…} in Prometheus ({@code _total} for counters,
 * {@code _seconds_bucket/_count/_sum/_max} for timers).
 */
public final class MicrometerMetrics implements Metrics {
    /** Latency buckets: from a cached lookup to a statement near its time limit. */
    private static final Duration[] BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
            Duration.ofSeconds(30)};

    private final MeterRegistry registry;
    /**
     * Meters by name and tags. Building and registering a meter per call (the registry builds and
     * looks up its id anew each time) cost a cache-hit call as much as its cache lookup; label
     * values come from the project and small fixed sets, so these maps stay small.
     */
    private final Map<List<String>, Timer> timers = new ConcurrentHashMap<>();
    private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();
    /*
     * The meters every call records, by their label values one map level each: found with a map
     * lookup per label, nothing allocated (a key list per lookup was some 300 bytes per call).
     */
    private final ByTwoLabels<Timer> requests = new ByTwoLabels<>();
    private final ByTwoLabels<Timer> toolCalls = new ByTwoLabels<>();
    private final ByTwoLabels<Counter> cacheLookups = new ByTwoLabels<>();
    private final ByLabels<Timer> connectorOperations = new ByLabels<>();
    private final Maker<Timer> requestTimer = (method, status, x, y) -> timer("hyperterse.mcp.request.duration",
            "MCP JSON-RPC requests by method and status", "method", method, "status", status);
    private final Maker<Timer> toolCallTimer = (tool, outcome, x, y) -> timer("hyperterse.tool.call.duration",
            "Tool calls through the pipeline by tool and outcome (ok or the failed stage)", "tool", tool,
            "outcome", outcome);
    private final Maker<Counter> cacheLookupCounter = (tool, result, x, y) -> counter("hyperterse.cache.lookups",
            "Result cache lookups by tool and result (hit or miss)", "tool", tool, "result", result);
    private final Maker<Timer> connectorTimer = (adapter, connector, operation, outcome) -> timer(
            "hyperterse.connector.operation.duration",
            "Connector operations by adapter, connector, operation and outcome",
            "adapter", adapter, "connector", connector, "operation", operation, "outcome", outcome);
    private final AtomicLong scriptWorkersBusy = new AtomicLong();
    private final AtomicLong scriptContexts = new AtomicLong();

    public MicrometerMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("hyperterse.script.workers.busy", scriptWorkersBusy, AtomicLong::get)
                .description("Script worker threads running a call").register(registry);
        Gauge.builder("hyperterse.script.contexts", scriptContexts, AtomicLong::get)
                .description("JavaScript contexts loaded (idle or running a call)").register(registry);
    }

    @Override
    public void request(String method, String status, long nanos) {
        requests.get(method, status, requestTimer).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void toolCall(String tool, String outcome, long nanos) {
        toolCalls.get(tool, outcome, toolCallTimer).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void cacheLookup(String tool, boolean hit) {
        cacheLookups.get(tool, hit ? "hit" : "miss", cacheLookupCounter).increment();
    }

    @Override
    public void connectorOperation(String adapter, String connector, String operation, String outcome, long nanos) {
        connectorOperations.get(adapter, connector, operation, outcome, connectorTimer)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void scriptCall(String tool, String outcome, long nanos) {
        timer("hyperterse.script.call.duration", "Script calls (handlers, mappers and auth scripts) by tool and outcome (ok, error, timeout, memory)",
                "tool", tool, "outcome", outcome).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void scriptWorkerBusy(long queuedNanos) {
        scriptWorkersBusy.incrementAndGet();
        scriptQueueTimedOut(queuedNanos);
    }

    @Override
    public void scriptQueueTimedOut(long waitedNanos) {
        // the same timer: a call that gave up waiting waited too
        timers.computeIfAbsent(List.of("hyperterse.script.queue.wait"), k -> Timer.builder(k.get(0))
                        .description("Time script calls waited for a worker thread (including calls whose limit "
                                + "passed while they waited)").register(registry))
                .record(waitedNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void scriptWorkerIdle() {
        scriptWorkersBusy.decrementAndGet();
    }

    @Override
    public void scriptContextsChanged(int delta) {
        scriptContexts.addAndGet(delta);
    }

    @Override
    public void reload(boolean applied) {
        counter("hyperterse.reloads", "Project reloads by outcome (applied, or failed and kept the old one)",
                "outcome", applied ? "applied" : "failed").increment();
    }

    @Override
    public void gauge(String name, String description, DoubleSupplier value) {
        Gauge.builder("hyperterse." + name, value::getAsDouble).description(description).strongReference(true)
                .register(registry);
    }

    private Timer timer(String name, String description, String... tags) {
        List<String> key = key(name, tags);
        Timer known = timers.get(key);
        return known != null ? known : timers.computeIfAbsent(key, k -> Timer.builder(name).description(description)
                .tags(tags).serviceLevelObjectives(BUCKETS).register(registry));
    }

    private Counter counter(String name, String description, String... tags) {
        List<String> key = key(name, tags);
        Counter known = counters.get(key);
        return known != null ? known : counters.computeIfAbsent(key, k -> Counter.builder(name).description(description)
                .tags(tags).register(registry));
    }

    /** Makes the meter for label values not seen before. */
    private interface Maker<M> {
        M make(String a, String b, String c, String d);
    }

    /** Meters by four label values, one nested map per label. */
    private static final class ByLabels<M> {
        private final Map<String, Map<String, Map<String, Map<String, M>>>> meters = new ConcurrentHashMap<>();

        M get(String a, String b, String c, String d, Maker<M> maker) {
            Map<String, Map<String, Map<String, M>>> byA = meters.get(a);
            Map<String, Map<String, M>> byB = byA == null ? null : byA.get(b);
            Map<String, M> byC = byB == null ? null : byB.get(c);
            M known = byC == null ? null : byC.get(d);
            if (known != null) {
                return known;
            }
            return meters.computeIfAbsent(a, k -> new ConcurrentHashMap<>())
                    .computeIfAbsent(b, k -> new ConcurrentHashMap<>())
                    .computeIfAbsent(c, k -> new ConcurrentHashMap<>())
                    .computeIfAbsent(d, k -> maker.make(a, b, c, d));
        }
    }

    /** Meters by two label values: two map reads on every call, not four. */
    private static final class ByTwoLabels<M> {
        private final Map<String, Map<String, M>> meters = new ConcurrentHashMap<>();

        M get(String a, String b, Maker<M> maker) {
            Map<String, M> byA = meters.get(a);
            M known = byA == null ? null : byA.get(b);
            return known != null ? known
                    : meters.computeIfAbsent(a, k -> new ConcurrentHashMap<>()).computeIfAbsent(b, k -> maker.make(a, b, "", ""));
        }
    }

    private static List<String> key(String name, String... tags) {
        String[] key = new String[tags.length + 1];
        key[0] = name;
        System.arraycopy(tags, 0, key, 1, tags.length);
        return Arrays.asList(key);
    }
}
