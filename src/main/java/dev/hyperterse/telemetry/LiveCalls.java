package dev.hyperterse.telemetry;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Clock;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The web console's view of the server's own metrics: each tool's calls, failures, latency
 * (p50 and p99 of its most recent calls, up to {@value #LATENCY_WINDOW} on each event loop) and
 * cache lookups, and the
 * last {@value #RECENT} calls with their caller, duration, outcome and inputs as traces show
 * them. It observes what the server counts, passing every event on to the metrics it wraps, and
 * exists only while the console is on: without it nothing here is on a call's path.
 *
 * <p>A call costs little here, and the Live page pays for what it shows when it reads it: a call
 * ({@link #callFinished}, its cache lookup included) finds its tool's counts once, adds to them
 * without locks, writes its duration into its tool's window and one small record
 * (references, no text) into the ring of last calls, the window and the ring of its thread's
 * stripe, so event loops do not write each other's memory; sorting the durations, turning inputs into
 * text and building JSON happen in {@link #snapshot}. Tool names come from the project (an
 * unknown tool counts as {@code unknown}), so the tables are bounded by the catalog.
 */
public final class LiveCalls extends ForwardingMetrics {
    /** The most recent calls kept. */
    public static final int RECENT = 50;
    /** The calls per tool and stripe whose durations make its percentiles (a power of two: a slot is a mask away). */
    static final int LATENCY_WINDOW = 1024;
    /** A window slot no call has written yet. */
    private static final long EMPTY = -1;

    /**
     * How many ways the records are split. Each thread writes to one part of its own (event loops
     * first, as they finish most calls), so two event loops never write the same memory for the
     * same tool, nor the same ring of last calls: a call's record stays in its core's cache.
     */
    static final int STRIPES = 8;
    private static final AtomicInteger NEXT_STRIPE = new AtomicInteger();
    private static final ThreadLocal<Integer> STRIPE =
            ThreadLocal.withInitial(() -> NEXT_STRIPE.getAndIncrement() & (STRIPES - 1));

    private final Clock clock;
    private final Map<String, ToolCounts> tools = new ConcurrentHashMap<>();
    /** The last calls, a ring per stripe: merged by time when the page reads them. */
    private final Ring[] recent = new Ring[STRIPES];

    public LiveCalls(Metrics metrics, Clock clock) {
        super(metrics);
        this.clock = clock;
        for (int i = 0; i < STRIPES; i++) {
            recent[i] = new Ring();
        }
    }

    /** One stripe's last calls: its call number n is in slot n % RECENT, unless a newer one is. */
    private static final class Ring {
        final AtomicLong calls = new AtomicLong();
        final AtomicReferenceArray<Call> slots = new AtomicReferenceArray<>(RECENT);

        void add(long at, String tool, String caller, Supplier<String> inputs, String outcome, String error,
                 long nanos) {
            long number = calls.getAndIncrement();
            Call call = new Call(number, at, tool, caller, inputs, outcome, error, nanos);
            int slot = (int) (number % RECENT);
            // a call that took its number long ago (its thread was paused) does not replace a newer one
            for (Call there = slots.get(slot); there == null || there.number() < number; there = slots.get(slot)) {
                if (slots.compareAndSet(slot, there, call)) {
                    break;
                }
            }
        }
    }

    /** One stripe's durations of a tool: its call n writes slot n of the window. */
    private static final class Window {
        final AtomicLong calls = new AtomicLong();
        final AtomicLongArray nanos = new AtomicLongArray(LATENCY_WINDOW);

        Window() {
            for (int i = 0; i < LATENCY_WINDOW; i++) {
                nanos.setPlain(i, EMPTY);
            }
        }

        void add(long duration) {
            long n = calls.getAndIncrement();
            // opaque: a reader sees a whole duration, never half of one
            nanos.setOpaque((int) (n & (LATENCY_WINDOW - 1)), Math.max(0, duration));
        }
    }

    /** Per tool: counts since start, and the recent durations, a window per stripe that has had a call. */
    private static final class ToolCounts {
        final LongAdder errors = new LongAdder();
        final LongAdder cacheHits = new LongAdder();
        final LongAdder cacheMisses = new LongAdder();
        final AtomicReferenceArray<Window> windows = new AtomicReferenceArray<>(STRIPES);

        void call(int stripe, boolean failed, String cache, long duration) {
            Window window = windows.get(stripe);
            if (window == null) {
                windows.compareAndSet(stripe, null, new Window());
                window = windows.get(stripe);
            }
            window.add(duration);
            if (failed) {
                errors.increment();
            }
            if (cache != null) {
                ("hit".equals(cache) ? cacheHits : cacheMisses).increment();
            }
        }

        JsonObject toJson(String name) {
            // the rest before calls: a call is counted before its failure and its cache lookup,
            // so neither ever exceeds the calls shown
            long failed = errors.sum();
            long hits = cacheHits.sum();
            long misses = cacheMisses.sum();
            List<Window> used = IntStream.range(0, STRIPES).mapToObj(windows::get).filter(Objects::nonNull).toList();
            long total = 0;
            long[] all = new long[used.size() * LATENCY_WINDOW];
            int n = 0;
            for (Window window : used) {
                total += window.calls.get();
                for (int i = 0; i < LATENCY_WINDOW; i++) {
                    long duration = window.nanos.getOpaque(i);
                    if (duration != EMPTY) {
                        all[n++] = duration;
                    }
                }
            }
            long[] sorted = Arrays.copyOf(all, n);
            Arrays.sort(sorted);
            JsonObject json = new JsonObject().put("tool", name).put("calls", total).put("errors", failed)
                    .put("cache_hits", hits).put("cache_misses", misses);
            if (n > 0) {
                json.put("p50_ms", millis(percentile(sorted, 0.50))).put("p99_ms", millis(percentile(sorted, 0.99)));
            }
            return json;
        }
    }

    /** One finished call as it was handed over: its inputs become text only when shown. */
    private record Call(long number, long at, String tool, String caller, Supplier<String> inputs, String outcome,
                        String error, long nanos) {
        JsonObject toJson() {
            return new JsonObject().put("at", at).put("tool", tool).put("caller", caller)
                    .put("duration_ms", millis(nanos)).put("outcome", outcome)
                    .put("inputs", inputs == null ? null : inputs.get()).put("error", error);
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
        JsonArray last = new JsonArray();
        // newest first: by time across the stripes, by number within one (a stripe's calls in the
        // same millisecond keep their order)
        Arrays.stream(recent).flatMap(ring -> IntStream.range(0, RECENT).mapToObj(ring.slots::get))
                .filter(Objects::nonNull)
                .sorted(Comparator.comparingLong(Call::at).thenComparingLong(Call::number).reversed())
                .limit(RECENT).forEach(call -> last.add(call.toJson()));
        return new JsonObject().put("at", clock.millis()).put("tools", toolRows).put("recent", last);
    }

    @Override
    public boolean recordsCalls() {
        return true;
    }

    /**
     * Counts the call (its tool's counts found once: the call's cache lookup comes with it, and
     * {@link #toolCall} and {@link #cacheLookup} only pass their counts on) and keeps it among the
     * last calls.
     */
    @Override
    public void callFinished(String tool, String caller, Supplier<String> inputs, String outcome, String error,
                             String cache, long nanos) {
        int stripe = STRIPE.get();
        counts(tool).call(stripe, !"ok".equals(outcome), cache, nanos);
        recent[stripe].add(clock.millis(), tool, caller, inputs, outcome, error, nanos);
        metrics.callFinished(tool, caller, inputs, outcome, error, cache, nanos);
    }
}
