package dev.hyperterse.server;

import com.hazelcast.config.MapConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A node that stops leaves its cluster: after Vert.x closes, its member leaves gracefully, handing
 * its partitions to the others first, so even data kept without a backup survives it (a member
 * that vanished would take its share along) and the others do not wait for a dead member.
 */
class ClusterLeaveTest {
    private final List<Vertx> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Vertx v : started) {
            v.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        members.forEach(ClusterMember::leave);
    }

    private final List<ClusterMember> members = new ArrayList<>();

    private HazelcastClusterManager join(String cluster, int port, int first) throws Exception {
        ClusterOptions options = new ClusterOptions(cluster, "127.0.0.1", port,
                List.of("127.0.0.1:" + first, "127.0.0.1:" + (first + 1)), false, null);
        ClusterMember member = ClusterMember.start(options);
        members.add(member);
        HazelcastClusterManager manager = (HazelcastClusterManager) member.clusterManager();
        Vertx vertx = Vertx.builder().with(Clustering.withEventBus(new VertxOptions(), "127.0.0.1"))
                .withClusterManager(manager).buildClustered()
                .toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
        started.add(vertx);
        return manager;
    }

    @Test
    void aClosingNodeLeavesAndHandsItsDataOver() throws Exception {
        String cluster = "hyperterse-leave-" + UUID.randomUUID();
        int port = ClusterTest.freePortBlock();
        HazelcastClusterManager a = join(cluster, port, port);
        HazelcastClusterManager b = join(cluster, port + 1, port);
        HazelcastInstance onA = a.getHazelcastInstance();
        HazelcastInstance onB = b.getHazelcastInstance();
        assertEquals(2, onB.getCluster().getMembers().size());

        // no backups: whatever A owns exists only on A
        onA.getConfig().addMapConfig(new MapConfig("single-copy").setBackupCount(0).setAsyncBackupCount(0));
        IMap<Integer, Integer> map = onA.getMap("single-copy");
        for (int i = 0; i < 500; i++) {
            map.put(i, i);
        }
        int ownedByA = (int) map.localKeySet().size();
        assertFalse(ownedByA == 0, "A owns part of the map");

        Vertx vertxA = started.remove(0);
        vertxA.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        members.get(0).leave();

        assertFalse(onA.getLifecycleService().isRunning(), "A's member left");
        // B learns of the leave from A's goodbye, a moment after A's member stopped
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (onB.getCluster().getMembers().size() > 1 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(1, onB.getCluster().getMembers().size(), "B saw A leave");
        assertEquals(500, onB.<Integer, Integer>getMap("single-copy").size(),
                "A handed its " + ownedByA + " entries over before it left");
    }
}
