package dev.hyperterse.cache;

/** Counters for metrics: lookups answered from the cache, loads, evictions and live size. */
public record CacheStats(long hits, long misses, long evictions, long entries, long weightBytes) {
}
