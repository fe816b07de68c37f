package dev.hyperterse.cli;

import dev.hyperterse.project.OperatorLayer;
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
            description = "Join a cluster of nodes (Hazelcast, from the add-on hyperterse-cluster.jar beside this jar): "
                    + "sessions and cache invalidations are shared, so any node serves any session without sticky "
                    + "routing. Env: HYPERTERSE_CLUSTER=true.")
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

    @Option(names = "--cluster-kubernetes-dns", paramLabel = "NAME",
            description = "Find the other nodes by looking up this headless Kubernetes Service "
                    + "(e.g. hyperterse-cluster.NAMESPACE.svc.cluster.local) instead of a member list. "
                    + "Env: HYPERTERSE_CLUSTER_KUBERNETES_DNS.")
    String kubernetesDns;

    /**
     * The cluster settings from flags over the environment's {@code HYPERTERSE_CLUSTER*} variables.
     *
     * @throws IllegalArgumentException naming the flag or variable whose value is wrong
     */
    ClusterOptions resolve(String bindHost, Map<String, String> env) {
        return resolve(bindHost, OperatorLayer.read(null, null, env, Map.of()));
    }

    /**
     * The cluster settings, or null when this node runs alone: each flag over the operator's
     * {@code cluster} setting of the same name (file, property or variable).
     *
     * @throws IllegalArgumentException naming the flag, file or variable whose value is wrong
     */
    ClusterOptions resolve(String bindHost, OperatorLayer layer) {
        Map<String, OperatorLayer.Sourced> operator = layer.cluster();
        if (!enabled && !flag(operator.get("enabled"))) {
            return null;
        }
        List<String> peers = members != null ? members : split(text(operator.get("members")));
        String announce = host != null ? host : operator.containsKey("host") ? operator.get("host").text()
                : defaultHost(bindHost);
        int clusterPort = port != null ? checkPort(port, "--cluster-port", String.valueOf(port))
                : portFrom(operator.get("port"));
        String clusterName = name != null ? name : operator.containsKey("name") ? operator.get("name").text()
                : "hyperterse";
        boolean mc = multicast || flag(operator.get("multicast"));
        String dns = kubernetesDns != null ? kubernetesDns : text(operator.get("kubernetes_dns"));
        if (dns != null && dns.isBlank()) {
            dns = null;
        }
        if (dns != null && !peers.isEmpty()) {
            throw new IllegalArgumentException((kubernetesDns != null ? "--cluster-kubernetes-dns"
                    : operator.get("kubernetes_dns").source()) + " finds the members by DNS: leave the member list ("
                    + (members != null ? "--cluster-members" : operator.get("members").source()) + ") empty");
        }
        return new ClusterOptions(clusterName, announce, clusterPort, peers, mc, dns == null ? null : dns.strip());
    }

    private static String text(OperatorLayer.Sourced value) {
        return value == null ? null : value.text();
    }

    /** An on/off setting: true, 1, yes, on (or their opposites), in any case; unset is off. */
    private static boolean flag(OperatorLayer.Sourced setting) {
        if (setting == null || setting.text().isBlank()) {
            return false;
        }
        switch (setting.text().strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true": case "1": case "yes": case "on":
                return true;
            case "false": case "0": case "no": case "off":
                return false;
            default:
                throw new IllegalArgumentException(setting.source() + " must be true or false, got '" + setting.text() + "'");
        }
    }

    private static int portFrom(OperatorLayer.Sourced setting) {
        if (setting == null || setting.text().isBlank()) {
            return ClusterOptions.DEFAULT_PORT;
        }
        try {
            return checkPort(Integer.parseInt(setting.text().strip()), setting.source(), setting.text());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting.source() + " must be a port number from 1 to 65535, got '"
                    + setting.text() + "'");
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
