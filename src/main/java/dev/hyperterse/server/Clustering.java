package dev.hyperterse.server;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

/**
 * Starts a clustered Vert.x on Hazelcast: members found by a TCP list (multicast only when asked),
 * the event bus bound to the same address, and Hazelcast's own logging routed to SLF4J.
 */
public final class Clustering {

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
        // leave quickly on shutdown, and notice a vanished member within seconds
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(options.port()).setPortAutoIncrement(true).setPortCount(20);
        // Hazelcast matches interfaces by address, so a host name (a container's) is resolved first
        String address = address(options.host());
        network.setPublicAddress(address);
        network.getInterfaces().setEnabled(true).addInterface(address);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(options.multicast());
        join.getAutoDetectionConfig().setEnabled(false);
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

    /**
     * Joins the cluster: starts this node's Hazelcast member (blocking until it has looked for the
     * others; call it before serving, never on an event loop).
     */
    public static ClusterManager clusterManager(ClusterOptions options) {
        return new HazelcastClusterManager(Hazelcast.newHazelcastInstance(hazelcastConfig(options)));
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
