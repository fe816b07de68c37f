package dev.hyperterse.server;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.search.SearchIndex;
import dev.hyperterse.telemetry.TelemetrySetup;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a start leaves for later: the search index (built by the first tools/list or search, which waits for it;
 * after a reload at once if the version before was searched), the script engine (started only for a project with scripts, also when a
 * reload brings the first one) and the JVM meters (bound once serving, or by the first scrape).
 */
class DeferredStartWorkTest {
    @TempDir
    Path dir;

    private void catalog(int tools) {
        ProjectFiles.write(dir, ".hyperterse", "name: deferred\n");
        ProjectFiles.sqliteMemoryDb(dir);
        for (int i = 0; i < tools; i++) {
            RunningServer.writeTool(dir, "list-things-" + i, "description: 'Lists the things of group " + i
                    + "'\nuse: db\nstatement: SELECT " + i + " AS n\n");
        }
        RunningServer.writeTool(dir, "get-forecast", "description: 'Weather forecast for a city'\nuse: db\n"
                + "statement: SELECT 1 AS one\n");
    }

    private static JsonArray search(RunningServer server, String query) throws Exception {
        return new RawHttp(server.baseUrl()).searchHits(query);
    }

    @Test
    void openingASnapshotLeavesTheIndexForLater() throws Exception {
        catalog(3);
        Project project = new ProjectCompiler(Map.of(), Connectors.builtIn().types(), AuthPlugins.builtIn().names())
                .compile(dir);
        Vertx vertx = Vertx.vertx();
        try {
            Snapshot snapshot = Snapshot.open(vertx, project, Connectors.builtIn(), AuthPlugins.builtIn())
                    .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertFalse(snapshot.backend().searchIndex().started(), "the index is not built while opening");
            SearchIndex index = snapshot.backend().searchIndex().get()
                    .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertEquals(4, index.size());
            snapshot.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A call by name does not build the index: a server no one searches never holds the ranking's libraries
     * and tables. Past the moment the JVM meters are bound, it is still not started; a search starts it.
     */
    @Test
    void aFreshServerBuildsTheIndexAtItsFirstSearch() throws Exception {
        catalog(3);
        try (RunningServer server = RunningServer.start(dir)) {
            Thread.sleep(HyperterseServer.BACKGROUND_START.toMillis() + 500);
            assertFalse(server.server().snapshots().peek().backend().searchIndex().started(),
                    "not started without a search");
            assertEquals("get-forecast", search(server, "weather forecast").getJsonObject(0).getString("name"));
            assertTrue(server.server().snapshots().peek().backend().searchIndex().started());
        }
    }

    /** A client that lists the tools is shown search and likely to use it next: the build starts then. */
    @Test
    void listingTheToolsStartsTheIndex() throws Exception {
        catalog(3);
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            http.rows("get-forecast", new JsonObject());
            assertFalse(server.server().snapshots().peek().backend().searchIndex().started(),
                    "a call by name does not start it");
            assertEquals(200, http.mcp(RawHttp.request(1, "tools/list", new JsonObject())).statusCode());
            assertTrue(server.server().snapshots().peek().backend().searchIndex().started(), "tools/list starts it");
            assertEquals("get-forecast", search(server, "weather forecast").getJsonObject(0).getString("name"));
        }
    }

    /** After a reload the new version's index is built at once if the old one was searched, else left for a search. */
    @Test
    void aReloadBuildsTheNewIndexAtOnceOnlyWhenTheOldOneWasSearched() throws Exception {
        catalog(2);
        try (RunningServer server = RunningServer.start(dir, s -> s, ServeOptions.DEFAULTS
                .withReloads(RunningServer.recompile(dir, Map.of(), Connectors.builtIn()), null))) {
            assertFalse(addToolAndReload(server, "get-tide", "Tide times for a harbour"),
                    "never searched: the new index waits for a search too");
            assertEquals("get-tide", search(server, "tide times").getJsonObject(0).getString("name"));
            assertTrue(addToolAndReload(server, "get-moon", "Phase of the moon"),
                    "searched before: the new index is built with the reload");
            assertEquals("get-moon", search(server, "phase of the moon").getJsonObject(0).getString("name"));
        }
    }

    /** Adds a tool, reloads; whether the new version's index was started by the reload. */
    private boolean addToolAndReload(RunningServer server, String name, String description) throws Exception {
        RunningServer.writeTool(dir, name, "description: '" + description + "'\nuse: db\nstatement: SELECT 1 AS one\n");
        server.server().reload().toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
        return server.server().snapshots().peek().backend().searchIndex().started();
    }

    /** The first call of a fresh server is a search: it comes while the index is being built, or before. */
    @Test
    void theFirstSearchOfAFreshServerAnswersLikeAnyLaterOne() throws Exception {
        catalog(60);
        try (RunningServer server = RunningServer.start(dir)) {
            JsonArray first = search(server, "weather forecast for a city");
            assertFalse(first.isEmpty(), "no empty result while the index is built");
            assertEquals("get-forecast", first.getJsonObject(0).getString("name"), first.encode());
            assertEquals(first, search(server, "weather forecast for a city"));
        }
    }

    @Test
    void aProjectWithoutScriptsServesAndAReloadAddingAHandlerServesItToo() throws Exception {
        catalog(1);
        try (RunningServer server = RunningServer.start(dir, s -> s, ServeOptions.DEFAULTS
                .withReloads(RunningServer.recompile(dir, Map.of(), Connectors.builtIn()), null))) {
            ProjectFiles.writeLines(dir, "app/tools/greet/config.terse", "description: 'Greets someone'",
                    "inputs:", "  name: {type: string}");
            ProjectFiles.writeLines(dir, "app/tools/greet/handler.ts",
                    "export default ({ inputs }: { inputs: { name: string } }) => ({ hello: inputs.name });");
            server.server().reload().toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
            JsonObject call = RawHttp.request(2, "tools/call", new JsonObject().put("name", "execute")
                    .put("arguments", new JsonObject().put("tool", "greet")
                            .put("inputs", new JsonObject().put("name", "Ada"))));
            String body = new RawHttp(server.baseUrl()).mcp(call).body();
            assertTrue(body.contains("Ada") && body.contains("hello") && !body.contains("\"isError\":true"), body);
        }
    }

    @Test
    void theJvmMetersAreThereFromTheFirstScrape() {
        TelemetrySetup setup = TelemetrySetup.forTesting(null, false, true);
        try {
            String text = setup.scrape();
            assertTrue(text.contains("jvm_memory_used_bytes") && text.contains("jvm_threads_live_threads")
                    && text.contains("process_uptime_seconds"), "JVM meters in the first scrape");
            setup.bindJvmMetrics(); // bound once: no second set
            assertEquals(text.lines().filter(l -> l.startsWith("jvm_threads_live_threads")).count(),
                    setup.scrape().lines().filter(l -> l.startsWith("jvm_threads_live_threads")).count());
        } finally {
            setup.close();
        }
    }
}
