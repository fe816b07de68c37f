package dev.hyperterse.server;

import java.util.List;

/**
 * How a node joins its cluster ({@code start --cluster}).
 *
 * @param name      the cluster's name; nodes only join a cluster of the same name
 * @param host      the address this node binds and announces to the others (cluster traffic and
 *                  the event bus); must be reachable by the other nodes
 * @param port      the first port tried for cluster membership (the next ones are tried if taken)
 * @param members   other nodes as {@code host[:port]}, the TCP member list
 * @param multicast discover members by multicast as well (off by default: most networks block it)
 * @param kubernetesDns the DNS name of a headless Kubernetes Service selecting the nodes (such as
 *                  {@code hyperterse-cluster.shop.svc.cluster.local}): members are found by looking
 *                  it up (Hazelcast's built-in Kubernetes discovery, DNS lookup mode) instead of a
 *                  member list; null when not in use
 */
public record ClusterOptions(String name, String host, int port, List<String> members, boolean multicast,
                             String kubernetesDns) {
    public static final int DEFAULT_PORT = 5701;

    public ClusterOptions {
        members = List.copyOf(members);
    }
}
