package dev.hyperterse.project;

import dev.hyperterse.model.ServerSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operator settings between the packaged defaults and a project: defaults &lt; operator file &lt;
 * {@code hyperterse.*} properties &lt; {@code HYPERTERSE_*} variables &lt; the project's {@code .hyperterse}.
 */
class OperatorLayerTest {
    private static final String FILE = "ops/hyperterse.yaml";

    private static YamlNode.Mapping operatorFile() {
        return tree("server:\n  port: 7000\n  host: 0.0.0.0\n  allowed_hosts: [mcp.example.com]\n"
                + "  sessions:\n    max: 50\n    idle_timeout: 10m\nobservability:\n  tracing:\n    enabled: true\n");
    }

    /** An operator file's text as the layer reads it. */
    private static YamlNode.Mapping tree(String yaml) {
        Problems problems = new Problems(org.slf4j.LoggerFactory.getLogger(OperatorLayerTest.class), w -> {
        });
        YamlNode root = YamlDocument.parse(yaml, Path.of(FILE), problems);
        assertTrue(!problems.hasErrors() && root instanceof YamlNode.Mapping, yaml);
        return (YamlNode.Mapping) root;
    }

    private static ServerSettings server(Path dir, String root, OperatorLayer layer) throws ProjectException {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        p.write(".hyperterse", root);
        return ProjectFixture.compiler(Map.of()).withOperatorLayer(layer).compile(dir).config().server();
    }

    @Test
    void eachLayerOverridesTheOneBeforeKeyByKey(@TempDir Path dir) throws Exception {
        OperatorLayer layer = OperatorLayer.layered(operatorFile(), FILE,
                Map.of("HYPERTERSE_SERVER_PORT", "9090", "HYPERTERSE_SERVER_SESSIONS_IDLE_TIMEOUT", "5m",
                        "PATH", "/usr/bin", "HYPERTERSE_TEST_POSTGRES_URL", "postgres://elsewhere"),
                Map.of("hyperterse.server.port", "8081", "hyperterse.server.sessions.max", "60",
                        "hyperterse.server.sessions.idle_timeout", "7m"));
        ServerSettings s = server(dir, "name: x\nserver:\n  host: 127.0.0.2\n", layer);
        assertEquals(9090, s.network().port(), "the variable over the property over the file");
        assertEquals("127.0.0.2", s.network().host(), "the project over the file");
        assertEquals(60, s.sessions().max(), "the property over the file");
        assertEquals(Duration.ofMinutes(5), s.sessions().idleTimeout(), "the variable over the property");
        assertEquals(List.of("mcp.example.com"), s.network().allowedHosts(), "the file over the packaged defaults");
        assertEquals(4L * 1024 * 1024, s.limits().maxBodyBytes(), "the packaged default where nobody sets it");
        assertEquals(List.of(FILE, "-Dhyperterse.server.port", "-Dhyperterse.server.sessions.idle_timeout",
                "-Dhyperterse.server.sessions.max", "HYPERTERSE_SERVER_PORT", "HYPERTERSE_SERVER_SESSIONS_IDLE_TIMEOUT"),
                layer.sources());

        assertEquals(4321, server(dir, "name: x\nserver:\n  port: 4321\n", layer).network().port(),
                "the project over the variable");
        assertTrue(ProjectFixture.compiler(Map.of()).withOperatorLayer(layer).compile(dir).config().observability()
                .tracingEnabled(), "observability from the file");
    }

    @Test
    void listsAreCommaSeparatedInVariablesAndTypedLikeTheProjectsYaml(@TempDir Path dir) throws Exception {
        OperatorLayer layer = OperatorLayer.layered(null, null, Map.of(
                "HYPERTERSE_SERVER_ALLOWED_HOSTS", "a.example, b.example,", "HYPERTERSE_SERVER_SEARCH_OUTPUT_SCHEMA", "true",
                "HYPERTERSE_OBSERVABILITY_METRICS_PATH", "/internal/metrics"), Map.of());
        ProjectFixture.withOneTool(dir);
        var config = ProjectFixture.compiler(Map.of()).withOperatorLayer(layer).compile(dir).config();
        assertEquals(List.of("a.example", "b.example"), config.server().network().allowedHosts());
        assertTrue(config.server().searchOutputSchema());
        assertEquals("/internal/metrics", config.observability().metricsPath());
    }

    @Test
    void aWrongValueIsReportedNamingTheVariablePropertyOrFileItCameFrom(@TempDir Path dir) {
        OperatorLayer layer = OperatorLayer.layered(tree("server:\n  tool_errors: loud\n"), FILE,
                Map.of("HYPERTERSE_SERVER_SESSIONS_MAX", "lots"), Map.of("hyperterse.server.port", "http"));
        ProjectFixture.withOneTool(dir);
        ProjectException e = assertThrows(ProjectException.class,
                () -> ProjectFixture.compiler(Map.of()).withOperatorLayer(layer).compile(dir));
        List<String> problems = e.problems().stream().map(ConfigProblem::toString).toList();
        assertEquals(List.of(
                "-Dhyperterse.server.port: 'server.port' must be a port number from 0 to 65535 or \"{{ env.NAME }}\", got \"http\"",
                "HYPERTERSE_SERVER_SESSIONS_MAX: 'server.sessions.max' must be a positive integer, got \"lots\"",
                FILE + ":2: 'server.tool_errors' must be 'result' or 'rpc' ('protocol' is read as 'rpc'), got \"loud\""), problems);
    }

    @Test
    void anOperatorFileHoldsOnlyOperatorSettings() {
        IllegalArgumentException project = assertThrows(IllegalArgumentException.class,
                () -> OperatorLayer.layered(tree("server: {}\ntools:\n  row_limit: 5\n"), FILE, Map.of(), Map.of()));
        assertEquals(FILE + ":2: 'tools' is not an operator setting (it belongs in a project's .hyperterse); "
                + "an operator file holds server, observability, cluster", project.getMessage());
        IllegalArgumentException notMapping = assertThrows(IllegalArgumentException.class,
                () -> OperatorLayer.layered(tree("server: [1]\n"), FILE, Map.of(), Map.of()));
        assertEquals(FILE + ":1: 'server' must be a mapping of keys, got a list", notMapping.getMessage());
        IllegalArgumentException cluster = assertThrows(IllegalArgumentException.class,
                () -> OperatorLayer.layered(tree("cluster:\n  memberz: a\n"), FILE, Map.of(), Map.of()));
        assertTrue(cluster.getMessage().startsWith(FILE + ":2: unknown key 'cluster.memberz'"), cluster.getMessage());
    }

    @Test
    void clusterSettingsKeepWhereTheyCameFrom() {
        OperatorLayer layer = OperatorLayer.layered(tree("cluster:\n  members: [10.0.0.1, 10.0.0.2]\n  port: 5801\n"
                        + "  enabled: true\n"), FILE,
                Map.of("HYPERTERSE_CLUSTER_PORT", "5901", "HYPERTERSE_CLUSTER", "false"), Map.of());
        assertEquals(new OperatorLayer.Sourced("10.0.0.1,10.0.0.2", FILE + ": cluster.members"), layer.cluster().get("members"));
        assertEquals(new OperatorLayer.Sourced("5901", "HYPERTERSE_CLUSTER_PORT"), layer.cluster().get("port"));
        assertEquals(new OperatorLayer.Sourced("false", "HYPERTERSE_CLUSTER"), layer.cluster().get("enabled"));
    }

    @Test
    void noLayerLeavesTheProjectAsItWas(@TempDir Path dir) throws Exception {
        OperatorLayer empty = OperatorLayer.layered(null, null, Map.of("HOME", "/root"), Map.of("java.version", "17"));
        assertEquals(List.of(), empty.sources());
        ProjectFixture.withOneTool(dir);
        assertEquals(ProjectFixture.compiler(Map.of()).compile(dir).config().server(),
                ProjectFixture.compiler(Map.of()).withOperatorLayer(empty).compile(dir).config().server());
    }

    /**
     * A variable that looks like a setting and is not one is a warning naming the closest real
     * one as it must be written: upper case for a variable (a lower-case name was suggested, which
     * is itself refused), lower case for a property. Reading logs nothing, so the warning waits
     * for the log format.
     */
    @Test
    void aNameThatIsNoSettingIsAWarningNamingTheClosestAsWritten() {
        OperatorLayer layer = OperatorLayer.layered(null, null, Map.of("HYPERTERSE_SERVER_SESION_MAX", "5",
                "HYPERTERSE_SERVER_TYPO", "1", "HYPERTERSE_TEST_POSTGRES_URL", "x"),
                Map.of("hyperterse.observability.log.format", "json"));
        assertEquals(List.of(
                "-Dhyperterse.observability.log.format is not an operator setting and is ignored "
                        + "(did you mean -Dhyperterse.observability.logs.format?)",
                "HYPERTERSE_SERVER_SESION_MAX is not an operator setting and is ignored "
                        + "(did you mean HYPERTERSE_SERVER_SESSIONS_MAX?)",
                "HYPERTERSE_SERVER_TYPO is not an operator setting and is ignored (the closest setting is "
                        + "HYPERTERSE_SERVER_HOST; start --print-config lists them all)"),
                layer.warnings());
        assertEquals(List.of(), layer.sources(), "nothing was read from them");
    }

    @Test
    void aSettingIsReadAsWrittenBeforeAnyProjectIsCompiled() {
        OperatorLayer layer = OperatorLayer.layered(tree("observability:\n  logs:\n    format: json\n"), FILE,
                Map.of("HYPERTERSE_SERVER_LOG_LEVEL", "2"), Map.of());
        assertEquals("json", layer.written("observability", "logs", "format"));
        assertEquals("2", layer.written("server", "log_level"));
        assertEquals(null, layer.written("server", "host"));
        assertEquals(null, OperatorLayer.NONE.written("observability", "logs", "format"));
    }
}
