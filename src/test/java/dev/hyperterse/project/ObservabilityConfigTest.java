package dev.hyperterse.project;

import dev.hyperterse.model.ObservabilitySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The root {@code observability:} block, {@code server.drain_period} and {@code server.shutdown_timeout}. */
class ObservabilityConfigTest {

    @Test
    void defaults(@TempDir Path dir) throws Exception {
        var config = ProjectFixture.withOneTool(dir).compile().config();
        assertEquals(ObservabilitySettings.DEFAULTS, config.observability(), "the model's constant agrees with the packaged defaults");
        assertEquals(new ObservabilitySettings(false, false, true, "/metrics", "text"), config.observability());
        assertEquals(Duration.ofSeconds(30), config.server().timeouts().shutdownTimeout());
        assertEquals(Duration.ofSeconds(5), config.server().timeouts().drainPeriod());
    }

    @Test
    void aDrainPeriodOfZeroStopsListeningAtOnce(@TempDir Path dir) throws Exception {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        p.write(".hyperterse", "name: x\nserver:\n  drain_period: 0\n");
        assertEquals(Duration.ZERO, p.compile().config().server().timeouts().drainPeriod());
        p.write(".hyperterse", "name: x\nserver:\n  drain_period: 1500ms\n");
        assertEquals(Duration.ofMillis(1500), p.compile().config().server().timeouts().drainPeriod());
    }

    @Test
    void overridesKeyByKey(@TempDir Path dir) throws Exception {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        p.write(".hyperterse", "name: x\nserver:\n  shutdown_timeout: 5s\nobservability:\n  tracing:\n    enabled: true\n"
                + "  metrics:\n    path: /internal/metrics\n  logs:\n    format: JSON\n");
        var config = p.compile().config();
        assertEquals(new ObservabilitySettings(true, false, true, "/internal/metrics", "json"), config.observability());
        assertEquals(Duration.ofSeconds(5), config.server().timeouts().shutdownTimeout());
    }

    @Test
    void wrongValuesAreErrorsAtTheirLine(@TempDir Path dir) {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        Path root = p.write(".hyperterse", "name: x\nobservability:\n  tracing:\n    enabled: maybe\n"
                + "  metrics:\n    path: /mcp\n  logs:\n    format: xml\nserver:\n  shutdown_timeout: soon\n"
                + "  drain_period: -5s\n");
        ProjectException e = p.fails();
        ProjectFixture.assertProblemAt(e, root, "enabled: maybe", "observability.tracing.enabled");
        ProjectFixture.assertProblemAt(e, root, "path: /mcp", "'observability.metrics.path' must be a path");
        ProjectFixture.assertProblemAt(e, root, "format: xml", "'observability.logs.format' must be 'text' or 'json'");
        ProjectFixture.assertProblemAt(e, root, "shutdown_timeout: soon", "server.shutdown_timeout");
        ProjectFixture.assertProblemAt(e, root, "drain_period: -5s", "'server.drain_period' must be a duration");
    }
}
