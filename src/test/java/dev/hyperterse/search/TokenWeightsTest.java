package dev.hyperterse.search;

import dev.hyperterse.model.InputType;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.hyperterse.search.TestTools.handler;
import static dev.hyperterse.search.TestTools.input;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The static ranking's catalog weights: IDF over the tools being indexed, and how vectors are pooled. */
class TokenWeightsTest {

    /** Token 1 is in every tool, 2 in two of four, 3 in one (twice), 9 in none. */
    private static final int[][] DOCUMENTS = {{1, 2, 3, 3}, {1, 2}, {1, 4}, {1}};

    @Test
    void aTokenEveryToolHasWeighsLessThanARareOne() {
        TokenWeights w = TokenWeights.of(DOCUMENTS, 0.5, false);
        assertTrue(w.idf(1) < w.idf(2), "in every tool < in half of them");
        assertTrue(w.idf(2) < w.idf(3), "in half < in one");
        assertEquals(w.idf(3), w.idf(4), 1e-9, "a repeat within one tool counts once");
        double top = Math.log(5) + 0.5;
        assertEquals((Math.log(5.0 / 5) + 0.5) / top, w.idf(1), 1e-6);
        assertEquals((Math.log(5.0 / 3) + 0.5) / top, w.idf(2), 1e-6);
        assertEquals((Math.log(5.0 / 2) + 0.5) / top, w.idf(3), 1e-6);
        assertTrue(w.idf(1) > 0, "smoothed: a common token still counts a little");
        assertEquals(4, w.size());
    }

    @Test
    void aTokenNoToolHasWeighsTheMostOrTheCatalogsMean() {
        TokenWeights atOne = TokenWeights.of(DOCUMENTS, 0.5, false);
        assertEquals(1, atOne.idf(9), 1e-9);
        for (int id : new int[] {1, 2, 3, 4}) {
            assertTrue(atOne.idf(id) < atOne.idf(9), "no seen token weighs more than an unseen one");
        }
        TokenWeights atMean = TokenWeights.of(DOCUMENTS, 0.5, true);
        double mean = (atMean.idf(1) + atMean.idf(2) + atMean.idf(3) + atMean.idf(4)) / 4;
        assertEquals(mean, atMean.idf(9), 1e-6);
        assertEquals(1, TokenWeights.of(new int[0][], 1, true).idf(9), 1e-9, "an empty catalog");
    }

    @Test
    void theWeightsDependOnTheCatalogNotOnItsOrder() {
        TokenWeights a = TokenWeights.of(DOCUMENTS, 1, false);
        int[][] shuffled = {{1}, {4, 1}, {2, 1}, {3, 3, 2, 1}};
        TokenWeights b = TokenWeights.of(shuffled, 1, false);
        for (int id = 0; id < 10; id++) {
            assertEquals(a.idf(id), b.idf(id), 0, "token " + id);
            assertEquals(a.idf(id), TokenWeights.of(DOCUMENTS, 1, false).idf(id), 0, "token " + id);
        }
    }

    @Test
    void poolingParametersAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(1.5, 0, 1, false, 0, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(0, -0.1, 1, false, 0, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(1, 1, 0, false, 0, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(1, 1, 1, false, -1, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(1, 1, 1, false, 0, 2, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(1, 1, 1, false, 0, 0, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(1, 1, 1, false, 0, 0, 1.1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new StaticPooling(1, 1, 1, false, 0, 0, -0.1, 0.1));
        assertTrue(StaticPooling.OFF.off());
        assertEquals(0, StaticPooling.OFF.leadShare());
        assertEquals(0, new StaticPooling(1, 1, 1, false, 0, 0, 0.1).leadShare(), "seven parameters: no lead");
        assertFalse(new StaticPooling(0, 0, 1, false, 0, 0, 0.4, SemanticRanking.STATIC_MIN_SCORE).off(),
                "a lead share is not the table's mean");
        assertTrue(StaticPooling.DEFAULT.usesIdf());
        assertEquals(0.2, StaticPooling.OFF.withMinScore(0.2).minScore());
        assertEquals(StaticPooling.DEFAULT.leadShare(), StaticPooling.DEFAULT.withMinScore(0).leadShare());
    }

    @Test
    void aTokenWeighedAtZeroIsAsIfTheTextDidNotHaveIt() {
        StaticEmbedder table = StaticEmbedder.bundled();
        int[] ids = table.tokenIds("weather forecast");
        int weather = ids[0];
        float[] without = table.embed(ids, id -> id == weather ? 0 : 1, 0);
        assertArrayEquals(table.embed("forecast"), without, 1e-6f);
        assertArrayEquals(table.embed("weather forecast"), table.embed(ids, null, 0), 0f, "no weights, no max: the mean");
        float[] pooled = table.embed(ids, null, 0.25);
        double norm = 0;
        for (float x : pooled) {
            norm += x * x;
        }
        assertEquals(1, norm, 1e-4, "a share max-pooled is still unit length");
        // the rank prior: a frequent token (a low id) weighs less than a rarer one
        assertTrue(table.rankPrior(table.tokenIds("the")[0], 1e-4) < table.rankPrior(table.tokenIds("forecast")[0], 1e-4));
    }

    private static final List<ToolDef> TOOLS = List.of(
            handler("repo_list_issues", "List the issues of a GitHub repository",
                    input("repo", InputType.STRING, "The repository")),
            handler("repo_create_branch", "Create a branch in a GitHub repository",
                    input("repo", InputType.STRING, "The repository")),
            handler("repo_list_commits", "List the commits of a GitHub repository",
                    input("repo", InputType.STRING, "The repository")),
            handler("repo_search_code", "Search code across GitHub repositories",
                    input("query", InputType.STRING, "What to look for")));

    private static List<String> ranked(SearchIndex index, String query) {
        List<String> out = new ArrayList<>();
        for (SearchHit hit : index.search(query)) {
            out.add(hit.name() + "=" + hit.rawScore());
            assertTrue(hit.relevanceScore() >= 1 && hit.relevanceScore() <= 100, hit.toString());
        }
        return out;
    }

    @Test
    void theStaticRankingWithCatalogWeightsIsDeterministic() {
        SearchIndex a = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        a.embedToolsStatically();
        SearchIndex b = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        b.embedToolsStatically(ActionWeights.DEFAULT, StaticPooling.DEFAULT);
        for (String query : List.of("start a new branch", "what changed recently in the repo",
                "can you please show me the open bugs in my GitHub repository")) {
            assertEquals(ranked(a, query), ranked(b, query), query);
            assertEquals(ranked(a, query), ranked(a, query), query);
        }
        assertEquals("repo_create_branch", a.search("start a new branch").get(0).name());
        // the tools' order changes no score (only the tie-break by declaration order could differ)
        List<ToolDef> reversed = new ArrayList<>(TOOLS);
        Collections.reverse(reversed);
        SearchIndex c = new SearchIndex(reversed, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        c.embedToolsStatically();
        for (SearchHit hit : a.search("list the commits")) {
            SearchHit same = c.search("list the commits").stream().filter(h -> h.name().equals(hit.name()))
                    .findFirst().orElseThrow();
            assertEquals(hit.rawScore(), same.rawScore(), 1e-6, hit.name());
        }
    }

    @Test
    void aWordEveryToolCarriesCountsLessInTheQuery() {
        // "repository" is in every tool: with the catalog's weights it moves the query less, so the
        // rest of the query ("bugs", "issues") decides
        SearchIndex off = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        off.embedToolsStatically(ActionWeights.OFF, StaticPooling.OFF);
        SearchIndex weighted = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        weighted.embedToolsStatically();
        String query = "repository repository bugs";
        double gapOff = off.search(query).get(0).rawScore() - off.search(query).get(1).rawScore();
        double gapWeighted = weighted.search(query).get(0).rawScore() - weighted.search(query).get(1).rawScore();
        assertEquals("repo_list_issues", weighted.search(query).get(0).name());
        assertTrue(gapWeighted >= gapOff, gapWeighted + " < " + gapOff);
    }
}
