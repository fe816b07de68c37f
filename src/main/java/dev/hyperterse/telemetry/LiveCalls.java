package dev.hyperterse.telemetry;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The web console's view of the server's own metrics: each tool's calls, failures, latency
 * (p50 and p99 of its most recent {@value #LATENCY_WINDOW} calls) and cache lookups, and the
 * last {@value #RECENT} calls with their caller, duration, outcome and inputs as traces show
 * them. It observes what the server counts, passing every event on to the metrics it wraps, and
 * exists only while the console is on: without it nothing here is on a call's path.
 *
 * <p>Tool names come from the project (an unknown tool counts as {@code unknown}), so the tables
 * are bounded by the catalog; every per-tool record is updated under its own lock, held for a
 * few field writes.
 */
public final class LiveCalls extends ForwardingMetrics {
    /** The most recent calls kept. */
    public static final int RECENT = 50;
    /** The calls per tool whose durations make its percentiles. */
    static final int LATENCY_WINDOW = 1024;

    private final Clock clock;
    private final Map<String, ToolCounts> tools = new ConcurrentHashMap<>();
    private final Object recentLock = new Object();
    // guarded by recentLock: a ring of the last RECENT calls, next written at recentNext
    private final JsonObject[] recent = new JsonObject[RECENT];
    private long recentNext;

    public LiveCalls(Metrics metrics, Clock clock) {
        super(metrics);
        this.clock = clock;
    }

    /** Per tool: counts since start, and a ring of recent durations. */
    private static final class ToolCounts {
        long calls;
        long errors;
        long cacheHits;
        long cacheMisses;
        final long[] nanos = new long[LATENCY_WINDOW];
        long recorded;

        synchronized void call(boolean failed, long duration) {
            calls++;
            if (failed) {
                errors++;
            }
            nanos[(int) (recorded++ % LATENCY_WINDOW)] = duration;
        }

        synchronized void cache(boolean hit) {
            if (hit) {
                cacheHits++;
            } else {
                cacheMisses++;
            }
        }

        synchronized JsonObject toJson(String name) {
            int n = (int) Math.min(recorded, LATENCY_WINDOW);
            long[] sorted = Arrays.copyOf(nanos, n);
            Arrays.sort(sorted);
            JsonObject json = new JsonObject().put("tool", name).put("calls", calls).put("errors", errors)
                    .put("cache_hits", cacheHits).put("cache_misses", cacheMisses);
            if (n > 0) {
                json.put("p50_ms", millis(percentile(sorted, 0.50))).put("p99_ms", millis(percentile(sorted, 0.99)));
            }
            return json;
        }
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    private ToolCounts counts(String tool) {
        ToolCounts known = tools.get(tool);
        return known != null ? known : tools.computeIfAbsent(tool, t -> new ToolCounts());
    }

    /**
     * What the console's Live page shows: {@code tools} (name order) with {@code calls},
     * {@code errors}, {@code cache_hits}, {@code cache_misses}, {@code p50_ms} and {@code p99_ms};
     * {@code recent}, newest first; and {@code at}, the time read (epoch milliseconds).
     */
    public JsonObject snapshot() {
        JsonArray toolRows = new JsonArray();
        new TreeMap<>(tools).forEach((name, counts) -> toolRows.add(counts.toJson(name)));
        JsonArray calls = new JsonArray();
        synchronized (recentLock) {
            for (long i = recentNext - 1; i >= 0 && i >= recentNext - RECENT; i--) {
                calls.add(recent[(int) (i % RECENT)].copy());
            }
        }
        return new JsonObject().put("at", clock.millis()).put("tools", toolRows).put("recent", calls);
    }

    @Override
    public void toolCall(String tool, String outcome, long nanos) {
        counts(tool).call(!"ok".equals(outcome), nanos);
        metrics.toolCall(tool, outcome, nanos);
    }

    @Override
    public boolean recordsCalls() {
        return true;
    }

    @Override
    public void callFinished(String tool, String caller, String inputs, String outcome, String error, long nanos) {
        JsonObject call = new JsonObject().put("at", clock.millis()).put("tool", tool)
                .put("caller", caller).put("duration_ms", millis(nanos)).put("outcome", outcome)
                .put("inputs", inputs).put("error", error);
        synchronized (recentLock) {
            recent[(int) (recentNext++ % RECENT)] = call;
        }
        metrics.callFinished(tool, caller, inputs, outcome, error, nanos);
    }

    @Override
    public void cacheLookup(String tool, boolean hit) {
        counts(tool).cache(hit);
        metrics.cacheLookup(tool, hit);
    }

}
