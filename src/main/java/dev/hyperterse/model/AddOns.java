package dev.hyperterse.model;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.jar.JarFile;

/**
 * The add-ons that lie beside the server's jar: the cluster manager, which the jar's manifest names in
 * its {@code Class-Path}, and the semantic ranking's models, which the server reads in a class loader
 * of its own. Where one is missing, its users say where it belongs; where one comes from another
 * release than the server, they warn.
 */
public final class AddOns {

    private AddOns() {
    }

    /** The jar {@code type} was loaded from, or null when it was loaded from class folders. */
    public static Path jarOf(Class<?> type) {
        if (type == null) {
            return null;
        }
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            Path path = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(path) ? path : null;
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }

    /** The jar this server runs from, or null when it runs from class folders. */
    public static Path serverJar() {
        return jarOf(AddOns.class);
    }

    /** This server's release ({@code Implementation-Version} of its jar), or null when it runs from class folders. */
    public static String serverVersion() {
        return AddOns.class.getPackage().getImplementationVersion();
    }

    /**
     * The release the jar {@code addOn} names ({@code Implementation-Version} in its manifest) when it
     * names one and it differs from {@code serverVersion}, else null (no jar, no version on either
     * side, or a jar that cannot be read: nothing to compare).
     */
    public static String otherVersion(Path addOn, String serverVersion) {
        if (addOn == null || serverVersion == null) {
            return null;
        }
        try (JarFile jar = new JarFile(addOn.toFile())) {
            var manifest = jar.getManifest();
            String version = manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
            return version != null && !version.equals(serverVersion) ? version : null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /**
     * Where the add-on {@code file} belongs: "beside hyperterse.jar in /opt/x" for a server run from its
     * jar, else "on the class path"; where a file of that name lies there nonetheless, followed by
     * ", where the file there holds no " and {@code lacks}.
     */
    public static String where(Path serverJar, String file, String lacks) {
        if (serverJar == null || serverJar.getParent() == null) {
            return "on the class path";
        }
        return "beside " + serverJar.getFileName() + " in " + serverJar.getParent()
                + (Files.exists(serverJar.resolveSibling(file)) ? ", where the file there holds no " + lacks : "");
    }
}
