package dev.hyperterse.model;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * The add-ons the server's jar names in its manifest's {@code Class-Path} (the cluster manager, the
 * semantic ranking's models): the JVM loads each from beside the server's jar when it lies there.
 * Where one is missing, its users say where it belongs.
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

    /**
     * Where an add-on belongs: "beside hyperterse.jar in /opt/x" for a server run from its jar,
     * else "on the class path".
     */
    public static String where(Path serverJar) {
        return serverJar != null && serverJar.getParent() != null
                ? "beside " + serverJar.getFileName() + " in " + serverJar.getParent()
                : "on the class path";
    }
}
