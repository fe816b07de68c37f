package dev.hyperterse.search;

import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.search.TestTools.handler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmbeddingFusionTest {

    private static final Map<String, ToolDef> TOOLS = new LinkedHashMap<>();

    private static SearchHit hit(String name, double raw) {
        ToolDef tool = TOOLS.computeIfAbsent(name, n -> handler(n, "the " + n + " tool"));
        return new SearchHit(name, SearchIndex.relevanceScore(raw), raw, tool);
    }

    private static List<String> names(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::name).toList();
    }

    // table a 0.9, b 0.5, c 0.1 scales to 1, 0.5, 0; model c 0.8, d 0.6, a 0.4 to 1, 0.5, 0:
    // a 0.4 × 1 = 0.4, c 0.6 × 1 = 0.6, d 0.6 × 0.5 = 0.3; b, which the model did not find, is no hit
    private static final List<SearchHit> TABLE = List.of(hit("a", 0.9), hit("b", 0.5), hit("c", 0.1));
    private static final List<SearchHit> MODEL = List.of(hit("c", 0.8), hit("d", 0.6), hit("a", 0.4));

    @Test
    void ordersByTheScaledScoresTheStaticTableTakingFortyPercent() {
        assertEquals(0.4, EmbeddingFusion.STATIC_SHARE);
        // raw scores alone would put a first (0.60 against 0.52), shares swapped would too (0.6 against 0.4)
        assertEquals(List.of("c", "a", "d"), names(EmbeddingFusion.fuse(TABLE, MODEL, 10)));
    }

    @Test
    void everyPlaceKeepsAFallingScoreFromTheToolsOwnRawScores() {
        List<SearchHit> hits = EmbeddingFusion.fuse(TABLE, MODEL, 10);
        // own w × raw static + (1 − w) × raw model: a 0.60, c 0.52, d 0.36 (d in the model's list only)
        double[] expected = {0.60, 0.52, 0.36};
        assertEquals(expected.length, hits.size());
        for (int k = 0; k < expected.length; k++) {
            SearchHit hit = hits.get(k);
            assertEquals(expected[k], hit.rawScore(), 1e-12, hit.toString());
            assertEquals(SearchIndex.relevanceScore(expected[k]), hit.relevanceScore(), hit.toString());
            assertTrue(hit.relevanceScore() >= 1 && hit.relevanceScore() <= 100, hit.toString());
            assertSame(TOOLS.get(hit.name()), hit.tool());
        }
        assertEquals(60, hits.get(0).relevanceScore());
    }

    @Test
    void cutToMaxHits() {
        List<SearchHit> hits = EmbeddingFusion.fuse(TABLE, MODEL, 2);
        assertEquals(List.of("c", "a"), names(hits));
        assertEquals(0.60, hits.get(0).rawScore(), 1e-12);
        assertEquals(0.52, hits.get(1).rawScore(), 1e-12);
        assertEquals(List.of(), EmbeddingFusion.fuse(TABLE, MODEL, 0));
        assertEquals(List.of(), EmbeddingFusion.fuse(List.of(), List.of(), 10));
    }

    @Test
    void aListWhoseScoresAreAllEqualScalesToOne() {
        // table y, z equal: both scale to 1
        List<SearchHit> hits = EmbeddingFusion.fuse(List.of(hit("y", 0.3), hit("z", 0.3)),
                List.of(hit("z", 0.9), hit("w", 0.7), hit("y", 0.5)), 10);
        // model z 1, w 0.5, y 0: z 1.0, w 0.3, y 0.4 (y before w only if the equal table scores count 1)
        assertEquals(List.of("z", "y", "w"), names(hits));
        // z 0.4 × 0.3 + 0.6 × 0.9 = 0.66, w 0.6 × 0.7 = 0.42, y 0.4 × 0.3 + 0.6 × 0.5 = 0.42
        assertEquals(0.66, hits.get(0).rawScore(), 1e-12);
        assertEquals(0.42, hits.get(1).rawScore(), 1e-12);
        assertEquals(0.42, hits.get(2).rawScore(), 1e-12);
        // one list alone: its order, each tool scoring the list's share of its own score
        assertEquals(List.of("m"), names(EmbeddingFusion.fuse(List.of(), List.of(hit("m", 0.5)), 10)));
        assertEquals(0.3, EmbeddingFusion.fuse(List.of(), List.of(hit("m", 0.5)), 10).get(0).rawScore(), 1e-12);
    }

    @Test
    void tiesGoByTheModelsOrder() {
        assertEquals(List.of("q", "p"), names(EmbeddingFusion.fuse(List.of(),
                List.of(hit("q", 0.5), hit("p", 0.5)), 10)), "the model's order, not the name");
        // v and u tie at 0.4 × 0 + 0.6 × 0.5: the model's order
        assertEquals(List.of("m", "v", "u", "k"), names(EmbeddingFusion.fuse(List.of(hit("m", 0.9), hit("k", 0.1)),
                List.of(hit("m", 0.9), hit("v", 0.5), hit("u", 0.5), hit("k", 0.1)), 10)));
        assertEquals(EmbeddingFusion.fuse(TABLE, MODEL, 10), EmbeddingFusion.fuse(TABLE, MODEL, 10));
    }

    @Test
    void aToolOnlyTheTableFoundIsNoHit() {
        // whether a tool answers the query at all is the model's call: a query about nothing the
        // catalog does gets no more hits than from the model alone
        assertEquals(List.of(), EmbeddingFusion.fuse(List.of(hit("n2", 0.7), hit("n1", 0.7)), List.of(), 10));
        assertEquals(List.of("m"), names(EmbeddingFusion.fuse(List.of(hit("t", 0.9), hit("m", 0.2)),
                List.of(hit("m", 0.4)), 10)));
    }
}
