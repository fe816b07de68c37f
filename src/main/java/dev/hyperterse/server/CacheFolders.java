package dev.hyperterse.server;

import java.nio.file.Path;

/**
 * Where the server keeps what it computed at one start for the next: one folder per kind under
 * the user's cache folder, or a folder a JVM property names.
 */
public final class CacheFolders {
    /** A JVM property naming the folder for prepared scripts instead of the user's cache folder. */
    public static final String SCRIPTS_PROPERTY = "hyperterse.scripts.cache";

    private CacheFolders() {
    }

    /**
     * Prepared scripts (stripped TypeScript, passed checks): the {@value #SCRIPTS_PROPERTY}
     * property's folder, else {@code $XDG_CACHE_HOME/hyperterse/scripts}, else
     * {@code ~/.cache/hyperterse/scripts}; null (no disk cache) without a home folder.
     */
    public static Path scripts() {
        return of(SCRIPTS_PROPERTY, "scripts");
    }

    /**
     * The {@code property}'s folder, else {@code $XDG_CACHE_HOME/hyperterse/NAME}, else
     * {@code ~/.cache/hyperterse/NAME}; null without a home folder.
     */
    static Path of(String property, String name) {
        String chosen = System.getProperty(property);
        if (chosen != null && !chosen.isBlank()) {
            return Path.of(chosen);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "hyperterse", name);
        }
        String home = System.getProperty("user.home");
        if (home == null || home.isBlank() || home.equals("?")) {
            return null;
        }
        return Path.of(home, ".cache", "hyperterse", name);
    }
}
