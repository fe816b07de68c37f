package dev.hyperterse.project;

import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SourceLocation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Where a tool's scripts are: explicit references resolved as Hyperterse does, and discovery by file name. */
final class ScriptFiles {
    private static final Pattern EXPORT_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    /** Scripts found by naming convention in a tool folder; null where none was found. */
    record Discovered(Path handler, Path inputMapper, Path outputMapper) {
    }

    private final Path projectDir;
    private final DisplayPaths paths;

    ScriptFiles(Path projectDir, DisplayPaths paths) {
        this.projectDir = projectDir;
        this.paths = paths;
    }

    /**
     * Resolves {@code path#export} as written in a tool file: an absolute path as is; {@code ./}
     * and {@code ../} relative to the tool folder; a bare path in the tool folder when the file
     * exists there, else in the project folder. A missing file is a problem at the line naming it.
     *
     * @param role what the script is for, as messages name it ({@code 'handler'}, {@code 'mappers.input'})
     * @return the reference, or null after reporting a problem
     */
    ScriptRef resolve(String written, Path toolDir, SourceLocation declaredAt, String role, Problems problems) {
        String file = written.strip();
        String export = "default";
        int hash = file.lastIndexOf('#');
        if (hash >= 0) {
            export = file.substring(hash + 1).strip();
            file = file.substring(0, hash).strip();
            if (!EXPORT_NAME.matcher(export).matches()) {
                problems.error(declaredAt.file(), declaredAt.line(), role + " '" + written
                        + "': the export after '#' must be a JavaScript name, got '" + export + "'");
                return null;
            }
        }
        if (file.isEmpty()) {
            problems.error(declaredAt.file(), declaredAt.line(), role + " '" + written + "' names no file");
            return null;
        }
        Path resolved;
        try {
            resolved = locate(file, toolDir);
        } catch (InvalidPathException e) {
            problems.error(declaredAt.file(), declaredAt.line(), role + " '" + written + "' is not a valid path: "
                    + e.getReason());
            return null;
        }
        if (!Files.isRegularFile(resolved)) {
            problems.error(declaredAt.file(), declaredAt.line(), role + " script '" + file + "' not found (looked for "
                    + paths.show(resolved) + ")");
            return null;
        }
        return new ScriptRef(resolved, export, declaredAt);
    }

    private Path locate(String file, Path toolDir) {
        Path p = Path.of(file);
        if (p.isAbsolute()) {
            return p.normalize();
        }
        if (file.startsWith("./") || file.startsWith("../")) {
            return toolDir.resolve(p).normalize();
        }
        Path toolLocal = toolDir.resolve(p).normalize();
        return Files.exists(toolLocal) ? toolLocal : projectDir.resolve(p).normalize();
    }

    /**
     * Convention discovery over the {@code *.ts} files directly in the tool folder, in file-name
     * order, each file filling at most one slot (names compared lower-cased): a handler (only
     * when {@code wantHandler}) is {@code handler.ts} or any name containing "handler"; an input
     * mapper {@code input.ts} or a name containing both "input" and "validator"; an output mapper
     * {@code output.ts} or a name containing both "data" and "mapper". A slot that is not open
     * (set explicitly, or a handler for a database tool) is never filled.
     */
    static Discovered discover(Path toolDir, boolean handlerOpen, boolean inputOpen, boolean outputOpen)
            throws IOException {
        List<Path> scripts = new ArrayList<>();
        try (Stream<Path> files = Files.list(toolDir)) {
            files.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".ts"))
                    .forEach(scripts::add);
        }
        scripts.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        Path handler = null;
        Path input = null;
        Path output = null;
        for (Path script : scripts) {
            String name = script.getFileName().toString().toLowerCase(Locale.ROOT);
            if (handlerOpen && handler == null && name.contains("handler")) {
                handler = script;
            } else if (inputOpen && input == null
                    && (name.equals("input.ts") || name.contains("input") && name.contains("validator"))) {
                input = script;
            } else if (outputOpen && output == null
                    && (name.equals("output.ts") || name.contains("data") && name.contains("mapper"))) {
                output = script;
            }
        }
        return new Discovered(handler, input, output);
    }
}
