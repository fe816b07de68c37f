package dev.hyperterse.project;

import java.nio.file.Path;

/**
 * How file paths appear in messages and {@code SourceLocation}s: relative to the working
 * directory when the file is inside it, else absolute (a path climbing out with {@code ..}
 * reads worse than the absolute one, and would change with the directory a command runs in).
 * One rule for every message keeps them comparable and clickable in a terminal.
 */
public final class DisplayPaths {
    private final Path workingDir;

    public DisplayPaths(Path workingDir) {
        this.workingDir = workingDir.toAbsolutePath().normalize();
    }

    public Path show(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        try {
            if (absolute.startsWith(workingDir) && !absolute.equals(workingDir)) {
                return workingDir.relativize(absolute);
            }
        } catch (IllegalArgumentException differentRoot) {
            // another drive or file system: only the absolute form names it
        }
        return absolute;
    }
}
