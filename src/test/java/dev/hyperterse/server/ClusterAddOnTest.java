package dev.hyperterse.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterAddOnTest {
    @TempDir
    Path dir;

    @Test
    void presentWhereHazelcastAndItsVertxManagerLoad() {
        assertNull(ClusterAddOn.missing(ClusterAddOnTest.class.getClassLoader(), dir.resolve("hyperterse.jar")));
        assertNull(ClusterAddOn.missing());
    }

    @Test
    void missingNamesTheFileAndTheFolderItBelongsIn() throws Exception {
        try (URLClassLoader withoutIt = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
            String why = ClusterAddOn.missing(withoutIt, dir.resolve("hyperterse.jar"));
            assertEquals("a cluster needs the add-on hyperterse-cluster.jar (Hazelcast) beside hyperterse.jar in " + dir
                    + ": it is built with the server (target/hyperterse-cluster.jar) and the image holds it. "
                    + "A node started without a cluster needs none (docs/cluster.md#the-cluster-add-on)", why);
            assertTrue(ClusterAddOn.missing(withoutIt, null).contains("(Hazelcast) on the class path:"));
        }
    }

    @Test
    void aFileBesideTheJarWithoutTheClassesIsNamedAsSuch() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (JarOutputStream empty = new JarOutputStream(Files.newOutputStream(dir.resolve("hyperterse-cluster.jar")), manifest);
             URLClassLoader withoutIt = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
            empty.flush();
            String why = ClusterAddOn.missing(withoutIt, dir.resolve("hyperterse.jar"));
            assertTrue(why.contains("beside hyperterse.jar in " + dir + ", where the file there holds no com.hazelcast.core.Hazelcast"),
                    why);
        }
    }

    @Test
    void theAddOnsVersionIsReadFromTheJarItsManagerCameFrom() {
        // here the manager comes from Vert.x's own jar, whose manifest names Vert.x's version
        String vertx = io.vertx.spi.cluster.hazelcast.HazelcastClusterManager.class.getPackage().getImplementationVersion();
        assertTrue(vertx != null && vertx.startsWith("5."), String.valueOf(vertx));
        assertEquals(vertx, ClusterAddOn.otherVersion("0.1.0"));
        assertNull(ClusterAddOn.otherVersion(vertx));
        assertNull(ClusterAddOn.otherVersion(null), "a server without a version (run from its classes) compares nothing");
    }
}
