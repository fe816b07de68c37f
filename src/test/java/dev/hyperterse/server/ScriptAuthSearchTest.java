package dev.hyperterse.server;

import dev.hyperterse.telemetry.TelemetrySetup;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A search asks a per-tool auth script only about the best-ranked candidates, in windows of the
 * hits still wanted, never about every tool of the catalog.
 */
class ScriptAuthSearchTest {
    @TempDir
    Path dir;

    void project(String rule) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: many\nauth:\n  plugin: script\n  policy: {path: gate.js}\n");
        Files.writeString(dir.resolve("gate.js"), rule);
        ProjectFiles.sqliteMemoryDb(dir);
        for (int i = 0; i < 70; i++) {
            RunningServer.writeTool(dir, String.format("report-%02d", i),
                    "description: 'Monthly report number " + i + "'\nuse: db\nstatement: SELECT " + i + " AS n\n");
        }
    }

    /** Auth script calls so far, whatever their outcome. */
    static double authScriptCalls(RawHttp http) throws Exception {
        String text = http.send("GET", "/metrics").body();
        String name = "hyperterse_script_call_duration_seconds_count";
        return MetricsEndpointTest.valueOrZero(text, name, "outcome=\"ok\",tool=\"(auth)\"")
                + MetricsEndpointTest.valueOrZero(text, name, "outcome=\"error\",tool=\"(auth)\"");
    }

    List<String> searchCounting(String rule, double[] calls) throws Exception {
        project(rule);
        TelemetrySetup telemetry = TelemetrySetup.forTesting(null, false, true);
        try (RunningServer server = RunningServer.start(dir, s -> s, ServeOptions.DEFAULTS.withTelemetry(telemetry))) {
            RawHttp http = new RawHttp(server.baseUrl());
            List<String> hits = SearchVisibilityTest.searchFor(http, "monthly report");
            calls[0] = authScriptCalls(http);
            return hits;
        } finally {
            telemetry.close();
        }
    }

    @Test
    void aRuleThatDeniesNearlyEverythingIsAskedAboutTheCappedCandidatesOnly() throws Exception {
        double[] calls = new double[1];
        assertEquals(List.of("report-07"), searchCounting(
                "export default ({ tool }) => { if (tool !== 'report-07') throw new Error('no'); };\n", calls));
        assertEquals(50, calls[0], "five windows of ten candidates, then the search stops asking");
    }

    @Test
    void aRuleThatAllowsIsAskedAboutOneWindow() throws Exception {
        double[] calls = new double[1];
        assertEquals(10, searchCounting("export default () => true;\n", calls).size());
        assertEquals(10, calls[0]);
    }
}
