package dev.hyperterse.server;

import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A start whose scripts were checked ({@code start} checks them first) serves its database tools
 * while the scripts load: a call to a script not loaded yet waits for it, its time limit counted from then.
 */
class ScriptsLoadWhileServingTest {
    /** How long the slow script's top-level code runs: long enough to call everything else meanwhile. */
    private static final long SLOW_LOAD_MS = 4000;

    @TempDir
    Path dir;

    private void project() {
        ProjectFiles.write(dir, ".hyperterse", "name: later\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "db-one", "description: one row\nuse: db\nstatement: SELECT 1 AS one\n");
        RunningServer.writeTool(dir, "slow", "description: a slow script\nhandler: ./handler.js\ntimeout: 30s\n");
        ProjectFiles.write(dir, "app/tools/slow/handler.js", "const until = Date.now() + " + SLOW_LOAD_MS + ";\n"
                + "while (Date.now() < until) {}\n"
                + "export default () => ({ loaded: true });\n");
    }

    private static RunningServer start(Path dir) throws Exception {
        return RunningServer.start(dir, s -> s.metricsToken("probe"), ServeOptions.DEFAULTS.withScriptsChecked(true));
    }

    /** What an operator's probe sees of the scripts in {@code /ready}'s details. */
    private static String scriptsStatus(RawHttp http) throws Exception {
        return new JsonObject(http.send("GET", "/ready", "Authorization", "Bearer probe").body()).getString("scripts");
    }

    private static Snapshot snapshot(RunningServer server) {
        return server.server().snapshots().peek();
    }

    @Test
    void databaseToolsAnswerWhileAScriptLoadsAndItsCallWaitsForIt() throws Exception {
        project();
        try (RunningServer server = start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(200, http.send("GET", "/heartbeat").statusCode());
            String toolsBefore = http.mcp(RawHttp.request(1, "tools/list", new JsonObject())).body();
            assertEquals(new JsonArray().add(new JsonObject().put("one", 1)), http.rows("db-one", new JsonObject()));
            assertFalse(snapshot(server).scriptsReady().isComplete(),
                    "the database tool answered while the script was still loading");
            JsonObject ready = new JsonObject(http.send("GET", "/ready").body());
            assertTrue(ready.getBoolean("ready"), ready.encode());
            assertEquals("loading", scriptsStatus(http));

            // made before the script is ready: it waits for it, and succeeds
            CompletableFuture<JsonArray> handler = CompletableFuture.supplyAsync(() -> {
                try {
                    return http.rows("slow", new JsonObject());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(200);
            assertFalse(snapshot(server).scriptsReady().isComplete(), "called before the script was ready");
            assertFalse(handler.isDone(), "the call waits for its script");
            assertEquals(new JsonArray().add(new JsonObject().put("loaded", true)), handler.get(60, TimeUnit.SECONDS));
            assertTrue(snapshot(server).scriptsReady().succeeded());
            assertEquals("ready", scriptsStatus(http));
            assertEquals(toolsBefore, http.mcp(RawHttp.request(1, "tools/list", new JsonObject())).body(),
                    "tools/list does not depend on the scripts' readiness");
        }
    }

    @Test
    void aCallWithAShortLimitWaitsForItsScriptThenHasItsWholeLimit() throws Exception {
        project();
        // the same script for a tool whose limit is shorter than the script's load: the warm-up has
        // the longer one, and the load is not the call's
        RunningServer.writeTool(dir, "slow-short", "description: the slow script, impatient\n"
                + "handler: ../slow/handler.js\ntimeout: 1s\n");
        try (RunningServer server = start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            long t0 = System.nanoTime();
            assertEquals(new JsonArray().add(new JsonObject().put("loaded", true)),
                    http.rows("slow-short", new JsonObject()));
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(waitedMs > 1000, "answered after the script's load, past the call's 1s limit: " + waitedMs + " ms");
            assertEquals(new JsonArray().add(new JsonObject().put("loaded", true)), http.rows("slow", new JsonObject()));
        }
    }

    @Test
    void aScriptThatFailsToLoadAnswersItsCallsWithTheReason() throws Exception {
        project();
        RunningServer.writeTool(dir, "broken", "description: loads, then throws\nhandler: ./handler.js\n");
        ProjectFiles.write(dir, "app/tools/broken/handler.js",
                "throw new Error('the top-level code gave up');\nexport default () => 1;\n");
        try (RunningServer server = start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(new JsonArray().add(new JsonObject().put("one", 1)), http.rows("db-one", new JsonObject()));
            String message = http.errorMessage("broken", new JsonObject());
            assertTrue(message.contains("cannot load the script") && message.contains("the top-level code gave up"),
                    message);
            Throwable failed = snapshot(server).scriptsReady().toCompletionStage().toCompletableFuture()
                    .handle((ok, e) -> e).get(60, TimeUnit.SECONDS);
            assertTrue(failed != null && failed.getMessage().contains("the top-level code gave up"), String.valueOf(failed));
            JsonObject ready = new JsonObject(http.send("GET", "/ready").body());
            assertTrue(ready.getBoolean("ready"), "the other tools serve: " + ready.encode());
            assertEquals("failed", scriptsStatus(http));
        }
    }

    /**
     * Scripts checked once the server listens ({@code start}'s way): it serves its database tools
     * but is not ready until the checks pass, and begins loading the scripts only then.
     */
    @Test
    void untilItsScriptsPassTheirChecksTheServerServesButIsNotReady() throws Exception {
        project();
        CompletableFuture<List<ConfigProblem>> checks = new CompletableFuture<>();
        AtomicInteger asked = new AtomicInteger();
        try (RunningServer server = RunningServer.start(dir, s -> s.metricsToken("probe"),
                ServeOptions.DEFAULTS.withScriptChecks(() -> {
                    asked.incrementAndGet();
                    return checks;
                }))) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(new JsonArray().add(new JsonObject().put("one", 1)), http.rows("db-one", new JsonObject()));
            var probe = http.send("GET", "/ready");
            assertEquals(503, probe.statusCode(), probe.body());
            assertEquals(new JsonObject().put("ready", false).put("status", "starting"), new JsonObject(probe.body()));
            assertEquals("checking", scriptsStatus(http));
            assertFalse(server.server().scriptChecks().isComplete());
            Thread.sleep(300);
            assertEquals("loading", snapshot(server).scriptsStatus(), "no script loads before the checks pass");

            checks.complete(List.of());
            assertEquals(List.of(), server.server().scriptChecks().toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS));
            snapshot(server).scriptsReady().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            probe = http.send("GET", "/ready");
            assertEquals(200, probe.statusCode(), probe.body());
            assertEquals(new JsonArray().add(new JsonObject().put("loaded", true)), http.rows("slow", new JsonObject()));
            assertEquals(1, asked.get(), "the checks run once");
        }
    }

    /** Checks that find a problem leave the server unready, the problem for its owner to report (start stops then). */
    @Test
    void checksThatFindAProblemLeaveTheServerUnready() throws Exception {
        project();
        ConfigProblem problem = new ConfigProblem(new dev.hyperterse.model.SourceLocation(dir.resolve("app/tools/slow/handler.js"), 1), "not a module");
        try (RunningServer server = RunningServer.start(dir, s -> s.metricsToken("probe"),
                ServeOptions.DEFAULTS.withScriptChecks(() -> CompletableFuture.completedFuture(List.of(problem))))) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(List.of(problem), server.server().scriptChecks().toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS));
            assertEquals(503, http.send("GET", "/ready").statusCode());
            assertEquals(new JsonArray().add(new JsonObject().put("one", 1)), http.rows("db-one", new JsonObject()));
        }
    }

    /** A reload that swapped in a new version while the start's checks ran has checked its own scripts: theirs no longer count. */
    @Test
    void checksOvertakenByAReloadNoLongerCount() throws Exception {
        project();
        CompletableFuture<List<ConfigProblem>> checks = new CompletableFuture<>();
        try (RunningServer server = RunningServer.start(dir, s -> s, ServeOptions.DEFAULTS
                .withReloads(RunningServer.recompile(dir, java.util.Map.of(), dev.hyperterse.connector.Connectors.builtIn()), null)
                .withScriptChecks(() -> checks))) {
            RunningServer.writeTool(dir, "db-two", "description: two\nuse: db\nstatement: SELECT 2 AS two\n");
            server.server().reload().toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
            checks.complete(List.of(new ConfigProblem(new dev.hyperterse.model.SourceLocation(
                    dir.resolve("app/tools/slow/handler.js"), 1), "read after the reload")));
            assertEquals(List.of(), server.server().scriptChecks().toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS));
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(200, http.send("GET", "/ready").statusCode());
            assertEquals(new JsonArray().add(new JsonObject().put("two", 2)), http.rows("db-two", new JsonObject()));
        }
    }

    /** Checks that cannot run (no checks to wait for) leave the server unready, failing its checks' future. */
    @Test
    void checksThatCannotRunFailTheirFuture() throws Exception {
        project();
        try (RunningServer server = RunningServer.start(dir, s -> s, ServeOptions.DEFAULTS.withScriptChecks(() -> null))) {
            Throwable failed = server.server().scriptChecks().toCompletionStage().toCompletableFuture()
                    .handle((ok, e) -> e).get(10, TimeUnit.SECONDS);
            assertTrue(failed != null && failed.getMessage().contains("no checks of the scripts"), String.valueOf(failed));
            assertEquals(503, new RawHttp(server.baseUrl()).send("GET", "/ready").statusCode());
        }
    }
}
