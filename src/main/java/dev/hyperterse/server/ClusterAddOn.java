package dev.hyperterse.server;

import dev.hyperterse.model.AddOns;

import java.nio.file.Path;

/**
 * The cluster manager (Hazelcast and Vert.x's manager for it) comes as an add-on,
 * {@value #FILE}: the server's jar names it in its manifest's {@code Class-Path}, so the JVM
 * loads it when it lies beside the server's jar and a node running alone carries none of it.
 * This class refers to none of the add-on's classes, so it can tell that the add-on is missing.
 */
public final class ClusterAddOn {
    /** The add-on's file name, beside the server's jar. */
    public static final String FILE = "hyperterse-cluster.jar";

    /** A class of each of the add-on's two parts. */
    static final String[] CLASSES = {"com.hazelcast.core.Hazelcast",
            "io.vertx.spi.cluster.hazelcast.HazelcastClusterManager"};

    private ClusterAddOn() {
    }

    /**
     * Null when a cluster can start in this process, else why not: the add-on's file, the folder
     * it belongs in and where to get it.
     */
    public static String missing() {
        return missing(ClusterAddOn.class.getClassLoader(), AddOns.serverJar());
    }

    static String missing(ClassLoader loader, Path serverJar) {
        for (String name : CLASSES) {
            try {
                Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return "a cluster needs the add-on " + FILE + " (Hazelcast) "
                        + AddOns.where(serverJar, FILE, name + " (" + e.getMessage() + ")")
                        + ": it is built with the server (target/" + FILE + ") and the image holds it. "
                        + "A node started without a cluster needs none (docs/cluster.md#the-cluster-add-on)";
            }
        }
        return null;
    }

    /**
     * The add-on's version when it was loaded from a jar that names one and differs from the
     * server's ({@code serverVersion}), else null: an add-on from another release may not match
     * the server's Vert.x.
     */
    public static String otherVersion(String serverVersion) {
        return AddOns.otherVersion(AddOns.jarOf(loaded(CLASSES[1])), serverVersion);
    }

    private static Class<?> loaded(String name) {
        try {
            return Class.forName(name, false, ClusterAddOn.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
