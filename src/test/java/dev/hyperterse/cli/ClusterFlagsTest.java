package dev.hyperterse.cli;

import dev.hyperterse.server.ClusterOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code start --cluster} settings: flags first, then the HYPERTERSE_CLUSTER_* variables, then defaults. */
class ClusterFlagsTest {

    @Test
    void aloneUnlessAFlagOrTheVariableSaysSo() {
        assertNull(new ClusterFlags().resolve("127.0.0.1", Map.of()));
        assertNull(new ClusterFlags().resolve("127.0.0.1", Map.of("HYPERTERSE_CLUSTER", "off")));
        assertEquals(ClusterOptions.DEFAULT_PORT,
                new ClusterFlags().resolve("127.0.0.1", Map.of("HYPERTERSE_CLUSTER", "TRUE")).port());
        assertEquals("hyperterse", new ClusterFlags().resolve("127.0.0.1", Map.of("HYPERTERSE_CLUSTER", "1")).name());
    }

    @Test
    void containersConfigureNodesThroughTheEnvironment() {
        ClusterOptions options = new ClusterFlags().resolve("0.0.0.0", Map.of(
                "HYPERTERSE_CLUSTER", "yes",
                "HYPERTERSE_CLUSTER_MEMBERS", " hyperterse-1:5701, hyperterse-2 ,,",
                "HYPERTERSE_CLUSTER_HOST", "10.0.0.7",
                "HYPERTERSE_CLUSTER_PORT", "5801",
                "HYPERTERSE_CLUSTER_NAME", "shop",
                "HYPERTERSE_CLUSTER_MULTICAST", "on"));
        assertEquals(new ClusterOptions("shop", "10.0.0.7", 5801, List.of("hyperterse-1:5701", "hyperterse-2"), true,
                        null),
                options);
    }

    @Test
    void flagsWinOverTheEnvironment() {
        ClusterFlags flags = new ClusterFlags();
        flags.enabled = true;
        flags.members = List.of("a:1");
        flags.host = "10.0.0.9";
        flags.port = 6000;
        flags.name = "flagged";
        ClusterOptions options = flags.resolve("127.0.0.1", Map.of("HYPERTERSE_CLUSTER_MEMBERS", "b:2",
                "HYPERTERSE_CLUSTER_HOST", "10.0.0.1", "HYPERTERSE_CLUSTER_PORT", "5801", "HYPERTERSE_CLUSTER_NAME", "env"));
        assertEquals(new ClusterOptions("flagged", "10.0.0.9", 6000, List.of("a:1"), false, null), options);
    }

    /** In Kubernetes the members come from a headless Service's DNS name, set by variable or flag. */
    @Test
    void kubernetesNodesFindEachOtherThroughTheHeadlessServiceName() {
        ClusterOptions options = new ClusterFlags().resolve("0.0.0.0", Map.of("HYPERTERSE_CLUSTER", "true",
                "HYPERTERSE_CLUSTER_KUBERNETES_DNS", " hyperterse-cluster.shop.svc.cluster.local "));
        assertEquals("hyperterse-cluster.shop.svc.cluster.local", options.kubernetesDns());
        com.hazelcast.config.JoinConfig join = dev.hyperterse.server.Clustering.hazelcastConfig(options)
                .getNetworkConfig().getJoin();
        assertTrue(join.getKubernetesConfig().isEnabled(), "Hazelcast's built-in Kubernetes discovery");
        assertEquals("hyperterse-cluster.shop.svc.cluster.local", join.getKubernetesConfig().getProperty("service-dns"));
        assertEquals("5701", join.getKubernetesConfig().getProperty("service-port"));
        assertTrue(!join.getTcpIpConfig().isEnabled(), "no member list");

        ClusterFlags flags = new ClusterFlags();
        flags.enabled = true;
        flags.kubernetesDns = "flagged.default.svc.cluster.local";
        assertEquals("flagged.default.svc.cluster.local", flags.resolve("0.0.0.0",
                Map.of("HYPERTERSE_CLUSTER_KUBERNETES_DNS", "env.default.svc.cluster.local")).kubernetesDns());
        assertNull(new ClusterFlags().resolve("0.0.0.0", Map.of("HYPERTERSE_CLUSTER", "true")).kubernetesDns());

        IllegalArgumentException both = assertThrows(IllegalArgumentException.class, () -> new ClusterFlags()
                .resolve("0.0.0.0", Map.of("HYPERTERSE_CLUSTER", "true", "HYPERTERSE_CLUSTER_MEMBERS", "a,b",
                        "HYPERTERSE_CLUSTER_KUBERNETES_DNS", "svc.ns.svc.cluster.local")));
        assertEquals("HYPERTERSE_CLUSTER_KUBERNETES_DNS finds the members by DNS: leave the member list "
                + "(HYPERTERSE_CLUSTER_MEMBERS) empty", both.getMessage());
    }

    @Test
    void aConcreteBindAddressIsAnnounced() {
        ClusterFlags flags = new ClusterFlags();
        flags.enabled = true;
        assertEquals("192.168.1.5", flags.resolve("192.168.1.5", Map.of()).host());
    }

    @Test
    void wrongValuesNameTheirSource() {
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class, () -> new ClusterFlags()
                .resolve("127.0.0.1", Map.of("HYPERTERSE_CLUSTER", "true", "HYPERTERSE_CLUSTER_PORT", "57o1")));
        assertEquals("HYPERTERSE_CLUSTER_PORT must be a port number from 1 to 65535, got '57o1'", port.getMessage());
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class, () -> new ClusterFlags()
                .resolve("127.0.0.1", Map.of("HYPERTERSE_CLUSTER", "true", "HYPERTERSE_CLUSTER_PORT", "70000")));
        assertTrue(range.getMessage().startsWith("HYPERTERSE_CLUSTER_PORT must be"), range.getMessage());
        ClusterFlags flags = new ClusterFlags();
        flags.enabled = true;
        flags.port = 0;
        assertEquals("--cluster-port must be a port number from 1 to 65535, got '0'",
                assertThrows(IllegalArgumentException.class, () -> flags.resolve("127.0.0.1", Map.of())).getMessage());
        assertEquals("HYPERTERSE_CLUSTER must be true or false, got 'maybe'", assertThrows(IllegalArgumentException.class,
                () -> new ClusterFlags().resolve("127.0.0.1", Map.of("HYPERTERSE_CLUSTER", "maybe"))).getMessage());
    }
}
