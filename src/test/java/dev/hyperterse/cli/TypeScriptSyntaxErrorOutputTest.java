package dev.hyperterse.cli;

import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A TypeScript syntax error is reported once, as a configuration error with file:line:column, and
 * nothing from swc4j's native code (its Rust panic report) reaches standard error. Runs the real
 * command line in a separate JVM, because the native code writes to the process's descriptor 2,
 * which an in-process test cannot see; {@code RUST_BACKTRACE=1} makes the report as long as it gets.
 */
class TypeScriptSyntaxErrorOutputTest {
    private static final String BROKEN_HANDLER = "export default function (x: number) { return x +; }\n";

    @TempDir
    Path scratch;

    @Test
    void validateShowsTheSyntaxErrorAndNoNativePanic() throws Exception {
        Path project = RunningServer.copyExample("scripts", scratch);
        Files.writeString(project.resolve("app/tools/quote-order/handler.ts"), BROKEN_HANDLER);

        Finished run = runToEnd(project, "validate", project.toString());

        assertEquals(1, run.code, run.err);
        String all = run.out + run.err;
        assertFalse(all.contains("panicked"), all);
        assertFalse(all.contains("stack backtrace"), all);
        assertTrue(all.contains("app/tools/quote-order/handler.ts:1:49: tool 'quote-order': handler: "
                + "SyntaxError: Expression expected"), all);
    }

    @Test
    void thePortableStripperReportsTheSameErrorAtTheSamePlace() throws Exception {
        Path project = RunningServer.copyExample("scripts", scratch);
        Files.writeString(project.resolve("app/tools/quote-order/handler.ts"), BROKEN_HANDLER);

        Finished run = runToEnd(project, "validate", project.toString(), "--typescript", "typescript");

        assertEquals(1, run.code, run.err);
        String all = run.out + run.err;
        assertFalse(all.contains("panicked"), all);
        assertTrue(all.contains("app/tools/quote-order/handler.ts:1:49: tool 'quote-order': handler: "
                + "SyntaxError: Expression expected"), all);
    }

    @Test
    void aWatchReloadWithASyntaxErrorLogsOnlyJsonLines() throws Exception {
        Path project = RunningServer.copyExample("scripts", scratch);
        Path handler = project.resolve("app/tools/quote-order/handler.ts");
        Path stdout = scratch.resolve("out.txt");
        Path stderr = scratch.resolve("err.txt");
        Process server = command(project, "start", project.toString(), "--port", "0", "--watch",
                "--watch-interval", "100ms", "--log-format", "json")
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            awaitText(server, stderr, "serving 'scripts-example'");
            // the start's own checks of the scripts come once it serves: a file broken before
            // they read it stops the start instead
            awaitText(server, stderr, "checked in");
            Files.writeString(handler, BROKEN_HANDLER);
            // the reload's report, at the file's line: the scripts' own loading after serving may
            // meet the broken file first and report the same error without a position
            awaitText(server, stderr, "handler.ts:1:49");
        } finally {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        String err = Files.readString(stderr);
        assertFalse(err.contains("panicked"), err);
        List<String> lines = new ArrayList<>(err.lines().filter(l -> !l.isBlank()).toList());
        assertFalse(lines.isEmpty());
        for (String line : lines) {
            assertDoesNotThrow(() -> new JsonObject(line), "not a JSON log line: " + line);
        }
        assertTrue(err.contains("handler.ts:1:49"), err);
    }

    private record Finished(int code, String out, String err) {
    }

    private Finished runToEnd(Path project, String... args) throws Exception {
        Path stdout = scratch.resolve("validate-out.txt");
        Path stderr = scratch.resolve("validate-err.txt");
        Process p = command(project, args).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("validate did not finish");
        }
        return new Finished(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }

    private static ProcessBuilder command(Path project, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // the packaged logging set-up, as the jar has it: the class path without the
                // tests' classes, whose logback-test.xml would replace it
                "-cp", withoutTestClasses(System.getProperty("java.class.path")), Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile());
        builder.environment().put("RUST_BACKTRACE", "1");
        return builder;
    }

    private static String withoutTestClasses(String classPath) {
        java.net.URL testConfig = TypeScriptSyntaxErrorOutputTest.class.getResource("/logback-test.xml");
        if (testConfig == null) {
            return classPath;
        }
        Path testClasses;
        try {
            testClasses = Path.of(testConfig.toURI()).getParent();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return java.util.Arrays.stream(classPath.split(java.io.File.pathSeparator))
                .filter(entry -> !entry.isEmpty() && !Path.of(entry).toAbsolutePath().equals(testClasses))
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
    }

    /** Waits for the text in the file (a generous bound, for a machine under load). */
    private static void awaitText(Process server, Path file, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!Files.readString(file).contains(text)) {
            if (!server.isAlive()) {
                throw new AssertionError("the server exited before logging '" + text + "':\n" + Files.readString(file));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no '" + text + "' in:\n" + Files.readString(file));
            }
            Thread.sleep(100);
        }
    }
}
