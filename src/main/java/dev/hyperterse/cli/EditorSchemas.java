package dev.hyperterse.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The JSON Schemas (2020-12) of the project files, packaged in the jar as {@code /schema/*.schema.json}
 * ({@code schema/} in the source tree), so editors complete and check {@code .hyperterse} and
 * {@code *.terse} files.
 */
final class EditorSchemas {
    static final List<String> KINDS = List.of("root", "adapter", "tool", "prompt", "resource");
    /** Where {@code init} puts the schemas inside a project, for the files' {@code $schema} lines. */
    static final String PROJECT_FOLDER = ".schema";

    private EditorSchemas() {
    }

    static String fileName(String kind) {
        return kind + ".schema.json";
    }

    /** The TypeScript declarations of what scripts see (ctx, content helpers), for editors. */
    static final String TYPES = "types";
    /** Where {@code init} puts {@link #TYPES} inside a project. */
    static final String TYPES_FILE = "hyperterse.d.ts";

    /** @throws IllegalArgumentException for a kind other than {@link #KINDS} and {@link #TYPES} */
    static String text(String kind) {
        if (!KINDS.contains(kind) && !TYPES.equals(kind)) {
            throw new IllegalArgumentException("no schema '" + kind + "': choose " + String.join(", ", KINDS)
                    + " or " + TYPES);
        }
        String resource = TYPES.equals(kind) ? "/types/" + TYPES_FILE : "/schema/" + fileName(kind);
        try (InputStream in = EditorSchemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("internal error: " + resource + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("internal error: cannot read " + resource, e);
        }
    }

    /**
     * The first line of a project file that points yaml-language-server (VS Code's YAML extension,
     * and editors built on it) at its schema, relative to the file.
     *
     * @param relativeFile the file's path inside the project, with {@code /}
     */
    static String modeline(String kind, String relativeFile) {
        int depth = (int) relativeFile.chars().filter(c -> c == '/').count();
        return "# yaml-language-server: $schema=" + "../".repeat(depth) + PROJECT_FOLDER + "/" + fileName(kind) + "\n";
    }

    /** The schema a project file follows, by where it lies; null for files that have none. */
    static String kindOf(String relativeFile) {
        if (relativeFile.equals(".hyperterse")) {
            return "root";
        }
        if (!relativeFile.endsWith(".terse")) {
            return null;
        }
        if (relativeFile.startsWith("app/adapters/")) {
            return "adapter";
        }
        if (relativeFile.startsWith("app/tools/")) {
            return "tool";
        }
        if (relativeFile.startsWith("app/prompts/")) {
            return "prompt";
        }
        return relativeFile.startsWith("app/resources/") ? "resource" : null;
    }
}
