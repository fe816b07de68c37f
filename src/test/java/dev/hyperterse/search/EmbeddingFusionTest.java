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
    // a 0.4 × 1 = 0.4, b 0.4 × 0.5 = 0.2, c 0.6 × 1 = 0.6, d 0.6 × 0.5 = 0.3
    private static final List<SearchHit> TABLE = List.of(hit("a", 0.9), hit("b", 0.5), hit("c", 0.1));
    private static final List<SearchHit> MODEL = List.of(hit("c", 0.8), hit("d", 0.6), hit("a", 0.4));

    @Test
    void ordersByTheScaledScoresTheStaticTableTakingFortyPercent() {
        assertEquals(0.4, EmbeddingFusion.STATIC_SHARE);
        // raw scores alone would put a first (0.60 against 0.52), shares swapped would too (0.6 against 0.4)
        assertEquals(List.of("c", "a", "d", "b"), names(EmbeddingFusion.fuse(TABLE, MODEL, 10)));
    }

    @Test
    void everyPlaceKeepsAFallingScoreFromTheToolsOwnRawScores() {
        List<SearchHit> hits = EmbeddingFusion.fuse(TABLE, MODEL, 10);
        // own w × raw static + (1 − w) × raw model: a 0.60, c 0.52, d 0.36, b 0.20 (d and b in one list only)
        double[] expected = {0.60, 0.52, 0.36, 0.20};
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
        // table x, y equal: both 1; model y 1, z 0 → x 0.4, y 1.0, z 0 (with 0 for the equal ones: z before x)
        List<SearchHit> hits = EmbeddingFusion.fuse(List.of(hit("x", 0.3), hit("y", 0.3)),
                List.of(hit("y", 0.9), hit("z", 0.5)), 10);
        assertEquals(List.of("y", "x", "z"), names(hits));
        // y 0.4 × 0.3 + 0.6 × 0.9 = 0.66, z 0.6 × 0.5 = 0.30, x 0.4 × 0.3 = 0.12
        assertEquals(0.66, hits.get(0).rawScore(), 1e-12);
        assertEquals(0.30, hits.get(1).rawScore(), 1e-12);
        assertEquals(0.12, hits.get(2).rawScore(), 1e-12);
        // one list alone: its order, each tool scoring the list's share of its own score
        assertEquals(List.of("m"), names(EmbeddingFusion.fuse(List.of(), List.of(hit("m", 0.5)), 10)));
        assertEquals(0.3, EmbeddingFusion.fuse(List.of(), List.of(hit("m", 0.5)), 10).get(0).rawScore(), 1e-12);
    }

    @Test
    void tiesGoByTheModelsOrderThenByName() {
        assertEquals(List.of("q", "p"), names(EmbeddingFusion.fuse(List.of(),
                List.of(hit("q", 0.5), hit("p", 0.5)), 10)), "the model's order, not the name");
        assertEquals(List.of("n1", "n2"), names(EmbeddingFusion.fuse(List.of(hit("n2", 0.7), hit("n1", 0.7)),
                List.of(), 10)), "only the table's: by name");
        // t and m lead their lists; u and v are last in theirs, 0 both: v, the model's, first
        assertEquals(List.of("m", "t", "v", "u"), names(EmbeddingFusion.fuse(
                List.of(hit("t", 0.9), hit("u", 0.1)), List.of(hit("m", 0.9), hit("v", 0.1)), 10)));
        assertEquals(EmbeddingFusion.fuse(TABLE, MODEL, 10), EmbeddingFusion.fuse(TABLE, MODEL, 10));
    }
}
