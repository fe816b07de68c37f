package dev.hyperterse.model;

/** Result caching for one tool, after the per-tool override was applied to {@code tools.cache}. */
public record CachePolicy(boolean enabled, long ttlSeconds) {
    public static final CachePolicy OFF = new CachePolicy(false, 0);

    /** Caching is active only when enabled and the TTL is positive. */
    public boolean active() {
        return enabled && ttlSeconds > 0;
    }
}
