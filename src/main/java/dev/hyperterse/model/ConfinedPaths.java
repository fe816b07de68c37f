package dev.hyperterse.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Resolves a path written in a project (or built from a caller's argument) so that it cannot
 * leave the folder it is confined to: not by {@code ..}, not by an absolute path, not through a symbolic
 * link. Touches the file system (it follows links), so call it off the event loop.
 */
public final class ConfinedPaths {
    private ConfinedPaths() {
    }

    /**
     * A file or folder name nothing served from a project may have, whatever asks: hidden
     * ({@code .env*}, {@code .hyperterse}, {@code .git}) or a {@code .terse} configuration file.
     */
    public static boolean isHiddenOrConfig(String name) {
        return name.startsWith(".") || name.toLowerCase(java.util.Locale.ROOT).endsWith(".terse");
    }

    /**
     * @param projectDir the folder nothing may leave (the project, or a resource's own folder)
     * @param what       how messages name that folder ("the project folder")
     * @param base       what {@code written} is relative to (inside {@code projectDir})
     * @return the real path of an existing regular file inside the project
     * @throws IllegalArgumentException saying why not (outside the project, missing, not a file);
     *                                  the message names {@code written} only, never the real path
     */
    public static Path resolve(Path projectDir, String what, Path base, String written) {
        Path candidate;
        try {
            candidate = base.resolve(written).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("'" + written + "' is not a valid path");
        }
        Path root = projectDir.toAbsolutePath().normalize();
        if (!candidate.toAbsolutePath().normalize().startsWith(root)) {
            throw new IllegalArgumentException("'" + written + "' leaves " + what);
        }
        Path real;
        Path realRoot;
        try {
            realRoot = root.toRealPath();
            real = candidate.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("'" + written + "' does not exist");
        }
        if (!real.startsWith(realRoot)) {
            throw new IllegalArgumentException("'" + written + "' leaves " + what + " (through a symbolic link)");
        }
        if (!Files.isRegularFile(real)) {
            throw new IllegalArgumentException("'" + written + "' is not a file");
        }
        return real;
    }
}
