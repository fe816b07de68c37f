package dev.hyperterse.server;

import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The served snapshot ranks with {@code tools.search.ranking}: static unless another is chosen (or
 * the build has the embedding model, where semantic is the default).
 */
class SearchRankingServerTest {
    // "configured" shares its stem with "configuration" but neither word holds the other: only
    // the hybrid ranking relates them; Hyperterse's sees "server" in both and orders by name
    private static final String QUERY = "how is the server configured";

    @TempDir
    Path dir;

    private void project(String searchSection) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: ranking\ntools:\n  search:\n" + searchSection);
        ProjectFiles.sqliteMemoryDb(dir);
        tool("list-settings", "Lists configuration parameters of the server with their values");
        tool("list-extensions", "Lists the extensions installed on the server");
    }

    private void tool(String name, String description) throws Exception {
        RunningServer.writeTool(dir, name, "description: '" + description + "'\nuse: db\nstatement: SELECT 1 AS one\n");
    }

    private static JsonArray search(RunningServer server) throws Exception {
        return search(server, QUERY);
    }

    private static JsonArray search(RunningServer server, String query) throws Exception {
        return new RawHttp(server.baseUrl()).searchHits(query);
    }

    /**
     * {@code static} (chosen, or the default of a server without the semantic add-on): by meaning from
     * the first search (the static vectors are part of the index).
     */
    @Test
    void staticRanksByMeaningFromTheFirstSearch() throws Exception {
        project("    limit: 5\n    ranking: static\n");
        tool("get-forecast", "Weather forecast for a city");
        try (RunningServer server = RunningServer.start(dir, Map.of(), s -> s)) {
            JsonArray hits = search(server, "is it going to rain in Paris tomorrow");
            assertEquals("get-forecast", hits.getJsonObject(0).getString("name"), hits.encode());
            hits = search(server);
            assertEquals("list-settings", hits.getJsonObject(0).getString("name"), hits.encode());
            for (Object hit : hits) {
                int score = ((JsonObject) hit).getInteger("relevance_score");
                assertTrue(score >= 1 && score <= 100, hits.encode());
            }
        }
    }

    @Test
    void hybridWhenChosen() throws Exception {
        project("    ranking: hybrid\n");
        try (RunningServer server = RunningServer.start(dir, Map.of(), s -> s)) {
            JsonArray hits = search(server);
            assertEquals("list-settings", hits.getJsonObject(0).getString("name"), hits.encode());
            for (Object hit : hits) {
                int score = ((JsonObject) hit).getInteger("relevance_score");
                assertTrue(score >= 1 && score <= 100, hits.encode());
            }
        }
    }

    /** With the semantic ranking's add-on (on the test class path): static at first, then by the models too. */
    @Test
    void semanticRanksByMeaningOnceTheToolVectorsAreReady() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.hyperterse.search.TextEmbedder.bundled().isPresent(),
                "no embedding model on the class path (the add-on's parts)");
        project("    ranking: semantic\n");
        tool("get-forecast", "Weather forecast for a city");
        Path vectors = dir.resolve("vectors");
        System.setProperty(SemanticSearch.CACHE_DIR_PROPERTY, vectors.toString());
        try (RunningServer server = RunningServer.start(dir, Map.of(), s -> s)) {
            JsonArray hits = new JsonArray();
            // the static table answers at once; the model's vectors, kept on disk, follow, and the
            // ranking takes them up right after storing them
            for (long end = System.nanoTime() + 120_000_000_000L; System.nanoTime() < end && !Files.isDirectory(vectors); ) {
                search(server, "is it going to rain in Paris tomorrow");
                Thread.sleep(200);
            }
            Thread.sleep(500);
            hits = search(server, "is it going to rain in Paris tomorrow");
            assertEquals("get-forecast", hits.getJsonObject(0).getString("name"), hits.encode());
            // the static table's hits put in order with the model's cosine read too: scores still fall,
            // on the 1..100 scale
            int previous = 100;
            for (Object hit : hits) {
                int score = ((JsonObject) hit).getInteger("relevance_score");
                assertTrue(score >= 1 && score <= previous, hits.encode());
                previous = score;
            }
            assertTrue(Files.list(vectors).anyMatch(f -> f.toString().endsWith(".vectors")), "vectors kept on disk");
        } finally {
            System.clearProperty(SemanticSearch.CACHE_DIR_PROPERTY);
        }
    }

    @Test
    void hyperterseWhenChosen() throws Exception {
        project("    ranking: hyperterse\n");
        try (RunningServer server = RunningServer.start(dir, Map.of(), s -> s)) {
            JsonArray hits = search(server);
            assertEquals("list-extensions", hits.getJsonObject(0).getString("name"), hits.encode());
            assertEquals(hits.getJsonObject(0).getInteger("relevance_score"),
                    hits.getJsonObject(1).getInteger("relevance_score"), "a tie, broken by name: " + hits.encode());
        }
    }
}
