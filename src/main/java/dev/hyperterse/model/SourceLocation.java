package dev.hyperterse.model;

import java.nio.file.Path;

/**
 * Where a definition came from, so every error can name {@code file:line} (and
 * {@code file:line:column} for script syntax errors, whose line alone is often not enough).
 */
public record SourceLocation(Path file, int line, int column) {

    public SourceLocation(Path file, int line) {
        this(file, line, 0);
    }

    public static SourceLocation of(Path file) {
        return new SourceLocation(file, 0);
    }

    public SourceLocation atLine(int newLine) {
        return new SourceLocation(file, newLine);
    }

    @Override
    public String toString() {
        if (line <= 0) {
            return String.valueOf(file);
        }
        return column > 0 ? file + ":" + line + ":" + column : file + ":" + line;
    }
}
