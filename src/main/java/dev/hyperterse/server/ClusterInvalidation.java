package dev.hyperterse.server;

import dev.hyperterse.cache.CacheKey;
import dev.hyperterse.cache.CachedRows;
import dev.hyperterse.cache.ResultCache;
import dev.hyperterse.model.CachePolicy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Cache invalidations that reach every node: a write tool's {@code invalidates} clears the local
 * cache and is published on the event bus, and each other node clears its own. Caches stay
 * per node (results are cheap to recompute, shipping them is not); only the invalidation travels.
 */
final class ClusterInvalidation {
    static final String ADDRESS = "hyperterse.cache.invalidate";

    private final Vertx vertx;
    private final String node = UUID.randomUUID().toString();

    ClusterInvalidation(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Wraps a node's cache so its invalidations are also published. */
    ResultCache publishing(ResultCache local) {
        return new ResultCache() {
            @Override
            public Future<CachedRows> getOrLoad(CacheKey key, CachePolicy policy, Supplier<Future<CachedRows>> loader) {
                return local.getOrLoad(key, policy, loader);
            }

            @Override
            public void invalidateTools(Collection<String> tools) {
                local.invalidateTools(tools);
                vertx.eventBus().publish(ADDRESS, new JsonObject().put("origin", node)
                        .put("tools", new JsonArray(new ArrayList<>(tools))));
            }
        };
    }

    /** Applies other nodes' invalidations to whatever cache this node serves now. */
    MessageConsumer<JsonObject> listen(Supplier<ResultCache> localCache) {
        return vertx.eventBus().<JsonObject>consumer(ADDRESS, message -> {
            JsonObject body = message.body();
            if (node.equals(body.getString("origin"))) {
                return;
            }
            List<String> tools = new ArrayList<>();
            body.getJsonArray("tools", new JsonArray()).forEach(t -> tools.add(String.valueOf(t)));
            localCache.get().invalidateTools(tools);
        });
    }
}
