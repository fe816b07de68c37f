package dev.hyperterse.cli;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log format the settings ask for (a {@code HYPERTERSE_*} variable, the {@code --config}
 * file, the project's {@code .hyperterse}) holds from the first line: compiling a project with a
 * script already logs (the script engine's mode, the scripts checked, an operator warning), and
 * those lines came out as text before the format was applied. Run as the jar runs, in a process
 * of its own with the packaged log set-up (the tests' logback-test.xml left off the class path).
 */
class EarlyLogFormatTest {
    @TempDir
    Path dir;

    private Path project(String root) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), root);
        Path tool = Files.createDirectories(dir.resolve("app/tools/hello"));
        Files.writeString(tool.resolve("config.terse"), "description: 'Say hello'\n");
        Files.writeString(tool.resolve("handler.ts"),
                "export default function hello(): { hi: string } { return { hi: 'there' }; }\n");
        return dir;
    }

    @Test
    void aVariableSetsJsonBeforeTheProjectIsCompiled() throws Exception {
        Path project = project("name: early\n");
        Run r = run(Map.of("HYPERTERSE_OBSERVABILITY_LOGS_FORMAT", "json", "HYPERTERSE_SERVER_TYPO", "1"),
                "start", project.toString(), "--print-config");
        assertEquals(0, r.code, r.err);
        List<JsonObject> lines = jsonLines(r.err);
        assertTrue(lines.stream().noneMatch(l -> l.getString("message").startsWith("scripts: ")),
                "printing the settings does not start the script engine: " + r.err);
        assertTrue(lines.stream().anyMatch(l -> l.getString("message").startsWith("HYPERTERSE_SERVER_TYPO is not an "
                + "operator setting")), "so is the operator warning: " + r.err);
        assertTrue(r.out.contains("    format: json\n"), r.out);
    }

    @Test
    void theConfigFileAndTheProjectSetItToo() throws Exception {
        Path operator = Files.writeString(Files.createDirectories(dir.resolve("ops")).resolve("hyperterse.yaml"),
                "observability:\n  logs:\n    format: json\n");
        Path project = project("name: early\n");
        // an operator setting that does not exist: a warning logged before the project is compiled
        Map<String, String> typo = Map.of("HYPERTERSE_SERVER_TYPO", "1");
        Run file = run(typo, "start", project.toString(), "--config", operator.toString(), "--print-config");
        assertEquals(0, file.code, file.err);
        assertTrue(!jsonLines(file.err).isEmpty(), file.err);

        Path own = project("name: early\nobservability:\n  logs:\n    format: json\n");
        Run projectOwn = run(typo, "start", own.toString(), "--print-config");
        assertEquals(0, projectOwn.code, projectOwn.err);
        assertTrue(!jsonLines(projectOwn.err).isEmpty(), projectOwn.err);

        // the project over the operator, as for every setting: text from the first line
        Run projectText = run(Map.of("HYPERTERSE_OBSERVABILITY_LOGS_FORMAT", "json", "HYPERTERSE_SERVER_TYPO", "1"), "start",
                project("name: early\nobservability:\n  logs:\n    format: text\n").toString(), "--print-config");
        assertEquals(0, projectText.code, projectText.err);
        assertTrue(projectText.err.lines().filter(l -> !l.isBlank()).noneMatch(l -> l.startsWith("{")), projectText.err);
        assertTrue(projectText.err.contains(" WARN  "), projectText.err);
    }

    /** Each line of standard error as a JSON object; the JVM's own warnings (JDK 24+ on GraalJS) aside. */
    private static List<JsonObject> jsonLines(String err) {
        List<JsonObject> lines = new ArrayList<>();
        for (String line : err.split("\n")) {
            if (line.isBlank() || line.startsWith("WARNING: ")) {
                continue;
            }
            assertTrue(line.startsWith("{"), "not a JSON line: " + line + "\nin:\n" + err);
            lines.add(new JsonObject(line));
        }
        return lines;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(Map<String, String> env, String... args) throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.startsWith("HYPERTERSE_"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile("early-log-out", ".txt");
        Path err = Files.createTempFile("early-log-err", ".txt");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished");
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
