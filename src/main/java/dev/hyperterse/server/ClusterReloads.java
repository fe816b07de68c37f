package dev.hyperterse.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reloads that reach every node: when one node's watcher reloads the project, the others are
 * told to reload theirs too (each recompiles its own copy, e.g. a shared ConfigMap), so a node
 * whose file system noticed the change later, or never, serves the same tools. The message also
 * carries what the reloaded node now serves ({@link ProjectChanges#serving}), and each other node,
 * once its own reload is done, tells its clients of what changed: a client hears of a change
 * whichever node took it, also from a node whose copy of the project has not changed yet, and
 * once only (a node that reloaded the same change has already told its clients).
 */
final class ClusterReloads {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterReloads.class);
    static final String ADDRESS = "hyperterse.reload";

    private final Vertx vertx;
    private final Supplier<Future<Void>> localReload;
    private final Supplier<JsonObject> serving;
    private final Consumer<JsonObject> heard;
    private final String node = UUID.randomUUID().toString();

    /**
     * @param serving what this node serves, as {@link ProjectChanges#serving} fingerprints it
     * @param heard   told what another node serves, after this node's own reload
     */
    ClusterReloads(Vertx vertx, Supplier<Future<Void>> localReload, Supplier<JsonObject> serving,
                   Consumer<JsonObject> heard) {
        this.vertx = vertx;
        this.localReload = localReload;
        this.serving = serving;
        this.heard = heard;
    }

    /** Reloads here, and once that succeeded, asks every other node to reload. */
    Future<Void> reloadEverywhere() {
        return localReload.get().onSuccess(x -> vertx.eventBus().publish(ADDRESS,
                new JsonObject().put("origin", node).put("project", serving.get())));
    }

    /** Reloads when another node announces a reload, then tells this node's clients what changed. */
    void listen() {
        vertx.eventBus().<JsonObject>consumer(ADDRESS, message -> {
            JsonObject body = message.body();
            if (node.equals(body.getString("origin"))) {
                return;
            }
            LOG.info("another node reloaded its project: reloading this node's");
            JsonObject project = body.getJsonObject("project");
            localReload.get()
                    .onFailure(e -> LOG.warn("reload asked by another node failed: {}", e.getMessage()))
                    // what the other node serves is announced even when this node's copy did not
                    // change, or did not compile: its clients may reach that node
                    .onComplete(x -> heard.accept(project));
        });
    }
}
