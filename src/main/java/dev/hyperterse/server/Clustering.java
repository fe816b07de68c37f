package dev.hyperterse.server;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

/**
 * Starts a clustered Vert.x on Hazelcast: members found by a TCP list (multicast only when asked),
 * the event bus bound to the same address, and Hazelcast's own logging routed to SLF4J.
 */
public final class Clustering {
    /** How long a leaving node may take to hand its partitions to the others. */
    public static final java.time.Duration GRACEFUL_LEAVE = java.time.Duration.ofSeconds(15);

    private Clustering() {
    }

    public static Config hazelcastConfig(ClusterOptions options) {
        // Vert.x's defaults hold the maps and multimaps its cluster manager needs (backups included)
        Config config = ConfigUtil.loadConfig();
        config.setClusterName(options.name());
        // the cluster manager finds its node by this attribute when given a ready instance
        config.getMemberAttributeConfig().setAttribute("__vertx.nodeId", java.util.UUID.randomUUID().toString());
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        // the process's own shutdown leaves the cluster (ClusterMember.leave), and a vanished member
        // is noticed within seconds
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
        // A joining node is let in after 1 s instead of 5: the master waits this long after a join
        // request for others to batch them, which cost every restarted node 5 s before it could
        // serve. The wait grows with each further request, at most to 5 s (20 by default).
        config.setProperty("hazelcast.wait.seconds.before.join", "1");
        config.setProperty("hazelcast.max.wait.seconds.before.join", "5");
        // nodes that started apart (all at once, or across a network split) find each other and
        // merge within seconds, not after the default 5 minutes
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "10");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "10");
        // a leaving node hands its partitions (sessions and their backups) to the others first, but
        // within the process's shutdown deadline, not Hazelcast's default 10 minutes
        config.setProperty("hazelcast.graceful.shutdown.max.wait", String.valueOf(GRACEFUL_LEAVE.toSeconds()));
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(options.port()).setPortAutoIncrement(true).setPortCount(20);
        // Hazelcast matches interfaces by address, so a host name (a container's) is resolved first
        String address = address(options.host());
        network.setPublicAddress(address);
        network.getInterfaces().setEnabled(true).addInterface(address);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(options.multicast());
        join.getAutoDetectionConfig().setEnabled(false);
        if (options.kubernetesDns() != null) {
            // Kubernetes: the headless Service's DNS name lists the ready and starting pods
            join.getTcpIpConfig().setEnabled(false);
            join.getKubernetesConfig().setEnabled(true)
                    .setProperty("service-dns", options.kubernetesDns())
                    .setProperty("service-port", String.valueOf(options.port()));
            return config;
        }
        join.getTcpIpConfig().setEnabled(true).setMembers(options.members());
        if (options.members().isEmpty()) {
            join.getTcpIpConfig().addMember(options.host());
        }
        return config;
    }

    static String address(String host) {
        try {
            return java.net.InetAddress.getByName(host).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("cluster host '" + host + "' does not resolve to an address", e);
        }
    }

    /** Vert.x options whose event bus binds and announces the cluster host. */
    public static VertxOptions withEventBus(VertxOptions vertxOptions, String host) {
        return vertxOptions.setEventBusOptions(new EventBusOptions().setHost(host).setClusterPublicHost(host).setPort(0));
    }

    /** A clustered Vert.x on an existing Hazelcast instance (tests stop instances abruptly). */
    public static Future<Vertx> start(VertxOptions vertxOptions, HazelcastInstance hazelcast, String host) {
        return Vertx.builder()
                .with(withEventBus(vertxOptions, host))
                .withClusterManager(new HazelcastClusterManager(hazelcast))
                .buildClustered();
    }
}
