package dev.hyperterse.cli;

import dev.hyperterse.server.ClusterOptions;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code start --cluster} and its settings. Each flag falls back to an environment variable, so
 * container deployments configure nodes without changing the command.
 */
final class ClusterFlags {
    @Option(names = "--cluster",
            description = "Join a cluster of nodes (Hazelcast): sessions and cache invalidations are shared, "
                    + "so any node serves any session without sticky routing. Env: HYPERTERSE_CLUSTER=true.")
    boolean enabled;

    @Option(names = "--cluster-members", paramLabel = "HOST[:PORT],...", split = ",", hideParamSyntax = true,
            description = "Other nodes to join (TCP member list). Env: HYPERTERSE_CLUSTER_MEMBERS.")
    List<String> members;

    @Option(names = "--cluster-host", paramLabel = "HOST",
            description = "Address this node announces to the others. Default: --host when it is a concrete "
                    + "address, else this machine's address. Env: HYPERTERSE_CLUSTER_HOST.")
    String host;

    @Option(names = "--cluster-port", paramLabel = "PORT",
            description = "First port for cluster membership (default 5701; the next free one is used). "
                    + "Env: HYPERTERSE_CLUSTER_PORT.")
    Integer port;

    @Option(names = "--cluster-name", paramLabel = "NAME",
            description = "Only nodes with the same name form a cluster (default hyperterse). Env: HYPERTERSE_CLUSTER_NAME.")
    String name;

    @Option(names = "--cluster-multicast",
            description = "Also discover members by multicast (off by default). Env: HYPERTERSE_CLUSTER_MULTICAST=true.")
    boolean multicast;

    /**
     * The cluster settings, or null when this node runs alone.
     *
     * @throws IllegalArgumentException naming the flag or variable whose value is wrong
     */
    ClusterOptions resolve(String bindHost, Map<String, String> env) {
        if (!enabled && !flag(env, "HYPERTERSE_CLUSTER")) {
            return null;
        }
        List<String> peers = members != null ? members : split(env.get("HYPERTERSE_CLUSTER_MEMBERS"));
        String announce = host != null ? host : env.getOrDefault("HYPERTERSE_CLUSTER_HOST", defaultHost(bindHost));
        int clusterPort = port != null ? checkPort(port, "--cluster-port", String.valueOf(port))
                : portFromEnv(env.get("HYPERTERSE_CLUSTER_PORT"));
        String clusterName = name != null ? name : env.getOrDefault("HYPERTERSE_CLUSTER_NAME", "hyperterse");
        boolean mc = multicast || flag(env, "HYPERTERSE_CLUSTER_MULTICAST");
        return new ClusterOptions(clusterName, announce, clusterPort, peers, mc);
    }

    /** An on/off variable: true, 1, yes, on (or their opposites), in any case; unset is off. */
    private static boolean flag(Map<String, String> env, String variable) {
        String value = env.get(variable);
        if (value == null || value.isBlank()) {
            return false;
        }
        switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true": case "1": case "yes": case "on":
                return true;
            case "false": case "0": case "no": case "off":
                return false;
            default:
                throw new IllegalArgumentException(variable + " must be true or false, got '" + value + "'");
        }
    }

    private static int portFromEnv(String value) {
        if (value == null || value.isBlank()) {
            return ClusterOptions.DEFAULT_PORT;
        }
        try {
            return checkPort(Integer.parseInt(value.strip()), "HYPERTERSE_CLUSTER_PORT", value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("HYPERTERSE_CLUSTER_PORT must be a port number from 1 to 65535, got '"
                    + value + "'");
        }
    }

    private static int checkPort(int port, String source, String written) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(source + " must be a port number from 1 to 65535, got '" + written + "'");
        }
        return port;
    }

    private static List<String> split(String list) {
        if (list == null || list.isBlank()) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String defaultHost(String bindHost) {
        if (bindHost != null && !bindHost.equals("0.0.0.0") && !bindHost.equals("::")) {
            return bindHost;
        }
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
