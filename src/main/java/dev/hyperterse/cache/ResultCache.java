package dev.hyperterse.cache;

import dev.hyperterse.model.CachePolicy;
import io.vertx.core.Future;

import java.util.Collection;
import java.util.function.Supplier;

/**
 * The cache that sits under the mappers and in front of the database (or handler). Entries are
 * keyed by {@link CacheKey}: tool name, statement template and the canonical bound values.
 */
public interface ResultCache {

    /** A cache that never stores anything: every call loads. */
    ResultCache NONE = new ResultCache() {
        @Override
        public Future<CachedRows> getOrLoad(CacheKey key, CachePolicy policy, Supplier<Future<CachedRows>> loader) {
            return loader.get();
        }

        @Override
        public void invalidateTools(Collection<String> tools) {
            // nothing is stored
        }
    };

    /**
     * Returns the cached rows for {@code key} when {@code policy} is active and an entry is live;
     * otherwise loads them. Concurrent misses for one key share one load. Failed loads are not
     * cached.
     */
    Future<CachedRows> getOrLoad(CacheKey key, CachePolicy policy, Supplier<Future<CachedRows>> loader);

    /** Drops every entry of these tools (a write tool's {@code invalidates}). */
    void invalidateTools(Collection<String> tools);
}
