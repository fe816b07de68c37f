package dev.hyperterse.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files of a project folder a test writes: each call creates the folders it needs. */
public final class ProjectFiles {

    private ProjectFiles() {
    }

    /** Writes {@code content} (UTF-8) to {@code relative} under {@code dir}; returns the file. */
    public static Path write(Path dir, String relative, String content) {
        Path file = dir.resolve(relative);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Writes the lines, each ended by a newline. */
    public static Path writeLines(Path dir, String relative, String... lines) {
        return write(dir, relative, String.join("\n", lines) + "\n");
    }

    /** Writes adapter {@code db}: an in-memory SQLite database. */
    public static Path sqliteMemoryDb(Path dir) {
        return write(dir, "app/adapters/db.terse", "connector: sqlite\nconnection_string: ':memory:'\n");
    }

    /** Creates the folder {@code relative} under {@code dir} (and its parents); returns it. */
    public static Path mkdirs(Path dir, String relative) {
        try {
            return Files.createDirectories(dir.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
