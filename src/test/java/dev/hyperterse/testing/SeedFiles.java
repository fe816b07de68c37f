package dev.hyperterse.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The example projects' seed files, read into the single statements or commands the connectors run. */
public final class SeedFiles {

    private SeedFiles() {
    }

    /**
     * The statements of a SQL file: {@code --} comment lines dropped, split at each {@code ;} that
     * ends a line (the examples' files keep to that).
     */
    public static List<String> sqlStatements(Path file) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : read(file)) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.stripTrailing().endsWith(";")) {
                String s = current.toString().strip();
                statements.add(s.substring(0, s.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }

    /** The commands of a redis-cli input file, each as its words ({@code "two words"} is one). */
    public static List<List<String>> redisCommands(Path file) {
        List<List<String>> commands = new ArrayList<>();
        for (String line : read(file)) {
            List<String> words = new ArrayList<>();
            StringBuilder word = null;
            boolean quoted = false;
            for (char c : line.toCharArray()) {
                if (c == '"') {
                    quoted = !quoted;
                    word = word == null ? new StringBuilder() : word;
                } else if (Character.isWhitespace(c) && !quoted) {
                    if (word != null) {
                        words.add(word.toString());
                        word = null;
                    }
                } else {
                    word = word == null ? new StringBuilder() : word;
                    word.append(c);
                }
            }
            if (word != null) {
                words.add(word.toString());
            }
            if (!words.isEmpty() && !words.get(0).startsWith("#")) {
                commands.add(words);
            }
        }
        return commands;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
