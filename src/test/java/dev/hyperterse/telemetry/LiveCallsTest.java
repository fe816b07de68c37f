package dev.hyperterse.telemetry;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The web console's per-tool counts, percentiles and last calls, and that every event still reaches the metrics it wraps. */
class LiveCallsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-28T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void countsCallsErrorsAndCacheLookupsPerToolWithPercentilesOfTheRecentCalls() {
        LiveCalls live = new LiveCalls(Metrics.NONE, CLOCK);
        for (int ms = 1; ms <= 100; ms++) {
            String cache = ms <= 2 ? "hit" : ms == 3 ? "miss" : null;
            live.callFinished("orders", null, null, ms % 10 == 0 ? "execution" : "ok", null, cache, ms * 1_000_000L);
        }
        live.callFinished("customers", null, null, "ok", null, null, 2_500_000L);
        JsonArray tools = live.snapshot().getJsonArray("tools");
        assertEquals(2, tools.size());
        assertEquals("customers", tools.getJsonObject(0).getString("tool"), "name order");
        JsonObject orders = tools.getJsonObject(1);
        assertEquals(100, orders.getInteger("calls"));
        assertEquals(10, orders.getInteger("errors"));
        assertEquals(2, orders.getInteger("cache_hits"));
        assertEquals(1, orders.getInteger("cache_misses"));
        assertEquals(50.0, orders.getDouble("p50_ms"));
        assertEquals(99.0, orders.getDouble("p99_ms"));
        assertEquals(2.5, tools.getJsonObject(0).getDouble("p99_ms"));
        assertEquals(CLOCK.millis(), live.snapshot().getLong("at"));
    }

    @Test
    void aCallIsCountedOnceWithItsCacheLookupWhateverElseItsToolIsCountedBy() {
        LiveCalls live = new LiveCalls(Metrics.NONE, CLOCK);
        // the events of one cached call, as the pipeline sends them: only the last is the console's
        live.cacheLookup("orders", true);
        live.toolCall("orders", "ok", 1_000_000L);
        live.callFinished("orders", null, null, "ok", null, "hit", 1_000_000L);
        live.cacheLookup("orders", false);
        live.toolCall("orders", "execution", 3_000_000L);
        live.callFinished("orders", null, null, "execution", "execution failed", "miss", 3_000_000L);
        JsonObject orders = live.snapshot().getJsonArray("tools").getJsonObject(0);
        assertEquals(2, orders.getInteger("calls"), orders.encode());
        assertEquals(1, orders.getInteger("errors"), orders.encode());
        assertEquals(1, orders.getInteger("cache_hits"), orders.encode());
        assertEquals(1, orders.getInteger("cache_misses"), orders.encode());
        assertEquals(3.0, orders.getDouble("p99_ms"), orders.encode());
    }

    @Test
    void percentilesAreOfTheLastCallsOnly() {
        LiveCalls live = new LiveCalls(Metrics.NONE, CLOCK);
        for (int i = 0; i < LiveCalls.LATENCY_WINDOW; i++) {
            live.callFinished("slow-then-fast", null, null, "ok", null, null, 900_000_000L);
        }
        for (int i = 0; i < LiveCalls.LATENCY_WINDOW; i++) {
            live.callFinished("slow-then-fast", null, null, "ok", null, null, 1_000_000L);
        }
        JsonObject tool = live.snapshot().getJsonArray("tools").getJsonObject(0);
        assertEquals(2 * LiveCalls.LATENCY_WINDOW, tool.getInteger("calls"));
        assertEquals(1.0, tool.getDouble("p99_ms"), "the slow calls left the window");
    }

    @Test
    void keepsTheLastCallsNewestFirst() {
        LiveCalls live = new LiveCalls(Metrics.NONE, CLOCK);
        assertTrue(live.recordsCalls());
        for (int i = 0; i < LiveCalls.RECENT + 7; i++) {
            String inputs = "{\"i\":" + i + "}";
            live.callFinished("t" + i, i % 2 == 0 ? "ada" : null, () -> inputs, "ok", null, null, 1_000_000L);
        }
        JsonArray recent = live.snapshot().getJsonArray("recent");
        assertEquals(LiveCalls.RECENT, recent.size());
        JsonObject newest = recent.getJsonObject(0);
        assertEquals("t" + (LiveCalls.RECENT + 6), newest.getString("tool"));
        assertEquals("ada", newest.getString("caller"));
        assertEquals("{\"i\":" + (LiveCalls.RECENT + 6) + "}", newest.getString("inputs"));
        assertEquals(1.0, newest.getDouble("duration_ms"));
        assertEquals("t7", recent.getJsonObject(LiveCalls.RECENT - 1).getString("tool"), "the oldest kept");
    }

    @Test
    void aCallsInputsBecomeTextOnlyWhenTheLivePageReadsThem() {
        LiveCalls live = new LiveCalls(Metrics.NONE, CLOCK);
        AtomicInteger made = new AtomicInteger();
        for (int i = 0; i < 3 * LiveCalls.RECENT; i++) {
            live.callFinished("t", null, () -> made.incrementAndGet() + "", "ok", null, null, 1);
        }
        assertEquals(0, made.get(), "nothing made on the calls' path");
        live.snapshot();
        assertEquals(LiveCalls.RECENT, made.get(), "only the calls shown");
    }

    @Test
    void callsFromManyThreadsAreAllCountedAndTheLastOnesKeptInOrder() throws InterruptedException {
        LiveCalls live = new LiveCalls(Metrics.NONE, CLOCK);
        int threads = 4;
        int each = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String caller = "thread-" + t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    int n = i;
                    live.callFinished("shared", caller, () -> Integer.toString(n), i % 4 == 0 ? "execution" : "ok",
                            null, i % 2 == 0 ? "hit" : "miss", 1_000_000L);
                }
            });
            thread.start();
            running.add(thread);
        }
        start.countDown();
        for (Thread thread : running) {
            thread.join();
        }
        JsonObject snapshot = live.snapshot();
        JsonObject shared = snapshot.getJsonArray("tools").getJsonObject(0);
        assertEquals(threads * each, shared.getInteger("calls"));
        assertEquals(threads * each / 4, shared.getInteger("errors"));
        assertEquals(threads * each / 2, shared.getInteger("cache_hits"));
        assertEquals(threads * each / 2, shared.getInteger("cache_misses"));
        assertEquals(1.0, shared.getDouble("p50_ms"));
        JsonArray recent = snapshot.getJsonArray("recent");
        assertEquals(LiveCalls.RECENT, recent.size());
        for (int t = 0; t < threads; t++) {
            // each thread's calls among the last ones are its last, newest first
            int expected = each - 1;
            for (Object row : recent) {
                JsonObject call = (JsonObject) row;
                if (call.getString("caller").equals("thread-" + t)) {
                    assertTrue(Integer.parseInt(call.getString("inputs")) <= expected, call.encode());
                    expected = Integer.parseInt(call.getString("inputs")) - 1;
                }
            }
        }
    }

    @Test
    void passesEveryEventOn() {
        List<String> seen = new ArrayList<>();
        Metrics counting = new Metrics() {
            @Override
            public void toolCall(String tool, String outcome, long nanos) {
                seen.add("call " + tool + " " + outcome);
            }

            @Override
            public void callFinished(String tool, String caller, Supplier<String> inputs, String outcome, String error,
                                     String cache, long nanos) {
                seen.add("finished " + tool + " " + cache);
            }

            @Override
            public void cacheLookup(String tool, boolean hit) {
                seen.add("cache " + tool + " " + hit);
            }

            @Override
            public void request(String method, String status, long nanos) {
                seen.add("request " + method);
            }

            @Override
            public void reload(boolean applied) {
                seen.add("reload " + applied);
            }
        };
        LiveCalls live = new LiveCalls(counting, CLOCK);
        live.toolCall("a", "ok", 1);
        live.callFinished("a", null, null, "ok", null, "miss", 1);
        live.cacheLookup("a", false);
        live.request("tools/call", "ok", 1);
        live.reload(true);
        assertEquals(List.of("call a ok", "finished a miss", "cache a false", "request tools/call", "reload true"), seen);
        assertFalse(Metrics.NONE.recordsCalls(), "without the console, call details are never gathered");
    }
}
