package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code start --print-config} prints every setting: each key of the packaged defaults
 * (conf/hyperterse.yaml) is in the output, so a key added there and forgotten here fails this test.
 */
class EffectiveConfigTest {
    private static final String PROJECT = "tools-examples/quickstart";
    /** Keys conf/hyperterse.yaml documents in comments, having no default. */
    private static final List<String> COMMENTED = List.of("server.port", "tools.search.ranking");

    @TempDir
    Path dir;

    @Test
    void everyKeyOfThePackagedDefaultsIsPrinted() throws Exception {
        CliRunner.Run r = CliRunner.run("start", PROJECT, "--print-config");
        assertEquals(0, r.code(), r.err());
        Set<String> printed = leaves(r.out());
        Set<String> defaults = leaves(Files.readString(Path.of("conf/hyperterse.yaml"), StandardCharsets.UTF_8));
        defaults.addAll(COMMENTED);
        Set<String> missing = new TreeSet<>(defaults);
        missing.removeAll(printed);
        assertEquals(Set.of(), missing, "keys of conf/hyperterse.yaml that --print-config leaves out:\n" + r.out());
        assertTrue(printed.containsAll(List.of("name", "version", "cluster.enabled")), printed.toString());
    }

    @Test
    void valuesAreTheEffectiveOnesWithTheTokenNeverShown() throws Exception {
        Path file = Files.writeString(dir.resolve("operator.yaml"), "server:\n  http:\n    bodies_in_flight: 96mb\n"
                + "    idle_timeout: 90s\n  sessions:\n    per_client: 5\n  metrics:\n    token: t0ken-v4lue\n",
                StandardCharsets.UTF_8);
        CliRunner.Run r = CliRunner.run("start", PROJECT, "--config", file.toString(), "--print-config");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(r.out());
        Map<?, ?> server = (Map<?, ?>) yaml.get("server");
        Map<?, ?> http = (Map<?, ?>) server.get("http");
        assertEquals("96mb", http.get("bodies_in_flight"));
        assertEquals("90s", http.get("idle_timeout"));
        assertEquals("10s", http.get("header_timeout"), "the packaged default");
        assertEquals(5, ((Map<?, ?>) server.get("sessions")).get("per_client"));
        assertEquals("30m", ((Map<?, ?>) server.get("sessions")).get("idle_timeout"));
        assertEquals("***", ((Map<?, ?>) server.get("metrics")).get("token"));
        assertFalse(r.out().contains("t0ken-v4lue"), r.out());
        Map<?, ?> tools = (Map<?, ?>) yaml.get("tools");
        assertEquals("refuse", tools.get("confirm_without_elicitation"));
        assertEquals("4mb", tools.get("result_max_bytes"));
    }

    /** Each key path to a value, dots between the keys. */
    private static Set<String> leaves(String yaml) {
        Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        Set<String> out = new TreeSet<>();
        collect(root, new ArrayList<>(), out);
        return out;
    }

    private static void collect(Object node, List<String> path, Set<String> out) {
        if (node instanceof Map && !((Map<?, ?>) node).isEmpty()) {
            ((Map<?, ?>) node).forEach((k, v) -> {
                List<String> child = new ArrayList<>(path);
                child.add(String.valueOf(k));
                collect(v, child, out);
            });
            return;
        }
        out.add(String.join(".", path));
    }
}
