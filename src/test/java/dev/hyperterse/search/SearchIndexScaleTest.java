package dev.hyperterse.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hyperterse.model.ToolDef;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** Works at 10,000 tools and from several threads. No timing is asserted (see bench/ for that). */
class SearchIndexScaleTest {

    private static final String[] QUERIES = {
        "orders", "list overdue invoices", "find users by email", "I want to know which payments were refunded today",
        "sku", "tickets per region with totals", "get-orders-42", "warehouse suppliers", "x", "ün",
        "count events created today paginated", "delete coupons by id"
    };

    @Test
    void tenThousandToolsRankSensibly() {
        List<ToolDef> tools = GeneratedTools.generate(10_000, 7);
        SearchIndex index = new SearchIndex(tools, 10);
        for (String query : QUERIES) {
            List<SearchHit> hits = index.search(query);
            assertTrue(hits.size() <= 10, query);
            for (int i = 1; i < hits.size(); i++) {
                SearchHit before = hits.get(i - 1);
                SearchHit after = hits.get(i);
                assertTrue(before.rawScore() > after.rawScore()
                        || before.rawScore() == after.rawScore()
                        && SearchText.compareCodePoints(before.name(), after.name()) < 0, query + ": " + hits);
                assertTrue(after.relevanceScore() >= 1 && after.relevanceScore() <= 100);
            }
        }
        List<SearchHit> exact = index.search(tools.get(4242).name());
        // Ranked first, though not 100: its other texts miss the name's number token.
        assertEquals(tools.get(4242).name(), exact.get(0).name());
        assertFalse(index.search("orders").isEmpty());
    }

    @Test
    void concurrentQueriesGiveTheSameAnswersAsSequentialOnes() throws Exception {
        SearchIndex index = new SearchIndex(GeneratedTools.generate(2_000, 11), 25);
        List<List<SearchHit>> expected = new ArrayList<>();
        for (String query : QUERIES) {
            expected.add(index.search(query));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int task = 0; task < 16; task++) {
                final int offset = task;
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 20; round++) {
                        int q = (offset + round) % QUERIES.length;
                        if (!index.search(QUERIES[q]).equals(expected.get(q))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertTrue(result.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
