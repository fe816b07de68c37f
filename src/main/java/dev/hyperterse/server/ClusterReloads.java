package dev.hyperterse.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * Reloads that reach every node: when one node's watcher reloads the project, the others are
 * told to reload theirs too (each recompiles its own copy, e.g. a shared ConfigMap), so a node
 * whose file system noticed the change later, or never, serves the same tools.
 */
final class ClusterReloads {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterReloads.class);
    static final String ADDRESS = "hyperterse.reload";

    private final Vertx vertx;
    private final Supplier<Future<Void>> localReload;
    private final String node = UUID.randomUUID().toString();

    ClusterReloads(Vertx vertx, Supplier<Future<Void>> localReload) {
        this.vertx = vertx;
        this.localReload = localReload;
    }

    /** Reloads here, and once that succeeded, asks every other node to reload. */
    Future<Void> reloadEverywhere() {
        return localReload.get().onSuccess(x -> vertx.eventBus().publish(ADDRESS, new JsonObject().put("origin", node)));
    }

    /** Reloads when another node announces a reload. */
    void listen() {
        vertx.eventBus().<JsonObject>consumer(ADDRESS, message -> {
            if (node.equals(message.body().getString("origin"))) {
                return;
            }
            LOG.info("another node reloaded its project: reloading this node's");
            localReload.get().onFailure(e -> LOG.warn("reload asked by another node failed: {}", e.getMessage()));
        });
    }
}
