package dev.hyperterse.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.hyperterse.model.CachePolicy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Results in memory, bounded by their encoded size in bytes, each entry living for its tool's
 * TTL. Caffeine's async cache shares one in-flight load among concurrent identical misses, so N
 * simultaneous calls cost one database round trip. Completions are handed back to the calling
 * Vert.x context.
 */
public final class CaffeineResultCache implements ResultCache {
    /** Bookkeeping per entry on top of the encoded rows (key, node, future). */
    private static final int ENTRY_OVERHEAD = 256;

    private final Vertx vertx;
    private final AsyncCache<CacheKey, Stored> cache;

    /** A value with the TTL it was stored under. */
    private record Stored(CachedRows rows, long ttlNanos, int weight) {
    }

    public CaffeineResultCache(Vertx vertx, long maxBytes) {
        this(vertx, maxBytes, Ticker.systemTicker());
    }

    /** With a given clock, so expiry can be tested without waiting. */
    CaffeineResultCache(Vertx vertx, long maxBytes, Ticker ticker) {
        this.vertx = vertx;
        this.cache = Caffeine.newBuilder()
                .ticker(ticker)
                .executor(Runnable::run)
                .maximumWeight(maxBytes)
                .weigher((CacheKey k, Stored v) -> v.weight())
                .expireAfter(new Expiry<CacheKey, Stored>() {
                    @Override
                    public long expireAfterCreate(CacheKey key, Stored value, long currentTime) {
                        return value.ttlNanos();
                    }

                    @Override
                    public long expireAfterUpdate(CacheKey key, Stored value, long currentTime, long currentDuration) {
                        return value.ttlNanos();
                    }

                    @Override
                    public long expireAfterRead(CacheKey key, Stored value, long currentTime, long currentDuration) {
                        return currentDuration;
                    }
                })
                .recordStats()
                .buildAsync();
    }

    @Override
    public Future<CachedRows> getOrLoad(CacheKey key, CachePolicy policy, Supplier<Future<CachedRows>> loader) {
        if (!policy.active()) {
            return loader.get();
        }
        long ttl = TimeUnit.SECONDS.toNanos(policy.ttlSeconds());
        CompletableFuture<Stored> entry = cache.get(key, (k, executor) -> loader.get()
                .map(rows -> new Stored(rows, ttl, weigh(k, rows)))
                .toCompletionStage().toCompletableFuture());
        if (entry.isDone() && !entry.isCompletedExceptionally()) {
            return Future.succeededFuture(entry.join().rows());
        }
        return Future.fromCompletionStage(entry, vertx.getOrCreateContext()).map(Stored::rows);
    }

    @Override
    public void invalidateTools(Collection<String> tools) {
        Set<String> names = new HashSet<>(tools);
        cache.asMap().keySet().removeIf(k -> names.contains(k.tool()));
    }

    public CacheStats stats() {
        com.github.benmanes.caffeine.cache.stats.CacheStats s = cache.synchronous().stats();
        long weight = cache.synchronous().policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
        return new CacheStats(s.hitCount(), s.missCount(), s.evictionCount(), cache.synchronous().estimatedSize(), weight);
    }

    private static int weigh(CacheKey key, CachedRows rows) {
        long bytes = (long) rows.rows().toBuffer().length() + key.bytes() + ENTRY_OVERHEAD
                + (rows.content() == null ? 0 : rows.content().toBuffer().length());
        return (int) Math.min(Integer.MAX_VALUE, bytes);
    }
}
