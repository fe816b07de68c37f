package dev.hyperterse.cache;

import dev.hyperterse.model.CachePolicy;
import dev.hyperterse.model.ResultCut;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CaffeineResultCacheTest {
    static Vertx vertx;
    final AtomicLong nanos = new AtomicLong();
    final CaffeineResultCache cache = new CaffeineResultCache(vertx, 1 << 20, nanos::get);
    final AtomicInteger loads = new AtomicInteger();
    static final CachePolicy TEN_SECONDS = new CachePolicy(true, 10);

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    Future<CachedRows> loadOf(int value) {
        loads.incrementAndGet();
        return Future.succeededFuture(new CachedRows(new JsonArray().add(new JsonObject().put("v", value)), ResultCut.NONE));
    }

    static CacheKey key(Object... values) {
        return new CacheKey("t", "SELECT {{ inputs.x }}", List.of(values), null);
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void hitsAfterAMissAndCountsBoth() throws Exception {
        assertEquals(1, await(cache.getOrLoad(key(1L), TEN_SECONDS, () -> loadOf(1))).rows().getJsonObject(0).getInteger("v"));
        assertEquals(1, await(cache.getOrLoad(key(1L), TEN_SECONDS, () -> loadOf(2))).rows().getJsonObject(0).getInteger("v"));
        assertEquals(1, loads.get());
        CacheStats stats = cache.stats();
        assertEquals(1, stats.hits());
        assertEquals(1, stats.misses());
        assertEquals(1, stats.entries());
        assertTrue(stats.weightBytes() > 0);
    }

    @Test
    void differentValuesToolsAndStatementsAreDifferentEntries() throws Exception {
        await(cache.getOrLoad(key(1L), TEN_SECONDS, () -> loadOf(1)));
        await(cache.getOrLoad(key(2L), TEN_SECONDS, () -> loadOf(2)));
        await(cache.getOrLoad(key("1"), TEN_SECONDS, () -> loadOf(3)));
        await(cache.getOrLoad(new CacheKey("other", "SELECT {{ inputs.x }}", List.of(1L), null), TEN_SECONDS, () -> loadOf(4)));
        await(cache.getOrLoad(new CacheKey("t", "SELECT 2 + {{ inputs.x }}", List.of(1L), null), TEN_SECONDS, () -> loadOf(5)));
        await(cache.getOrLoad(new CacheKey("t", "SELECT {{ inputs.x }}", List.of(1L), "alice"), TEN_SECONDS, () -> loadOf(6)));
        assertEquals(6, loads.get());
    }

    @Test
    void entriesExpireAfterTheirOwnTtl() throws Exception {
        CachePolicy oneSecond = new CachePolicy(true, 1);
        await(cache.getOrLoad(key(1L), oneSecond, () -> loadOf(1)));
        await(cache.getOrLoad(key(2L), TEN_SECONDS, () -> loadOf(2)));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1500));
        await(cache.getOrLoad(key(1L), oneSecond, () -> loadOf(3)));
        await(cache.getOrLoad(key(2L), TEN_SECONDS, () -> loadOf(4)));
        assertEquals(3, loads.get(), "the 1 s entry expired, the 10 s one did not");
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(10));
        await(cache.getOrLoad(key(2L), TEN_SECONDS, () -> loadOf(5)));
        assertEquals(4, loads.get());
    }

    @Test
    void inactivePoliciesNeverStore() throws Exception {
        for (CachePolicy off : List.of(CachePolicy.OFF, new CachePolicy(true, 0), new CachePolicy(false, 60))) {
            await(cache.getOrLoad(key(1L), off, () -> loadOf(1)));
            await(cache.getOrLoad(key(1L), off, () -> loadOf(1)));
        }
        assertEquals(6, loads.get());
        assertEquals(0, cache.stats().entries());
    }

    @Test
    void concurrentIdenticalMissesShareOneLoad() throws Exception {
        Promise<CachedRows> slow = Promise.promise();
        List<Future<CachedRows>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(cache.getOrLoad(key(7L), TEN_SECONDS, () -> {
                loads.incrementAndGet();
                return slow.future();
            }));
        }
        slow.complete(new CachedRows(new JsonArray().add(new JsonObject().put("v", 7)), ResultCut.NONE));
        for (Future<CachedRows> call : calls) {
            assertEquals(7, await(call).rows().getJsonObject(0).getInteger("v"));
        }
        assertEquals(1, loads.get());
    }

    @Test
    void failuresAreNotCached() throws Exception {
        Future<CachedRows> failed = cache.getOrLoad(key(1L), TEN_SECONDS, () -> {
            loads.incrementAndGet();
            return Future.failedFuture(new IllegalStateException("down"));
        });
        assertTrue(failed.toCompletionStage().toCompletableFuture().handle((v, e) -> e != null).get(10, TimeUnit.SECONDS));
        await(cache.getOrLoad(key(1L), TEN_SECONDS, () -> loadOf(1)));
        assertEquals(2, loads.get());
    }

    @Test
    void invalidationDropsOnlyTheNamedTools() throws Exception {
        CacheKey other = new CacheKey("other", "SELECT 1", List.of(), null);
        await(cache.getOrLoad(key(1L), TEN_SECONDS, () -> loadOf(1)));
        await(cache.getOrLoad(other, TEN_SECONDS, () -> loadOf(2)));
        cache.invalidateTools(List.of("t"));
        await(cache.getOrLoad(key(1L), TEN_SECONDS, () -> loadOf(3)));
        await(cache.getOrLoad(other, TEN_SECONDS, () -> loadOf(4)));
        assertEquals(3, loads.get());
    }

    @Test
    void theSizeBoundEvicts() throws Exception {
        CaffeineResultCache small = new CaffeineResultCache(vertx, 4096, nanos::get);
        String big = "x".repeat(1000);
        for (int i = 0; i < 20; i++) {
            int n = i;
            await(small.getOrLoad(key((long) n), TEN_SECONDS, () -> Future.succeededFuture(
                    new CachedRows(new JsonArray().add(new JsonObject().put("v", big + n)), ResultCut.NONE))));
        }
        CacheStats stats = small.stats();
        assertTrue(stats.weightBytes() <= 4096, "weight " + stats.weightBytes());
        assertTrue(stats.evictions() > 0);
    }

    /**
     * An entry holds its key as well as its rows: a caller's long input (or a token's claims) that
     * matches no row must weigh what it holds, or distinct calls pin memory without bound.
     */
    @Test
    void theSizeBoundCountsWhatTheKeysHold() throws Exception {
        CaffeineResultCache small = new CaffeineResultCache(vertx, 64 * 1024, nanos::get);
        String input = "x".repeat(16 * 1024);
        JsonObject claims = new JsonObject().put("group", input);
        for (int i = 0; i < 40; i++) {
            String value = input + i;
            CacheKey[] keys = {
                    key(value),
                    new CacheKey("t", "SELECT {{ inputs.x }}", List.of(new JsonArray().add(value)), null),
                    new CacheKey("h", "handler h.ts", List.of(), new JsonArray().add(claims.copy().put("n", i)).encode())};
            for (CacheKey k : keys) {
                await(small.getOrLoad(k, TEN_SECONDS, () -> Future.succeededFuture(
                        new CachedRows(new JsonArray(), ResultCut.NONE))));
            }
        }
        CacheStats stats = small.stats();
        assertTrue(stats.entries() * input.length() <= 64 * 1024,
                stats.entries() + " entries of 16 KiB keys held under a 64 KiB bound (weight " + stats.weightBytes() + ")");
        assertTrue(stats.evictions() > 0);
    }
}
