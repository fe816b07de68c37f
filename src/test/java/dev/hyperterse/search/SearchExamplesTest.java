package dev.hyperterse.search;

import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.hyperterse.search.TestTools.handler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tool's examples are searched with it: an agent's words the description does not use still find it. */
class SearchExamplesTest {

    private static ToolDef withExamples(ToolDef t, List<String> examples) {
        return t.toBuilder().examples(examples).build();
    }

    private static List<ToolDef> catalog(boolean examples) {
        ToolDef collaborators = handler("list_collaborators", "List the collaborators of a repository");
        return List.of(
                handler("list_branches", "List the branches of a repository"),
                handler("get_branch_protection", "Get the protection rules of a branch"),
                examples ? withExamples(collaborators, List.of("who can push to this repo",
                        "which people have write access")) : collaborators,
                handler("list_commits", "List the commits of a branch"));
    }

    private static String first(SearchRanking ranking, boolean examples, String query) {
        List<SearchHit> hits = search(ranking, examples, query, StaticPooling.DEFAULT);
        return hits.isEmpty() ? "" : hits.get(0).name();
    }

    private static List<SearchHit> search(SearchRanking ranking, boolean examples, String query, StaticPooling pooling) {
        SearchIndex index = new SearchIndex(catalog(examples), 10, ranking, RankFusion.DEFAULT);
        if (ranking == SearchRanking.STATIC) {
            index.embedToolsStatically(ActionWeights.DEFAULT, pooling);
        }
        return index.search(query);
    }

    private static double score(List<SearchHit> hits, String name) {
        return hits.stream().filter(h -> h.name().equals(name)).mapToDouble(SearchHit::rawScore).findFirst().orElse(0);
    }

    @Test
    void theStaticRankingReadsExamples() {
        String query = "who can push to the repo";
        // the table's mean alone misses it without examples; the catalog's weights may find it anyway
        assertNotEquals("list_collaborators", search(SearchRanking.STATIC, false, query, StaticPooling.OFF).get(0).name());
        assertEquals("list_collaborators", search(SearchRanking.STATIC, true, query, StaticPooling.OFF).get(0).name());
        assertEquals("list_collaborators", first(SearchRanking.STATIC, true, query));
        assertTrue(score(search(SearchRanking.STATIC, true, query, StaticPooling.DEFAULT), "list_collaborators")
                > score(search(SearchRanking.STATIC, false, query, StaticPooling.DEFAULT), "list_collaborators"));
    }

    @Test
    void theHybridRankingSearchesExamplesAsAField() {
        String query = "people with write access";
        assertNotEquals("list_collaborators", first(SearchRanking.HYBRID, false, query));
        assertEquals("list_collaborators", first(SearchRanking.HYBRID, true, query));
    }

    @Test
    void hyperterseRankingIgnoresThem() {
        String query = "people with write access";
        assertEquals(first(SearchRanking.HYPERTERSE, false, query), first(SearchRanking.HYPERTERSE, true, query));
    }
}
