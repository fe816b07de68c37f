package dev.hyperterse.cli;

import dev.hyperterse.project.OperatorLayer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the operator's settings: the operator file as project files are read (the same YAML rules
 * and limits), the {@code HYPERTERSE_*} variables and the {@code hyperterse.*} system properties,
 * each as written, to be typed by the same rules as the project's YAML. They are read once, on the
 * command line's own thread, before anything is served: no Vert.x is started for it (a second
 * instance before the server's own cost more CPU at start than everything else it read).
 */
final class OperatorConfig {
    /** The operator file looked for beside the jar when {@code --config} is not given. */
    static final Path DEFAULT_FILE = Path.of("conf", "hyperterse.yaml");

    private OperatorConfig() {
    }

    /**
     * The operator's settings {@code start} serves with (and {@code validate} checks):
     * {@code --config} (or conf/hyperterse.yaml beside the jar), system properties and variables.
     *
     * @param given the {@code --config} file, or null
     * @param jar   the running jar, or null
     * @throws IllegalArgumentException naming the file, property or variable that is wrong
     */
    static OperatorLayer layer(Path given, Path jar) {
        Path file = choose(given, jar);
        if (file == null && !hasOperatorSettings()) {
            return OperatorLayer.NONE;
        }
        String shown = file == null ? null : (given != null ? given.toString() : file.toString());
        Map<String, String> properties = new LinkedHashMap<>();
        System.getProperties().stringPropertyNames().forEach(k -> properties.put(k, System.getProperty(k)));
        return OperatorLayer.read(file, shown, System.getenv(), properties);
    }

    /**
     * {@link #layer(Path, Path)} for a command: null when the settings cannot be read, after
     * printing why to {@code err} ({@link #failedStatus} is then the command's exit status).
     */
    static OperatorLayer layer(Path given, Path jar, java.io.PrintWriter err) {
        try {
            return layer(given, jar);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return null;
        }
    }

    /** The exit status when the settings cannot be read: 2 for a {@code --config} file that does not exist, else 1. */
    static int failedStatus(Path given) {
        return given != null && !Files.isRegularFile(given) ? 2 : 1;
    }

    /** Whether any variable or property could hold an operator setting: no Vert.x is started to read none. */
    private static boolean hasOperatorSettings() {
        return System.getenv().keySet().stream().anyMatch(k -> k.startsWith("HYPERTERSE_"))
                || System.getProperties().stringPropertyNames().stream().anyMatch(k -> k.startsWith("hyperterse."));
    }

    /**
     * The file {@code start} reads: {@code --config} as given, else {@code conf/hyperterse.yaml}
     * beside the jar when it exists, else none.
     *
     * @throws IllegalArgumentException when {@code --config} names a file that does not exist
     */
    static Path choose(Path given, Path jar) {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw new IllegalArgumentException("--config " + given + ": no such file");
            }
            return given;
        }
        if (jar == null || jar.getParent() == null) {
            return null;
        }
        Path beside = jar.getParent().resolve(DEFAULT_FILE);
        return Files.isRegularFile(beside) ? beside : null;
    }

}
