package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code start --config FILE} and {@code --print-config}: the operator file read as project files are, flags over it. */
class OperatorConfigTest {
    private static final String PROJECT = "tools-examples/quickstart";

    @TempDir
    Path dir;

    private Path operatorFile(String yaml) throws IOException {
        return Files.writeString(dir.resolve("operator.yaml"), yaml, StandardCharsets.UTF_8);
    }

    @Test
    void theFileIsReadAndFlagsWinOverIt() throws Exception {
        Path file = operatorFile("server:\n  port: 19211\n  host: 0.0.0.0\n  cors_origins: [\"https://app.example?token=s3cret\"]\n"
                + "  sessions:\n    max: 25\nobservability:\n  metrics:\n    enabled: false\n"
                + "cluster:\n  members: [10.0.0.1, 10.0.0.2]\n  port: 5801\n");
        CliRunner.Run r = CliRunner.run("start", PROJECT, "--config", file.toString(), "--print-config");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("# effective settings; each layer over the one before: packaged defaults < "
                + file + " < "), r.out());
        assertTrue(r.out().contains("  port: 19211\n"), r.out());
        assertTrue(r.out().contains("  host: \"0.0.0.0\"\n"), r.out());
        assertTrue(r.out().contains("    max: 25\n"), r.out());
        assertTrue(r.out().contains("  metrics:\n    enabled: false\n"), r.out());
        assertTrue(r.out().contains("cluster:\n  enabled: false\n"), "members alone do not turn clustering on: " + r.out());
        assertTrue(r.out().contains("cors_origins: [\"https://app.example?token=***\"]"), "secrets masked: " + r.out());
        assertFalse(r.out().contains("s3cret"), r.out());

        CliRunner.Run flags = CliRunner.run("start", PROJECT, "--config", file.toString(), "--print-config",
                "--port", "19212", "--host", "127.0.0.1", "--cluster");
        assertEquals(0, flags.code(), flags.err());
        assertTrue(flags.out().contains("  port: 19212\n"), flags.out());
        assertTrue(flags.out().contains("  host: \"127.0.0.1\"\n"), flags.out());
        assertTrue(flags.out().contains("cluster:\n  enabled: true\n  members: [\"10.0.0.1\", \"10.0.0.2\"]\n"),
                "the file's members with the --cluster flag: " + flags.out());
        assertTrue(flags.out().contains("  port: 5801\n"), flags.out());
    }

    @Test
    void errorsNameTheFile() throws Exception {
        CliRunner.Run missing = CliRunner.run("start", PROJECT, "--config", dir.resolve("none.yaml").toString());
        assertEquals(2, missing.code());
        assertEquals("error: --config " + dir.resolve("none.yaml") + ": no such file", missing.err().strip());

        Path broken = operatorFile("server:\n  port: [\n");
        CliRunner.Run syntax = CliRunner.run("start", PROJECT, "--config", broken.toString(), "--print-config");
        assertEquals(1, syntax.code());
        assertTrue(syntax.err().startsWith("error: " + broken + ": cannot read it: "), syntax.err());

        // a list or a text at the top printed Java's ClassCastException message
        for (String top : List.of("- server\n", "just words\n")) {
            Path notMapping = Files.writeString(dir.resolve("operator.yaml"), top, StandardCharsets.ISO_8859_1);
            CliRunner.Run r = CliRunner.run("start", PROJECT, "--config", notMapping.toString(), "--print-config");
            assertEquals(1, r.code());
            assertEquals("error: " + notMapping + ": cannot read it: expected a mapping of keys (server, observability,"
                    + " cluster) at the top of the file", r.err().strip());
        }
        Path notUtf8 = Files.write(dir.resolve("operator.yaml"), new byte[]{(byte) 0xff, (byte) 0xfe, '\n'});
        CliRunner.Run encoding = CliRunner.run("start", PROJECT, "--config", notUtf8.toString(), "--print-config");
        assertEquals(1, encoding.code());
        assertEquals("error: " + notUtf8 + ": cannot read it: the file is not valid UTF-8 text", encoding.err().strip());

        Path badSyntax = operatorFile("server:\n  port: 1\na: b: c\n");
        CliRunner.Run marked = CliRunner.run("start", PROJECT, "--config", badSyntax.toString(), "--print-config");
        assertEquals("error: " + badSyntax + ": cannot read it: YAML syntax error at line 3, column 5: mapping values"
                + " are not allowed here", marked.err().strip());

        Path wrongValue = operatorFile("server:\n  max_body_size: huge\n");
        CliRunner.Run value = CliRunner.run("start", PROJECT, "--config", wrongValue.toString(), "--print-config");
        assertEquals(1, value.code());
        assertTrue(value.err().contains("  " + wrongValue + ":2: 'server.max_body_size' must be"), value.err());

        Path clusterPort = operatorFile("cluster:\n  enabled: true\n  port: 70000\n");
        CliRunner.Run cluster = CliRunner.run("start", PROJECT, "--config", clusterPort.toString(), "--print-config");
        assertEquals(1, cluster.code());
        assertEquals("error: " + clusterPort + ": cluster.port must be a port number from 1 to 65535, got '70000'",
                cluster.err().strip());
    }

    /**
     * Aliases that contain aliases multiply: 24 of them doubling a list are 16 million values. The
     * operator file stops at the project files' limit, at the line that went past it, in moments
     * (it blocked an event loop for seconds, then ran out of memory).
     */
    @Test
    void anAliasBombIsStoppedAtItsLine() throws Exception {
        StringBuilder bomb = new StringBuilder();
        bomb.append("server:\n  port: 19601\n  a0: &a0 [x, x]\n");
        for (int i = 1; i <= 24; i++) {
            bomb.append("  a").append(i).append(": &a").append(i).append(" [*a").append(i - 1)
                    .append(", *a").append(i - 1).append("]\n");
        }
        Path file = operatorFile(bomb.toString());
        long start = System.nanoTime();
        CliRunner.Run r = CliRunner.run("start", PROJECT, "--config", file.toString(), "--print-config");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().startsWith("error: " + file + ":3: YAML aliases repeat more than 100000 values in this file"),
                r.err());
        assertTrue(seconds < 10, "stopped early, not after expanding the aliases: " + seconds + "s");
    }

    /** validate reads the operator's settings as start does, so a wrong one fails it, not the start. */
    @Test
    void validateChecksTheOperatorFileAsStartReadsIt() throws Exception {
        Path good = operatorFile("server:\n  max_body_size: 1mb\n");
        CliRunner.Run ok = CliRunner.run("validate", PROJECT, "--config", good.toString());
        assertEquals(0, ok.code(), ok.err());
        Path bad = operatorFile("server:\n  max_body_size: lots\n");
        CliRunner.Run wrong = CliRunner.run("validate", PROJECT, "--config", bad.toString());
        assertEquals(1, wrong.code(), wrong.err());
        assertTrue(wrong.err().contains(bad + ":2:"), wrong.err());
        CliRunner.Run missing = CliRunner.run("validate", PROJECT, "--config", dir.resolve("none.yaml").toString());
        assertEquals(2, missing.code());
        assertEquals("error: --config " + dir.resolve("none.yaml") + ": no such file", missing.err().strip());
    }

    @Test
    void theDefaultFileIsTheOneBesideTheJarWhenItExists() throws Exception {
        Path jar = Files.createFile(dir.resolve("hyperterse.jar"));
        assertNull(OperatorConfig.choose(null, jar));
        assertNull(OperatorConfig.choose(null, null), "not run from a jar");
        Files.createDirectories(dir.resolve("conf"));
        Path beside = Files.writeString(dir.resolve("conf/hyperterse.yaml"), "server: {}\n");
        assertEquals(beside, OperatorConfig.choose(null, jar));
        Path given = operatorFile("server: {}\n");
        assertEquals(given, OperatorConfig.choose(given, jar), "--config wins");
    }

    /** Variables and properties, for real: a process of its own, since a test cannot set its own variables. */
    @Test
    void variablesAndPropertiesWinOverTheFile() throws Exception {
        Path file = operatorFile("server:\n  port: 19213\n  sessions:\n    max: 25\n");
        Run r = runJava(Map.of("HYPERTERSE_SERVER_PORT", "19214"), "start", PROJECT, "--config", file.toString(),
                "--print-config");
        assertEquals(0, r.code, r.output);
        assertTrue(r.output.contains("  port: 19214\n"), r.output);
        assertTrue(r.output.contains("    max: 25\n"), r.output);
        assertTrue(r.output.contains(file + " < HYPERTERSE_SERVER_PORT < "), r.output);

        Run bad = runJava(Map.of("HYPERTERSE_SERVER_PORT", "eighty"), "start", PROJECT, "--print-config");
        assertEquals(1, bad.code, bad.output);
        assertTrue(bad.output.contains("HYPERTERSE_SERVER_PORT: 'server.port' must be a port number"), bad.output);

        Run property = runJava(Map.of(), "-Dhyperterse.server.sessions.max=33", "start", PROJECT, "--print-config");
        assertEquals(0, property.code, property.output);
        assertTrue(property.output.contains("    max: 33\n"), property.output);
    }

    private record Run(int code, String output) {
    }

    private static Run runJava(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        int i = 0;
        while (i < args.length && args[i].startsWith("-D")) {
            command.add(args[i++]);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args).subList(i, args.length));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("HYPERTERSE_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Run(p.exitValue(), output);
    }
}
