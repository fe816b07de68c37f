package dev.hyperterse.search;

import dev.hyperterse.model.InputType;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.hyperterse.search.TestTools.db;
import static dev.hyperterse.search.TestTools.handler;
import static dev.hyperterse.search.TestTools.input;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The static embedding table shipped in the jar, and the {@code static} ranking built on it. */
class StaticEmbedderTest {

    private static final StaticEmbedder EMBEDDER = StaticEmbedder.bundled();

    private static double cosine(String a, String b) {
        float[] x = EMBEDDER.embed(a);
        float[] y = EMBEDDER.embed(b);
        double dot = 0;
        for (int i = 0; i < x.length; i++) {
            dot += x[i] * y[i];
        }
        return dot;
    }

    @Test
    void vectorsAreUnitLengthAndRelateWordsThatShareNoLetters() {
        float[] v = EMBEDDER.embed("remember this decision for later");
        assertEquals(EMBEDDER.dimensions(), v.length);
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        assertEquals(1, norm, 1e-4);
        assertTrue(EMBEDDER.model().startsWith("all-MiniLM-L6-v2-static-" + EMBEDDER.dimensions()), EMBEDDER.model());

        assertTrue(cosine("remember this", "store a memory") > cosine("remember this", "replication slot lag"),
                "remember ~ memory");
        assertTrue(cosine("how far behind are the replicas", "replication lag in bytes")
                > cosine("how far behind are the replicas", "list installed extensions"));
        assertTrue(cosine("weather forecast", "will it rain tomorrow") > cosine("weather forecast", "invoice totals"));
    }

    @Test
    void aTextWithNoKnownTokenIsTheZeroVector() {
        for (float x : EMBEDDER.embed("🙂 \u0000")) {
            assertEquals(0f, x);
        }
    }

    private static final List<ToolDef> TOOLS = List.of(
            handler("create_entities", "Create multiple new entities in the knowledge graph",
                    input("entities", InputType.STRING, "Entities to create")),
            db("list_replication_slots", "Lists replication slots and how much WAL they retain",
                    "SELECT * FROM pg_replication_slots"),
            db("list_installed_extensions", "Lists the extensions installed in the database",
                    "SELECT * FROM pg_extension"),
            handler("get_weather", "Current conditions and the forecast for a city",
                    input("city", InputType.STRING, "City name")));

    private static List<String> names(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::name).toList();
    }

    @Test
    void theStaticRankingRanksLexicallyUntilReadyThenByMeaningWithoutAModelOnAWorker() {
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        SearchIndex hybrid = new SearchIndex(TOOLS, 10, SearchRanking.HYBRID, RankFusion.DEFAULT);
        String query = "will it rain in Paris tomorrow";
        assertFalse(index.ranksByMeaning());
        assertEquals(names(hybrid.search(query)), names(index.search(query)), "lexical until ready");

        SearchIndex.EmbeddedTools done = index.embedToolsStatically();
        assertEquals(TOOLS.size(), done.embedded());
        assertTrue(index.ranksByMeaning());
        assertFalse(index.embedsQueriesWithAModel(), "a table look-up needs no worker");
        assertEquals("get_weather", index.search(query).get(0).name(), "no word shared with the tool");
        assertNotEquals(names(hybrid.search(query)), names(index.search(query)));
        for (SearchHit hit : index.search("replication lag")) {
            assertTrue(hit.relevanceScore() >= 1 && hit.relevanceScore() <= 100, hit.toString());
        }
        assertEquals("list_replication_slots", index.search("replication lag").get(0).name());
        assertEquals(List.of(), index.search("  "), "nothing to search for");
        // the trained table keeps unrelated texts apart: a query about nothing here finds nothing
        assertEquals(List.of(), index.search("qwzx"));
        assertEquals(List.of(), index.search("banana smoothie recipe"));
    }

    @Test
    void aStaticHitScoresAtLeastTheFloorSoUnrelatedQueriesListLittleOrNothing() {
        // the catalog's token weights leave unrelated texts a little closer than the table's mean
        // alone (bench/RESULTS.md: fewer unrelated asks answered with nothing), hence 4 against 3
        for (StaticPooling pooling : List.of(StaticPooling.DEFAULT, StaticPooling.OFF)) {
            SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
            index.embedToolsStatically(ActionWeights.DEFAULT, pooling);
            int hits = 0;
            for (String query : List.of("who won the football match last night", "play some relaxing jazz",
                    "how many calories are in an avocado", "turn off the living room lights",
                    "translate this paragraph into Japanese", "set an alarm for six in the morning")) {
                for (SearchHit hit : index.search(query)) {
                    assertTrue(hit.rawScore() >= pooling.minScore(), query + ": " + hit.name() + " " + hit.rawScore());
                    hits++;
                }
            }
            assertTrue(hits <= (pooling == StaticPooling.OFF ? 3 : 4),
                    hits + " hits for six queries about nothing these tools do");
        }
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        index.embedToolsStatically();
        // the floor keeps what the query is about
        assertEquals("get_weather", index.search("will it rain in Paris tomorrow").get(0).name());
    }

    @Test
    void theStaticRankingHonoursTheLimitAndVisibility() {
        SearchIndex index = new SearchIndex(TOOLS, 2, SearchRanking.STATIC, RankFusion.DEFAULT);
        index.embedToolsStatically();
        assertEquals(2, index.search("list things in the database").size());
        List<SearchHit> visible = index.search("the weather forecast", t -> !t.name().equals("get_weather"));
        assertFalse(names(visible).contains("get_weather"));
    }
}
