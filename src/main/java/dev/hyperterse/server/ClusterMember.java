package dev.hyperterse.server;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * This node's Hazelcast member. Starting one takes seconds (loading Hazelcast, then the join), so
 * it starts on a thread of its own as soon as the cluster settings are known, while the project
 * compiles; Vert.x then runs on it ({@link #clusterManager()}). Vert.x does not stop a member it
 * was handed, so the node leaves the cluster itself ({@link #leave()}): gracefully, its partitions
 * (sessions and their backups) handed to the others first, so the others neither wait for a dead
 * member nor lose the only copy of a session, and the node's next start joins at once.
 */
public final class ClusterMember {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMember.class);

    private final ClusterOptions options;
    private final CompletableFuture<HazelcastInstance> instance = new CompletableFuture<>();
    private final long started = System.nanoTime();

    private ClusterMember(ClusterOptions options) {
        this.options = options;
    }

    /** Starts joining the cluster {@code options} name, in the background. */
    public static ClusterMember start(ClusterOptions options) {
        ClusterMember member = new ClusterMember(options);
        Thread joining = new Thread(() -> {
            try {
                member.instance.complete(Hazelcast.newHazelcastInstance(Clustering.hazelcastConfig(options)));
            } catch (Throwable e) {
                member.instance.completeExceptionally(e);
            }
        }, "hyperterse-cluster-join");
        joining.setDaemon(true);
        joining.start();
        return member;
    }

    public ClusterOptions options() {
        return options;
    }

    /**
     * Waits for the join and returns the cluster manager Vert.x runs on (blocking: never on an
     * event loop).
     *
     * @throws ExecutionException with the reason the member could not start or join
     */
    public ClusterManager clusterManager() throws ExecutionException, InterruptedException {
        HazelcastInstance member = instance.get();
        LOG.info("joined cluster '{}' in {} ms: {} members", options.name(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), member.getCluster().getMembers().size());
        return new HazelcastClusterManager(member);
    }

    /**
     * Leaves the cluster gracefully, within {@link Clustering#GRACEFUL_LEAVE}; waits for a start
     * still under way first. Does nothing when the member never started or has left.
     */
    public void leave() {
        HazelcastInstance member;
        try {
            member = instance.get(Clustering.GRACEFUL_LEAVE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return;
        } catch (TimeoutException e) {
            LOG.warn("leaving the cluster: the member was still starting after {} s", Clustering.GRACEFUL_LEAVE.toSeconds());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (member.getLifecycleService().isRunning()) {
            member.shutdown();
        }
    }
}
