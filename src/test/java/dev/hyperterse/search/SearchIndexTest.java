package dev.hyperterse.search;

import static dev.hyperterse.search.TestTools.db;
import static dev.hyperterse.search.TestTools.defaultDescription;
import static dev.hyperterse.search.TestTools.handler;
import static dev.hyperterse.search.TestTools.handlerWithStatement;
import static dev.hyperterse.search.TestTools.input;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolDef;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/**
 * Ranking numbers. Expected raw scores are written as the spec's formula with the coverage and
 * gram counts worked out by hand in the comments (g(q) = distinct query 3-grams, g(t) = distinct
 * tool 3-grams, shared = both), and compared to 1e-12; relevance scores are compared exactly.
 */
class SearchIndexTest {

    private static final double EPSILON = 1e-12;

    private static final ToolDef GET_ORDERS = db("get-orders", "Returns orders by status",
            "SELECT * FROM orders WHERE status = {{ inputs.status }}",
            input("status", InputType.STRING, "order status"));

    private static SearchHit only(List<ToolDef> tools, String query) {
        List<SearchHit> hits = new SearchIndex(tools, 10).search(query);
        assertEquals(1, hits.size(), () -> "hits: " + hits);
        return hits.get(0);
    }

    private static List<String> names(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::name).collect(Collectors.toList());
    }

    // --- the spec's two worked checks ---------------------------------------------------------

    @Test
    void specCheckHandlerToolWeather() {
        SearchHit hit = only(List.of(handler("weather", defaultDescription("weather"))), "weather");
        assertEquals("weather", hit.name());
        assertEquals(100, hit.relevanceScore());
        // name 1 and description 1 over weights .30+.14+.05; + .10 name phrase bonus; capped
        assertEquals(1.0, hit.rawScore());
    }

    @Test
    void specCheckGetOrders() {
        SearchHit hit = only(List.of(GET_ORDERS), "orders");
        // name 1, statement 1, input names {status} 0 (a miss), description 1, input descriptions
        // {order, status} 1 (one partial, no miss: .6 / .6); all six components active, weights sum
        // to 1. Grams: g(q) = {ord rde der ers} 4, g(t) 53, shared 4 → 4 / 53. Name phrase +.10.
        double expected = 0.30 + 0.25 + 0.14 + 0.08 + 0.05 * (4.0 / 53) + 0.10;
        assertEquals(expected, hit.rawScore(), EPSILON);
        assertEquals(0.8737735849056604, hit.rawScore(), EPSILON);
        // 0.87377 × 99 = 86.504 → 87 → 88: the check sits just above a rounding boundary
        assertEquals(88, hit.relevanceScore());
    }

    @Test
    void queryIsNormalisedLikeTheTools() {
        assertEquals(88, only(List.of(GET_ORDERS), "  ORDERS?! ").relevanceScore());
    }

    // --- coverage -----------------------------------------------------------------------------

    /** Tools with only a name: components name (.30) and grams (.05) are active, total .35. */
    private static double nameOnly(String name, String query) {
        return only(List.of(handler(name, "")), query).rawScore();
    }

    @Test
    void exactTokenScoresOneAndAMissCostsATenth() {
        // "orders" exact, "status" miss: 1 / (1 + .1); g(q) ord rde der ers rss sst sta tat atu tus 10, shared 4
        double expected = (0.30 * (1 / 1.1) + 0.05 * (4.0 / 10)) / 0.35;
        assertEquals(expected, nameOnly("orders", "orders status"), EPSILON);
    }

    @Test
    void queryTokenInsideAToolTokenIsPartial() {
        // "order" is a prefix of "orders": .6 / (.6 + .1); g(q) ord rde der ers rst sta tat atu tus 9,
        // g(t) 4, shared 4, union 9
        double expected = (0.30 * (0.6 / 0.7) + 0.05 * (4.0 / 9)) / 0.35;
        assertEquals(expected, nameOnly("orders", "order status"), EPSILON);
        // an infix is partial too: "rder"; g(q) rde der ers rst sta tat atu tus 8, shared 3, union 9
        double infix = (0.30 * (0.6 / 0.7) + 0.05 * (3.0 / 9)) / 0.35;
        assertEquals(infix, nameOnly("orders", "rder status"), EPSILON);
    }

    @Test
    void toolTokenInsideAQueryTokenIsPartial() {
        // "preorders" contains "orders"; g(q) pre reo eor ord rde der ers rss sst sta tat atu tus 13, shared 4
        double expected = (0.30 * (0.6 / 0.7) + 0.05 * (4.0 / 13)) / 0.35;
        assertEquals(expected, nameOnly("orders", "preorders status"), EPSILON);
    }

    @Test
    void lonePartialWithoutMissesCountsAsFullCoverage() {
        // .6 / (.6 + 0 × .1) = 1, as in the get-orders check's input descriptions
        ToolDef tool = db("x", "", "SELECT 1", input("q", InputType.STRING, "order totals"));
        SearchHit hit = only(List.of(tool), "orders");
        // name {x} 0, statement {select 1} 0, input names {q} 0, description empty (dropped),
        // input descriptions {order totals}: "orders" contains "order" → 1.
        // Weights .30 + .25 + .18 + .08 + .05 = .86. Grams of "xselect1qordertotals":
        // xse sel ele lec ect ct1 t1q 1qo qor ord rde der ert rto tot ota tal als = 18;
        // g(q) ord rde der ers = 4; shared ord rde der = 3 → 3 / 19
        double expected = (0.08 * 1 + 0.05 * (3.0 / 19)) / (0.30 + 0.25 + 0.18 + 0.08 + 0.05);
        assertEquals(expected, hit.rawScore(), EPSILON);
    }

    @Test
    void handComputedMultiTokenQuery() {
        ToolDef tool = db("list-user-orders", "List orders placed by a user",
                "SELECT id, total FROM orders WHERE user_id = {{ inputs.user_id }}",
                input("user_id", InputType.INT, "Owner of the orders"));
        SearchHit hit = only(List.of(tool), "user order totals");
        // query tokens: user, order, totals
        // name {list user orders}:            user 1, order .6, totals miss → 1.6 / 1.7
        // statement {select id total from orders where user inputs}: 1, .6, .6 ("total") → 2.2 / 2.2
        // input names {user id}:              user 1, order miss, totals miss → 1 / 1.2
        // description {list orders placed by a user}: 1, .6, .6 ("totals" contains "a") → 1
        // input descriptions {owner of the orders}: miss, .6, miss → .6 / .8
        // grams: g(q) use ser ero ror ord rde der ert rto tot ota tal als = 13; g(t) = 75;
        //        shared use ser ero ror ord rde der tot ota tal = 10 → 10 / 78
        // no phrase: "user order totals" occurs in no text
        double expected = 0.30 * (1.6 / 1.7) + 0.25 * 1 + 0.18 * (1 / 1.2) + 0.14 * 1 + 0.08 * (0.6 / 0.8)
                + 0.05 * (10.0 / 78);
        assertEquals(expected, hit.rawScore(), EPSILON);
        assertEquals(0.888763197586727, hit.rawScore(), EPSILON);
        assertEquals(89, hit.relevanceScore()); // 87.99 → 88 → 89
    }

    @Test
    void repeatedQueryTokensCountOnce() {
        // coverage is still 1 / (1 + .1): "status" is one miss, not two. The grams do see the
        // repetition: "ordersstatusordersstatus" adds uso and sor → g(q) 12, shared 4
        double expected = (0.30 * (1 / 1.1) + 0.05 * (4.0 / 12)) / 0.35;
        assertEquals(expected, nameOnly("orders", "orders status orders status"), EPSILON);
    }

    @Test
    void queriesOfMoreThanSixtyFourTokensKeepEveryToken() {
        // w0..w68 miss, "orders" (token 70, beyond the first 64-bit mask word) is exact:
        // 1 / (1 + 69 × .1); g(q) 195 distinct, shared 4
        String query = IntStream.range(0, 69).mapToObj(i -> "w" + i).collect(Collectors.joining(" ")) + " orders";
        double expected = (0.30 * (1 / 7.9) + 0.05 * (4.0 / 195)) / 0.35;
        SearchHit hit = only(List.of(handler("orders", "")), query);
        assertEquals(expected, hit.rawScore(), EPSILON);
        assertEquals(12, hit.relevanceScore());
    }

    // --- components dropped and rescaled -------------------------------------------------------

    @Test
    void emptyComponentsAreDroppedAndTheRestRescaled() {
        // name {forecast}: rain miss, forecast exact → 1 / 1.1; description {daily numbers}: 0
        // handler: statement ignored, no inputs → active name, description, grams: .30 + .14 + .05
        //   grams of "forecastdailynumbers" 18, g(q) rai ain inf nfo for ore rec eca cas ast 10, shared 6
        SearchHit handlerHit = only(List.of(handlerWithStatement("forecast", "Daily numbers", "SELECT rain")),
                "rain forecast");
        double handlerExpected = (0.30 * (1 / 1.1) + 0.05 * (6.0 / 22)) / (0.30 + 0.14 + 0.05);
        assertEquals(handlerExpected, handlerHit.rawScore(), EPSILON);
        assertEquals(59, handlerHit.relevanceScore());

        // database tool: statement {select 1} is present (scores 0 but keeps its weight) → .74
        //   grams of "forecastdailynumbersselect1" 25, shared 6 → 6 / 29
        SearchHit dbHit = only(List.of(db("forecast", "Daily numbers", "SELECT 1")), "rain forecast");
        double dbExpected = (0.30 * (1 / 1.1) + 0.05 * (6.0 / 29)) / (0.30 + 0.25 + 0.14 + 0.05);
        assertEquals(dbExpected, dbHit.rawScore(), EPSILON);
        assertEquals(39, dbHit.relevanceScore());
    }

    @Test
    void handlerStatementIsNeverMatched() {
        // Its statement holds the phrase, but a handler tool's statement is ignored: nothing matches.
        ToolDef tool = handlerWithStatement("list-support", "Support queue", "SELECT * FROM open_tickets",
                input("team", InputType.STRING, "team slug"));
        assertEquals(List.of(), new SearchIndex(List.of(tool), 10).search("open tickets"));
    }

    @Test
    void toolWithNoTextIsNeverAHit() {
        assertEquals(List.of(), new SearchIndex(List.of(handler("--", "")), 10).search("anything"));
    }

    // --- phrase bonus ----------------------------------------------------------------------------

    @Test
    void phraseInNameWinsOverStatementAndDescription() {
        // all three hold "open tickets"; only the name's +.10 applies
        // name 1, statement {select from open tickets} 1, input names {team} 0, description 1,
        // input descriptions {team slug} 0; g(q) 9, g(t) 36, shared 9
        SearchHit hit = only(List.of(db("open-tickets", "Open tickets by team", "SELECT * FROM open_tickets",
                input("team", InputType.STRING, "team slug"))), "open tickets");
        assertEquals(0.30 + 0.25 + 0.14 + 0.05 * (9.0 / 36) + 0.10, hit.rawScore(), EPSILON);
        assertEquals(80, hit.relevanceScore());
    }

    @Test
    void phraseInStatementWinsOverDescription() {
        // g(t) 49, shared 9; +.08 only
        SearchHit hit = only(List.of(db("list-support", "Open tickets per agent", "SELECT * FROM open_tickets",
                input("team", InputType.STRING, "team slug"))), "open tickets");
        assertEquals(0.25 + 0.14 + 0.05 * (9.0 / 49) + 0.08, hit.rawScore(), EPSILON);
        assertEquals(48, hit.relevanceScore());
    }

    @Test
    void phraseInDescriptionOnly() {
        // g(t) 48, shared 9; +.03
        SearchHit hit = only(List.of(db("list-support", "All open tickets", "SELECT * FROM queue",
                input("team", InputType.STRING, "team slug"))), "open tickets");
        assertEquals(0.14 + 0.05 * (9.0 / 48) + 0.03, hit.rawScore(), EPSILON);
        assertEquals(19, hit.relevanceScore());
    }

    @Test
    void phraseMustBeContiguous() {
        // tokens all present in the name, in the other order: coverage 1, no bonus
        // name {tickets open}; handler, description "": active name, grams; g(q) 9, g(t) 9, shared 7
        double expected = (0.30 * 1 + 0.05 * (7.0 / 11)) / 0.35;
        assertEquals(expected, only(List.of(handler("tickets-open", "")), "open tickets").rawScore(), EPSILON);
    }

    @Test
    void scoreIsCappedAtOne() {
        // uncapped this is 1 + .10
        SearchHit hit = only(List.of(handler("orders", "")), "orders");
        assertEquals(1.0, hit.rawScore(), 0.0);
        assertEquals(100, hit.relevanceScore());
    }

    // --- ordering, limit, blank queries -----------------------------------------------------------

    @Test
    void equalScoresAreOrderedByName() {
        // each: name {tool x} 0, description 1, grams 4 / 13 (the names differ in one letter),
        // + .03 for the phrase in the description; the same raw score
        List<ToolDef> tools = List.of(handler("tool-b", "list orders"), handler("tool-c", "list orders"),
                handler("tool-a", "list orders"));
        List<SearchHit> hits = new SearchIndex(tools, 10).search("orders");
        assertEquals(List.of("tool-a", "tool-b", "tool-c"), names(hits));
        assertEquals(hits.get(0).rawScore(), hits.get(2).rawScore(), 0.0);
        assertEquals((0.14 + 0.05 * (4.0 / 13)) / 0.49 + 0.03, hits.get(0).rawScore(), EPSILON);
        assertEquals(35, hits.get(0).relevanceScore());
    }

    @Test
    void higherScoreComesFirstWhateverTheName() {
        List<ToolDef> tools = List.of(handler("a-list", "list orders"), handler("z-orders", "list orders"));
        assertEquals(List.of("z-orders", "a-list"), names(new SearchIndex(tools, 10).search("orders")));
    }

    @Test
    void resultsAreCutToTheLimit() {
        List<ToolDef> tools = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            tools.add(handler(String.format("orders-%02d", i), "list orders"));
        }
        List<SearchHit> hits = new SearchIndex(tools, 4).search("orders");
        assertEquals(List.of("orders-00", "orders-01", "orders-02", "orders-03"), names(hits));
        assertEquals(10, new SearchIndex(tools, 0).search("orders").size(), "non-positive limit → default 10");
        assertEquals(15, new SearchIndex(tools, 100).search("orders").size());
    }

    @Test
    void limitKeepsTheBestNotTheFirst() {
        List<ToolDef> tools = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            tools.add(handler("misc-" + i, "orders"));
        }
        tools.add(handler("orders", "orders"));
        List<SearchHit> hits = new SearchIndex(tools, 3).search("orders");
        assertEquals(3, hits.size());
        assertEquals("orders", hits.get(0).name());
        assertTrue(hits.get(0).rawScore() > hits.get(1).rawScore());
    }

    @Test
    void blankQueriesFindNothing() {
        SearchIndex index = new SearchIndex(List.of(GET_ORDERS), 10);
        assertEquals(List.of(), index.search(""));
        assertEquals(List.of(), index.search("   "));
        assertEquals(List.of(), index.search("?! -- *"));
        assertEquals(List.of(), index.search(null));
    }

    @Test
    void emptyIndexFindsNothing() {
        assertEquals(List.of(), new SearchIndex(List.of(), 10).search("orders"));
    }

    @Test
    void unrelatedToolsAreDropped() {
        List<ToolDef> tools = List.of(GET_ORDERS, handler("weather", defaultDescription("weather")));
        assertEquals(List.of("get-orders"), names(new SearchIndex(tools, 10).search("orders")));
    }

    @Test
    void relevanceScoreRoundsHalfAwayFromZeroAndClamps() {
        assertEquals(1, SearchIndex.relevanceScore(0.0));
        assertEquals(1, SearchIndex.relevanceScore(0.5 / 99 - 1e-9));
        assertEquals(2, SearchIndex.relevanceScore(0.5 / 99 + 1e-9));
        assertEquals(88, SearchIndex.relevanceScore(86.5 / 99 + 1e-12));
        assertEquals(100, SearchIndex.relevanceScore(1.0));
        assertEquals(100, SearchIndex.relevanceScore(5.0));
        assertEquals(1, SearchIndex.relevanceScore(-3.0));
    }

    @Test
    void hiddenToolsNeverTakeAPlaceWithinTheLimit() {
        SearchIndex index = new SearchIndex(java.util.List.of(
                TestTools.handler("orders-admin", "Orders admin"),
                TestTools.handler("orders-list", "List orders"),
                TestTools.handler("orders-count", "Count orders")), 2);
        java.util.List<String> all = index.search("orders").stream().map(SearchHit::name).toList();
        assertEquals(2, all.size());
        java.util.List<String> visible = index.search("orders", t -> !t.name().equals("orders-admin")).stream()
                .map(SearchHit::name).toList();
        assertEquals(2, visible.size());
        assertTrue(!visible.contains("orders-admin"));
        assertEquals(java.util.List.of(), index.search("orders", t -> false));
    }
}
