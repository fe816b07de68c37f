package dev.hyperterse.search;

import dev.hyperterse.model.InputType;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.hyperterse.search.TestTools.db;
import static dev.hyperterse.search.TestTools.handler;
import static dev.hyperterse.search.TestTools.input;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HybridRankingTest {

    private static final ToolDef SETTINGS = handler("list_pg_settings",
            "Lists configuration parameters of the server with their current values");
    private static final ToolDef EXTENSIONS = handler("list_extensions", "Lists the extensions installed on the server");
    private static final ToolDef ORDERS = db("get-orders", "Returns orders by status",
            "SELECT id, total FROM orders WHERE status = {{ inputs.status }}",
            input("status", InputType.STRING, "Order status to match"));
    private static final ToolDef EMBEDDINGS = handler("search-knowledge-base", "Semantic search over documentation",
            input("queryEmbedding", InputType.STRING, "Vector of the question"));
    private static final List<ToolDef> TOOLS = List.of(EXTENSIONS, SETTINGS, ORDERS, EMBEDDINGS);

    private static SearchIndex hybrid(List<ToolDef> tools) {
        return new SearchIndex(tools, 10, SearchRanking.HYBRID, RankFusion.DEFAULT);
    }

    private static List<String> names(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::name).toList();
    }

    @Test
    void stemmingMatchesWordFormsThatNeitherContainsTheOther() {
        // "configured" and "configuration" share the stem but neither holds the other, so
        // Hyperterse's ranking sees only "server", which both tools have, and orders them by name
        String query = "how is the server configured";
        assertEquals("list_extensions", new SearchIndex(TOOLS, 10).search(query).get(0).name());
        assertEquals("list_pg_settings", hybrid(TOOLS).search(query).get(0).name());
    }

    @Test
    void identifiersAreSplitIntoWordsForTheAnalyzer() {
        assertEquals("list pg settings", HybridRanking.words("list_pg_settings"));
        assertEquals("get orders", HybridRanking.words("get-orders"));
        assertEquals("query Embedding", HybridRanking.words("queryEmbedding"));
        assertEquals("search-knowledge-base", hybrid(TOOLS).search("embedding of my question").get(0).name(),
                "an input named queryEmbedding matches the word embedding");
    }

    @Test
    void relevanceScoresKeepTheOneToHundredScaleBestFirst() {
        List<SearchHit> hits = hybrid(TOOLS).search("get orders");
        assertEquals("get-orders", hits.get(0).name());
        assertEquals(100, hits.get(0).relevanceScore(), "first in both orders is a full match");
        for (int i = 0; i < hits.size(); i++) {
            SearchHit hit = hits.get(i);
            assertTrue(hit.relevanceScore() >= 1 && hit.relevanceScore() <= 100, hit.toString());
            assertTrue(hit.rawScore() > 0 && hit.rawScore() <= 1, hit.toString());
            if (i > 0) {
                assertTrue(hits.get(i - 1).rawScore() >= hit.rawScore(), "best first: " + hits);
            }
        }
    }

    @Test
    void hiddenToolsNeverTakeAPlace() {
        List<ToolDef> tools = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            tools.add(handler("report-" + i, "Builds the monthly sales report number " + i));
        }
        SearchIndex index = new SearchIndex(tools, 5, SearchRanking.HYBRID, RankFusion.DEFAULT);
        List<SearchHit> all = index.search("monthly sales report");
        assertEquals(5, all.size());
        String best = all.get(0).name();
        List<SearchHit> visible = index.search("monthly sales report", t -> !t.name().equals(best));
        assertEquals(5, visible.size(), "the next tool fills the place");
        assertFalse(names(visible).contains(best));
        assertEquals(20, index.search("monthly sales report", null, 20).size(), "candidates beyond the limit");
    }

    @Test
    void bm25LooksPastHiddenToolsBeyondItsDepth() {
        // BM25 alone, so Hyperterse's ranking (which filters as it scans) cannot fill the places
        List<ToolDef> tools = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            // the hidden ones match better: shorter descriptions
            tools.add(handler("report-" + i, i < 350 ? "Sales report" : "Sales report for one region, monthly"));
        }
        SearchIndex index = new SearchIndex(tools, 5, SearchRanking.HYBRID, new RankFusion(10, 1, 0));
        List<SearchHit> visible = index.search("sales report",
                t -> Integer.parseInt(t.name().substring("report-".length())) >= 350);
        assertEquals(5, visible.size(), names(visible).toString());
        assertTrue(visible.stream().allMatch(h -> Integer.parseInt(h.name().substring(7)) >= 350), names(visible).toString());
    }

    @Test
    void aQueryOfOnlyStopWordsIsRankedByHyperterseAlone() {
        // the English analyzer drops every word of "the", leaving BM25 nothing to match
        SearchIndex hybrid = hybrid(TOOLS);
        SearchIndex hyperterse = new SearchIndex(TOOLS, 10);
        assertEquals(names(hyperterse.search("the")), names(hybrid.search("the")));
        assertTrue(hybrid.search("?!").isEmpty(), "no letters or numbers: no hits, as in Hyperterse");
    }

    @Test
    void hyperterseModeIsTheTwoArgumentIndex() {
        SearchIndex explicit = new SearchIndex(TOOLS, 10, SearchRanking.HYPERTERSE, RankFusion.DEFAULT);
        SearchIndex plain = new SearchIndex(TOOLS, 10);
        for (String query : List.of("orders by status", "server settings", "embedding")) {
            assertEquals(plain.search(query), explicit.search(query), query);
        }
    }
}
