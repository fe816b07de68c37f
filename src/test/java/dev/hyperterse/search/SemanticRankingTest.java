package dev.hyperterse.search;

import dev.hyperterse.model.InputType;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.hyperterse.search.TestTools.db;
import static dev.hyperterse.search.TestTools.handler;
import static dev.hyperterse.search.TestTools.input;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SemanticRankingTest {

    /**
     * A bag-of-concepts embedder: each word counts toward the concept it names, so words that
     * share no letters (remember / store) can still be close, as with a trained model. Counts
     * its calls.
     */
    static class ConceptEmbedder implements TextEmbedder {
        private static final Map<String, Integer> CONCEPTS = Map.ofEntries(
                Map.entry("remember", 0), Map.entry("store", 0), Map.entry("save", 0), Map.entry("memory", 0),
                Map.entry("fact", 1), Map.entry("facts", 1), Map.entry("entity", 1), Map.entry("entities", 1),
                Map.entry("file", 2), Map.entry("files", 2), Map.entry("folder", 2), Map.entry("directory", 2),
                Map.entry("list", 3), Map.entry("show", 3), Map.entry("contents", 3),
                Map.entry("order", 4), Map.entry("orders", 4), Map.entry("purchase", 4),
                Map.entry("status", 5), Map.entry("state", 5),
                Map.entry("weather", 6), Map.entry("forecast", 6), Map.entry("rain", 6));
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger loads = new AtomicInteger();

        @Override
        public void load() {
            loads.incrementAndGet();
        }

        @Override
        public String model() {
            return "concepts-1";
        }

        @Override
        public float[] embed(String text) {
            calls.incrementAndGet();
            float[] v = new float[8];
            for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
                Integer concept = CONCEPTS.get(word);
                if (concept != null) {
                    v[concept] += 1;
                }
            }
            v[7] = 0.05f; // every text has a little in common, as a model's vectors do
            return v; // not unit length: the ranking normalises
        }
    }

    private static final ToolDef CREATE = handler("create_entities", "Store new entities in the memory graph",
            input("entities", InputType.STRING, "Facts to keep"));
    private static final ToolDef LIST_DIR = handler("list_directory", "Get a detailed listing of all files and directories");
    private static final ToolDef ORDERS = db("get-orders", "Returns orders by status",
            "SELECT id FROM orders WHERE status = {{ inputs.status }}",
            input("status", InputType.STRING, "Order status to match"));
    private static final ToolDef WEATHER = handler("get_weather", "Forecast for a city");
    private static final List<ToolDef> TOOLS = List.of(CREATE, LIST_DIR, ORDERS, WEATHER);

    @TempDir
    Path cache;

    private static List<String> names(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::name).toList();
    }

    @Test
    void ranksAsHybridThenByTheStaticTableUntilTheModelsVectorsAreReady() {
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        SearchIndex hybrid = new SearchIndex(TOOLS, 10, SearchRanking.HYBRID, RankFusion.DEFAULT);
        String query = "remember this for later";
        assertFalse(index.ranksByMeaning());
        assertEquals(names(hybrid.search(query)), names(index.search(query)), "lexical until ready");

        // what the server does: the static table's vectors first, then the model's
        SearchIndex table = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        table.embedToolsStatically();
        index.embedToolsStatically();
        assertTrue(index.ranksByMeaning());
        for (String q : List.of(query, "show me what is in the folder", "orders by status")) {
            assertEquals(table.search(q), index.search(q), "by the static table until the model's vectors: " + q);
        }

        SearchIndex.EmbeddedTools done = index.embedTools(new ConceptEmbedder(), cache);
        assertTrue(index.ranksByMeaning());
        assertEquals(4, done.embedded());
        assertNull(done.cacheProblem());
        assertEquals("create_entities", index.search(query).get(0).name(), "remember ~ store/memory facts");
        assertEquals("list_directory", index.search("show me what is in the folder").get(0).name());
        assertNotEquals(table.search(query), index.search(query), "the model's vectors are in the ranking now");
        // fused with the static ranking it served by until then, as with one built beside the model's
        assertFused(TOOLS, new ConceptEmbedder(), index, "list the orders by status, the files and the facts");
        assertFused(TOOLS, new ConceptEmbedder(), index, query);
    }

    /**
     * While the process stops (it still serves as it drains), the models take no more work: a search
     * ranks by the static table beside them, as it did before their vectors were ready, and does not fail.
     */
    @Test
    void whileTheProcessStopsSearchRanksByTheStaticTable() {
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        ConceptEmbedder model = new ConceptEmbedder() {
            @Override
            public float[] embed(String text) {
                if (stopping.get()) {
                    throw new TextEmbedder.Stopping();
                }
                return super.embed(text);
            }
        };
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        index.embedToolsStatically();
        index.embedTools(model, null);
        SearchIndex table = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        table.embedToolsStatically();
        String query = "remember this for later";
        assertNotEquals(table.search(query), index.search(query), "by the model while it runs");
        stopping.set(true);
        for (String q : List.of(query, "show me what is in the folder", "orders by status")) {
            assertEquals(table.search(q), index.search(q), "by the static table while the process stops: " + q);
        }
    }

    /**
     * The jar's order for {@code semantic} was learned with all-MiniLM-L6-v2's cosine; with another
     * model, the model's ranking and the static table's are fused instead.
     */
    @Test
    void aModelTheWeightsWereNotLearnedWithIsFusedWithTheStaticTable() {
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        index.embedTools(new ConceptEmbedder(), null);
        assertFused(TOOLS, new ConceptEmbedder(), index, "list the orders by status, the files and the facts");
        assertFused(TOOLS, new ConceptEmbedder(), index, "remember this for later");
    }

    /**
     * That {@code index} ranks {@code query} as the model's ranking of the tools fused with the
     * {@code static} ranking's, each asked for {@link EmbeddingFusion#DEPTH} hits, and differs from
     * the model's alone or the table's alone.
     */
    private static void assertFused(List<ToolDef> tools, TextEmbedder model, SearchIndex index, String query) {
        List<SearchHit> byModel = byModelAlone(tools, model, SemanticRanking.DEFAULT_BM25_WEIGHT, query,
                EmbeddingFusion.DEPTH);
        SearchIndex table = new SearchIndex(tools, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        table.embedToolsStatically();
        List<SearchHit> byTable = table.search(query, null, EmbeddingFusion.DEPTH);
        List<SearchHit> fused = index.search(query);
        assertEquals(EmbeddingFusion.fuse(byTable, byModel, 10), fused, query);
        assertFalse(fused.equals(byModel.subList(0, Math.min(10, byModel.size()))), "not the model's alone: " + query);
        assertFalse(fused.equals(byTable.subList(0, Math.min(10, byTable.size()))), "not the table's alone: " + query);
    }

    /** A second model for the joint embedding: a text by the letters it holds, a to h. */
    static final class LetterEmbedder implements TextEmbedder {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public String model() {
            return "letters-1";
        }

        @Override
        public float[] embed(String text) {
            calls.incrementAndGet();
            float[] v = new float[8];
            for (char c : text.toLowerCase(Locale.ROOT).toCharArray()) {
                if (c >= 'a' && c <= 'h') {
                    v[c - 'a'] += 1;
                }
            }
            return v;
        }
    }

    @Test
    void aJointRankingByItselfRunsTheFirstModelAloneOnTheQuery() {
        ToolDef[] tools = TOOLS.toArray(ToolDef[]::new);
        LetterEmbedder letters = new LetterEmbedder();
        AtomicInteger second = letters.calls;
        TextEmbedder joint = new JointEmbedder(List.of(new ConceptEmbedder(), letters));
        float[] first = joint.embedFirst("remember the files");
        float[] whole = joint.embed("remember the files");
        assertEquals(16, first.length);
        for (int d = 0; d < 16; d++) {
            assertEquals(d < 8 ? whole[d] : 0f, first[d], 1e-7f, "the first model's part as embed gives it, the rest zeros");
        }
        SemanticRanking both = SemanticRanking.build(tools, joint, null, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT).ranking();
        second.set(0);
        String query = "remember the files in that folder";
        var bm25 = new HybridRanking(TOOLS, RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
        assertFalse(both.search(query, null, 10, bm25).isEmpty());
        assertEquals(0, second.get(), "ranking by the first model's cosine runs no other model on the query");
        both.cosines(query).cosine(0, 1);
        assertEquals(1, second.get(), "the cosines an order reads run every model, once");
    }

    /**
     * Past the table's first places, the last places an order that reads the models sorts go to the
     * tools the models find nearest among those the table did not place before: a tool the table's
     * vectors and BM25 miss can still be put first. The dump the order is learned from holds the same.
     */
    @Test
    void theModelsPickTheLastPlacesTheOrderSorts() {
        assertTrue(LearnedOrder.MODEL_PICKS > 0 && LearnedOrder.MODEL_PICKS < LearnedOrder.MODEL_POOL);
        Forty forty = Forty.ranked();
        List<ToolDef> many = forty.tools();
        List<String> names = forty.names();
        SemanticRanking table = forty.table();
        SemanticRanking model = forty.model();
        for (String query : List.of("list the invoices of my account", "remove a user", "what failed in the last build",
                "zzz")) {
            var bm25 = new HybridRanking(many, RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
            SemanticRanking.ModelCosines cosine = model.cosines(query);
            List<String> byTable = rowNames(table.learnedFeatures(query, bm25, null));
            List<String> withPicks = rowNames(table.learnedFeatures(query, bm25, cosine));
            int kept = Math.min(byTable.size(), LearnedOrder.MODEL_POOL - LearnedOrder.MODEL_PICKS);
            assertEquals(byTable.subList(0, kept), withPicks.subList(0, kept), query);
            // the picks: the models' nearest of the others, each one's mean cosine at least any other's
            List<String> picks = withPicks.subList(kept, kept + LearnedOrder.MODEL_PICKS);
            double lowest = picks.stream().mapToDouble(n -> cosine.mean(names.indexOf(n))).min().orElseThrow();
            for (String other : names) {
                if (!byTable.subList(0, kept).contains(other) && !picks.contains(other)) {
                    assertTrue(cosine.mean(names.indexOf(other)) <= lowest, query + ": " + other);
                }
            }
            // the places they took follow them, in the table's order, and no tool is read twice
            List<String> after = byTable.stream().filter(n -> !byTable.subList(0, kept).contains(n) && !picks.contains(n))
                    .toList();
            assertEquals(after.subList(0, Math.min(after.size(), withPicks.size() - kept - picks.size())),
                    withPicks.subList(kept + picks.size(), withPicks.size()), query);
            assertEquals(withPicks.size(), new java.util.HashSet<>(withPicks).size(), query);
            assertEquals(Math.min(LearnedOrder.FEW, kept + picks.size() + after.size()), withPicks.size(), query);
        }
    }

    /**
     * Served, the picks are put in order with the rest (here by the model's cosine alone), the number of
     * hits and each place's score stay the table's for any limit, and a tool the caller may not see is
     * never picked.
     */
    @Test
    void theModelsPicksAreServedWithTheTablesPlaceScoresAndOnlyAmongVisibleTools() throws java.io.IOException {
        Forty forty = Forty.ranked();
        List<ToolDef> many = forty.tools();
        List<String> names = forty.names();
        SemanticRanking table = forty.table();
        SemanticRanking model = forty.model();
        SemanticRanking.Order byCosine = table.orderWith(new LetterEmbedder(), LearnedOrder.read(new java.io.BufferedReader(
                new java.io.StringReader("model\tletters-1\nverbs\tget\nfirst\twhich\nbase" + "\t0".repeat(9) + "\t1\n"
                        + "pair\t0\t0\t0\n".repeat(8))))).order();
        assertNotNull(byCosine);
        boolean pickedFirst = false;
        // the letter model reads only a to h: "a bad cafe fee" pulls it towards a tool the table placed low
        for (String query : List.of("list the invoices of my account", "delete the build alerts",
                "list the invoices: a bad cafe fee")) {
            var bm25 = new HybridRanking(many, RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
            SemanticRanking.ModelCosines cosine = model.cosines(query);
            List<String> rows = rowNames(table.learnedFeatures(query, bm25, cosine));
            List<String> byTable = rowNames(table.learnedFeatures(query, bm25, null));
            for (int limit : new int[] {10, 20, 30}) {
                List<SearchHit> plain = table.search(query, null, limit, bm25);
                List<SearchHit> served = table.search(query, null, limit, bm25, byCosine, cosine);
                assertEquals(plain.size(), served.size(), query + " @" + limit);
                for (int i = 0; i < plain.size(); i++) {
                    assertEquals(plain.get(i).rawScore(), served.get(i).rawScore(), 1e-9, query + " @" + limit);
                }
                // the twenty places the order sorts, by the model's cosine: the first hits
                List<String> expected = rows.subList(0, Math.min(rows.size(), LearnedOrder.MODEL_POOL)).stream()
                        .sorted(java.util.Comparator.comparingDouble((String n) -> -cosine.mean(names.indexOf(n)))).toList();
                assertEquals(expected.subList(0, Math.min(served.size(), expected.size())),
                        names(served).subList(0, Math.min(served.size(), expected.size())), query + " @" + limit);
            }
            String first = names(table.search(query, null, 10, bm25, byCosine, cosine)).get(0);
            pickedFirst |= !byTable.subList(0, LearnedOrder.MODEL_POOL - LearnedOrder.MODEL_PICKS).contains(first);
            // hidden from the caller: never picked, never served
            String hiddenPick = rows.get(LearnedOrder.MODEL_POOL - LearnedOrder.MODEL_PICKS);
            List<String> seen = names(table.search(query, tool -> !tool.name().equals(hiddenPick), 30, bm25, byCosine, cosine));
            assertFalse(seen.contains(hiddenPick), query);
        }
        assertTrue(pickedFirst, "a tool only the models picked comes first for some request");
        // two models: the mean of their cosines
        TextEmbedder joint = new JointEmbedder(List.of(new ConceptEmbedder(), new LetterEmbedder()));
        SemanticRanking both = SemanticRanking.build(many.toArray(ToolDef[]::new), joint, null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT).ranking();
        SemanticRanking.ModelCosines two = both.cosines("remember the facts of the failed builds");
        double[] means = two.means();
        assertEquals(many.size(), means.length);
        for (int t = 0; t < many.size(); t++) {
            assertEquals((two.cosine(t, 0) + two.cosine(t, 1)) / 2, two.mean(t), 1e-6);
            // all at once, a dimension at a time: the same
            assertEquals(two.mean(t), means[t], 1e-6);
        }
    }

    /**
     * Forty tools, four actions on each of ten objects (more than the places an order sorts), ranked by the
     * static table and by the letter model.
     */
    private record Forty(List<ToolDef> tools, List<String> names, SemanticRanking table, SemanticRanking model) {
        static Forty ranked() {
            java.util.ArrayList<ToolDef> many = new java.util.ArrayList<>();
            for (String thing : List.of("invoices", "users", "tickets", "projects", "labels", "comments", "branches",
                    "releases", "builds", "alerts")) {
                for (String verb : List.of("list", "create", "delete", "update")) {
                    many.add(handler(verb + "_" + thing, verb + " the " + thing + " of an account"));
                }
            }
            ToolDef[] tools = many.toArray(ToolDef[]::new);
            return new Forty(List.copyOf(many), many.stream().map(ToolDef::name).toList(),
                    SemanticRanking.build(tools, StaticEmbedder.bundled(), null,
                            SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT).ranking(),
                    SemanticRanking.build(tools, new LetterEmbedder(), null,
                            SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT).ranking());
        }
    }

    private static List<String> rowNames(String rows) {
        return java.util.Arrays.stream(rows.split("\n")).skip(1).map(r -> r.split("\t")[0]).toList();
    }

    @Test
    void twoModelsReadTogetherLendTheOrderACosineEach() throws java.io.IOException {
        ToolDef[] tools = TOOLS.toArray(ToolDef[]::new);
        TextEmbedder joint = new JointEmbedder(List.of(new ConceptEmbedder(), new LetterEmbedder()));
        assertEquals("concepts-1 + letters-1", joint.model());
        assertEquals(List.of("concepts-1", "letters-1"), joint.models());
        float[] v = joint.embed("remember the files");
        assertEquals(16, v.length);
        assertEquals(1.0, SemanticRanking.dot(v, v, 0, v.length), 1e-6, "unit length");
        SemanticRanking both = SemanticRanking.build(tools, joint, null, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT).ranking();
        SemanticRanking concepts = SemanticRanking.build(tools, new ConceptEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT).ranking();
        SemanticRanking letters = SemanticRanking.build(tools, new LetterEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT).ranking();
        // "run" holds none of the letters a to h: the second model's part is all zeros, the first's cosine intact
        for (String query : List.of("remember the files in that folder", "the state of my orders", "run")) {
            // ranking by itself, the joint ranking ranks by the first model's cosine, as that model alone does
            var bm25 = new HybridRanking(TOOLS, RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
            List<SearchHit> own = both.search(query, null, 10, bm25);
            List<SearchHit> first = concepts.search(query, null, 10, bm25);
            assertEquals(names(first), names(own), query);
            for (int h = 0; h < own.size(); h++) {
                assertEquals(first.get(h).rawScore(), own.get(h).rawScore(), 1e-5, query);
            }
            SemanticRanking.ModelCosines each = both.cosines(query);
            assertEquals(2, each.models());
            for (int t = 0; t < tools.length; t++) {
                assertEquals(concepts.cosines(query).cosine(t, 0), each.cosine(t, 0), 1e-5, query);
                assertEquals(letters.cosines(query).cosine(t, 0), each.cosine(t, 1), 1e-5, query);
            }
        }
        // an order learned with both models' cosines orders the table's best tools with both read
        SemanticRanking table = SemanticRanking.build(tools, StaticEmbedder.bundled(), null,
                SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT).ranking();
        LearnedOrder weights = LearnedOrder.read(new java.io.BufferedReader(new java.io.StringReader(
                "model\tconcepts-1\tletters-1\nverbs\tget\nfirst\twhich\nbase" + "\t0".repeat(9) + "\t1\t0.5\n"
                        + "pair\t0\t0\t0\n".repeat(8))));
        SemanticRanking.Order order = table.orderWith(joint, weights).order();
        assertNotNull(order);
        assertEquals("the order's weights were learned with the models [concepts-1, letters-1], not [concepts-1]",
                table.orderWith(new ConceptEmbedder(), weights).problem());
        String query = "remember the files in that folder";
        var bm25 = new HybridRanking(TOOLS, RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
        SemanticRanking.ModelCosines cosine = both.cosines(query);
        List<String> names = TOOLS.stream().map(ToolDef::name).toList();
        List<String> rows = List.of(table.learnedFeatures(query, bm25, cosine).split("\n"));
        assertEquals(1 + LearnedOrder.BASE + TokenMatches.COUNT + ValueKinds.COUNT + 2 * (1 + LearnedOrder.TEXTS.size())
                        + StaticEmbedder.bundled().dimensions(), rows.get(0).split("\t", -1).length,
                "the query's line: an empty field per feature, a cosine per model of the whole text and of each part");
        // a tool's line: the features end with each model's cosine, then each part's cosine by each model
        String[] firstTool = rows.get(1).split("\t");
        int whole = 1 + LearnedOrder.BASE + TokenMatches.COUNT + ValueKinds.COUNT;
        int tool = names.indexOf(firstTool[0]);
        assertEquals(cosine.cosine(tool, 0), Double.parseDouble(firstTool[whole]), 1e-6);
        assertEquals(cosine.cosine(tool, 1), Double.parseDouble(firstTool[whole + 1]), 1e-6);
        for (int p = 0; p < LearnedOrder.TEXTS.size(); p++) {
            for (int m = 0; m < 2; m++) {
                assertEquals(cosine.partCosine(tool, p, m), Double.parseDouble(firstTool[whole + 2 + 2 * p + m]), 1e-6,
                        LearnedOrder.TEXTS.get(p) + " by model " + m);
            }
        }
        List<String> read = rows.subList(1, rows.size()).stream().map(r -> r.split("\t")[0]).toList();
        List<String> expected = read.stream().sorted(java.util.Comparator.comparingDouble((String n) ->
                -(cosine.cosine(names.indexOf(n), 0) + 0.5 * cosine.cosine(names.indexOf(n), 1)))).toList();
        List<SearchHit> plain = table.search(query, null, 10, bm25);
        assertEquals(expected.subList(0, plain.size()), names(table.search(query, null, 10, bm25, order, cosine)));
        // one model's cosines for an order that reads two: refused, not read past their end
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class,
                () -> table.search(query, null, 10, bm25, order, concepts.cosines(query)));
        assertEquals("this order reads the cosines of 2 models: 1 given", one.getMessage());
        // models whose vectors differ in length cannot be read together
        TextEmbedder narrow = new TextEmbedder() {
            @Override
            public String model() {
                return "narrow-1";
            }

            @Override
            public float[] embed(String text) {
                return new float[] {1, 0};
            }
        };
        IllegalStateException widths = assertThrows(IllegalStateException.class,
                () -> new JointEmbedder(List.of(new ConceptEmbedder(), narrow)).embed("x"));
        assertTrue(widths.getMessage().contains("concepts-1 and narrow-1 give vectors of 8 and 2 numbers"), widths.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JointEmbedder(List.of(narrow)));
    }

    @Test
    void aModelsRankingHoldsTheVectorsOfEachToolsNameLeadAndDescription() throws java.io.IOException {
        ToolDef[] tools = TOOLS.toArray(ToolDef[]::new);
        ConceptEmbedder embedder = new ConceptEmbedder();
        SemanticRanking model = SemanticRanking.build(tools, embedder, null, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT).ranking();
        assertEquals("get orders", SemanticRanking.part(ORDERS, 0));
        assertEquals("get orders. Returns orders by status", SemanticRanking.part(ORDERS, 1));
        assertEquals("Returns orders by status", SemanticRanking.part(ORDERS, 2));
        ToolDef bare = handler("purge_files", null);
        assertEquals("purge files", SemanticRanking.part(bare, 2), "no description: the name stands for it");
        String query = "show the state of my orders";
        SemanticRanking.ModelCosines cosines = model.cosines(query);
        float[] q = SemanticRanking.unit(embedder.embed(query));
        for (int t = 0; t < tools.length; t++) {
            for (int p = 0; p < LearnedOrder.TEXTS.size(); p++) {
                float[] part = SemanticRanking.unit(embedder.embed(SemanticRanking.part(tools[t], p)));
                assertEquals(SemanticRanking.dot(q, part, 0, part.length), cosines.partCosine(t, p, 0), 1e-6,
                        tools[t].name() + "'s " + LearnedOrder.TEXTS.get(p));
            }
        }
        // the table's ranking holds no parts: a model's cosines only
        SemanticRanking table = SemanticRanking.build(tools, StaticEmbedder.bundled(), null,
                SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT).ranking();
        assertThrows(IllegalStateException.class, () -> table.cosines(query).partCosine(0, 0, 0));

        // weights that read the name's cosine alone (the whole text's weighs nothing), against it: the nearest name last
        LearnedOrder byName = LearnedOrder.read(new java.io.BufferedReader(new java.io.StringReader(
                "model\tconcepts-1\ntexts\tname\nverbs\tget\nfirst\twhich\nbase" + "\t0".repeat(9) + "\t0\t-1\n"
                        + "pair\t0\t0\t0\n".repeat(8))));
        assertArrayEquals(new int[] {0}, byName.texts());
        SemanticRanking.Order order = table.orderWith(embedder, byName).order();
        assertNotNull(order);
        String many = "list the orders by status, the files and the facts";
        SemanticRanking.ModelCosines manyCosines = model.cosines(many);
        var bm25 = new HybridRanking(TOOLS, RankFusion.DEFAULT).bm25(many, HybridRanking.FUSED_DEPTH);
        List<String> names = TOOLS.stream().map(ToolDef::name).toList();
        List<String> found = names(table.search(many, null, 10, bm25, order, manyCosines));
        assertTrue(found.size() >= 3, found.toString());
        List<String> byNameCosine = found.stream().sorted(java.util.Comparator.comparingDouble(
                (String n) -> manyCosines.partCosine(names.indexOf(n), 0, 0))).toList();
        assertEquals(byNameCosine, found);
        assertNotEquals(names(table.search(many, null, 10, bm25)), found, "the table's own order puts the nearest first");
    }

    @Test
    void weightsThatReadTheModelsCosinePutTheTablesBestToolsInOrder() throws java.io.IOException {
        ToolDef[] tools = TOOLS.toArray(ToolDef[]::new);
        SemanticRanking table = SemanticRanking.build(tools, StaticEmbedder.bundled(), null,
                SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT).ranking();
        SemanticRanking model = SemanticRanking.build(tools, new ConceptEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT).ranking();
        // weights that put the table's best tools in order by the model's cosine alone
        LearnedOrder byModel = LearnedOrder.read(new java.io.BufferedReader(new java.io.StringReader(
                "model\tconcepts-1\nverbs\tget\nfirst\twhich\nbase" + "\t0".repeat(9) + "\t1\n"
                        + "pair\t0\t0\t0\n".repeat(8))));
        SemanticRanking.Order order = table.orderWith(new ConceptEmbedder(), byModel).order();
        assertNotNull(order);
        // the same, learned to order two places only: the rest stay as the table found them
        SemanticRanking.Order firstTwo = table.orderWith(new ConceptEmbedder(), LearnedOrder.read(new java.io.BufferedReader(
                new java.io.StringReader("places\t2\nmodel\tconcepts-1\nverbs\tget\nfirst\twhich\nbase" + "\t0".repeat(9)
                        + "\t1\n" + "pair\t0\t0\t0\n".repeat(8))))).order();
        assertNull(table.orderWith(new ConceptEmbedder(), byModel).problem());
        TextEmbedder other = new ConceptEmbedder() {
            @Override
            public String model() {
                return "concepts-2";
            }
        };
        // no order, and why, for the log
        SemanticRanking.ModelOrder another = table.orderWith(other, byModel);
        assertNull(another.order());
        assertEquals("the order's weights were learned with the models [concepts-1], not [concepts-2]", another.problem());
        assertNull(model.orderWith(new ConceptEmbedder(), byModel).order(), "the model's own ranking has no such order");
        SemanticRanking.ModelOrder shipped = table.orderWith(new ConceptEmbedder(), null);
        assertNull(shipped.order(), "the jar's weights: learned with all-MiniLM-L6-v2 and bge-small-en-v1.5");
        assertTrue(shipped.problem().startsWith("the order's weights were learned with the models [all-MiniLM-L6-v2-q-"),
                shipped.problem());
        SemanticRanking hand = SemanticRanking.build(tools, StaticEmbedder.bundled(), null,
                SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.HAND, StaticPooling.DEFAULT).ranking();
        assertTrue(hand.orderWith(new ConceptEmbedder(), byModel).problem().contains("no learned order"));
        assertThrows(IllegalArgumentException.class, () -> table.search("x", null, 10,
                new HybridRanking(TOOLS, RankFusion.DEFAULT).bm25("x", 10), order, null), "no cosine for an order that reads one");

        boolean moved = false;
        boolean onlyTwo = false;
        for (String query : List.of("remember the files in that folder", "remember remember the folder",
                "store the state of my orders", "list the orders by status, the files and the facts",
                "list the orders by status and the files, remember remember remember the facts",
                "the orders and their status, the files in the folder, save these facts")) {
            var bm25 = new HybridRanking(TOOLS, RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
            SemanticRanking.ModelCosines cosine = model.cosines(query);
            assertEquals(1, cosine.models());
            List<SearchHit> plain = table.search(query, null, 10, bm25);
            List<SearchHit> learned = table.search(query, null, 10, bm25, order, cosine);
            // the tools the order reads, as the rerank bench dumps them: the nine, the word matches, the kinds of
            // value, then more base features: the model's cosine of the whole text, then of each part of it
            List<String> rows = List.of(table.learnedFeatures(query, bm25, cosine).split("\n"));
            assertEquals(1 + LearnedOrder.BASE + TokenMatches.COUNT + ValueKinds.COUNT + 1 + LearnedOrder.TEXTS.size()
                            + StaticEmbedder.bundled().dimensions(),
                    rows.get(0).split("\t", -1).length, "the query's line: no name, an empty field per feature, its vector");
            List<String> names = TOOLS.stream().map(ToolDef::name).toList();
            List<String> read = rows.subList(1, rows.size()).stream().map(r -> r.split("\t")[0]).toList();
            for (String row : rows.subList(1, rows.size())) {
                String[] f = row.split("\t");
                assertEquals(cosine.cosine(names.indexOf(f[0]), 0), Double.parseDouble(f[LearnedOrder.BASE + TokenMatches.COUNT + ValueKinds.COUNT + 1]),
                        1e-6, row);
            }
            java.util.Comparator<String> modelFirst = java.util.Comparator.comparingDouble(
                    (String n) -> -cosine.cosine(names.indexOf(n), 0));
            List<String> byCosine = read.stream().sorted(modelFirst).toList();
            assertEquals(byCosine.subList(0, plain.size()), names(learned), query);
            moved |= !names(plain).equals(names(learned));
            List<String> two = new java.util.ArrayList<>(read.subList(0, 2).stream().sorted(modelFirst).toList());
            two.addAll(read.subList(2, read.size()));
            List<SearchHit> ordered = table.search(query, null, 10, bm25, firstTwo, cosine);
            assertEquals(two.subList(0, plain.size()), names(ordered), query);
            onlyTwo |= !names(ordered).equals(names(learned));
            // every place keeps the table's score
            assertEquals(plain.stream().map(SearchHit::rawScore).toList(),
                    learned.stream().map(SearchHit::rawScore).toList(), query);
        }
        assertTrue(moved, "the model's cosine moved some");
        assertTrue(onlyTwo, "an order of two places left some tool its order learned over all of them would move");
    }

    @Test
    void aSemanticIndexReadsTheRequestsVerbByTheStaticTableBesideTheModel() {
        SearchIndex semantic = new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        semantic.embedTools(new ConceptEmbedder(), null);
        SearchIndex table = new SearchIndex(TOOLS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        table.embedToolsStatically();
        String[] verbs = {"get", "create", "delete"};
        double[] cosines = semantic.learnedOrderVerbCosines("remove the old orders", verbs);
        assertNotNull(cosines);
        org.junit.jupiter.api.Assertions.assertArrayEquals(table.learnedOrderVerbCosines("remove the old orders", verbs),
                cosines);
        assertEquals(StaticEmbedder.bundled().dimensions() + 1 + LearnedOrder.BASE + TokenMatches.COUNT + ValueKinds.COUNT + 1
                        + LearnedOrder.TEXTS.size(),
                semantic.learnedOrderFeatures("remove the old orders").split("\n")[0].split("\t", -1).length,
                "the model's cosines of the whole text and of each part are features more, after the readings past the nine");
    }

    @Test
    void otherRankingsRefuseToEmbed() {
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.HYBRID, RankFusion.DEFAULT);
        assertThrows(IllegalStateException.class, () -> index.embedTools(new ConceptEmbedder(), cache));
    }

    @Test
    void aQueryCloseToNoToolFindsNothing() {
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        index.embedTools(new ConceptEmbedder(), null);
        assertEquals(List.of(), names(index.search("xylophone lessons")), "only the shared constant is alike");
        assertEquals(List.of(), index.search("   "), "nothing to search for");
        assertEquals(List.of("get_weather"), names(index.search("will it rain")));
    }

    @Test
    void bm25ShareBreaksTiesOfMeaningTowardTheToolWithTheWord() {
        ToolDef a = handler("alpha", "purchase state");
        ToolDef b = handler("beta", "order status");
        List<SearchHit> byMeaning = byModelAlone(List.of(a, b), new ConceptEmbedder(), 0, "purchase state", 10);
        assertEquals(byMeaning.get(0).rawScore(), byMeaning.get(1).rawScore(), 1e-9, "same concepts: a tie");
        assertEquals(List.of("alpha", "beta"), names(byMeaning), "a tie goes by name");

        assertEquals(List.of("beta", "alpha"), names(byModelAlone(List.of(a, b), new ConceptEmbedder(),
                SemanticRanking.DEFAULT_BM25_WEIGHT, "order status", 10)), "beta has the words");
    }

    /** The model's ranking of {@code query} with BM25's share {@code bm25Weight}, not fused with the table's. */
    private static List<SearchHit> byModelAlone(List<ToolDef> tools, TextEmbedder model, double bm25Weight,
                                                String query, int maxHits) {
        SemanticRanking alone = SemanticRanking.build(tools.toArray(ToolDef[]::new), model, null, bm25Weight,
                ActionWeights.DEFAULT).ranking();
        return alone.search(query, null, maxHits, new HybridRanking(tools, RankFusion.DEFAULT)
                .bm25(query, Math.max(HybridRanking.FUSED_DEPTH, maxHits)));
    }

    @Test
    void scoresKeepTheOneToHundredScaleAndHiddenToolsNeverShow() {
        SearchIndex index = new SearchIndex(TOOLS, 2, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        index.embedTools(new ConceptEmbedder(), null);
        List<SearchHit> hits = index.search("list the orders by status, the files and the facts");
        assertEquals(2, hits.size(), "cut to the limit");
        for (SearchHit hit : hits) {
            assertTrue(hit.relevanceScore() >= 1 && hit.relevanceScore() <= 100, hit.toString());
            assertTrue(hit.rawScore() > 0 && hit.rawScore() <= 1, hit.toString());
        }
        assertTrue(hits.get(0).rawScore() >= hits.get(1).rawScore());
        List<SearchHit> visible = index.search("list the orders by status, the files and the facts",
                t -> !t.name().equals("get-orders"));
        assertFalse(names(visible).contains("get-orders"));
        assertEquals(2, visible.size(), "a hidden tool does not use up a place");
    }

    @Test
    void unchangedToolsReuseTheirCachedVectors() throws Exception {
        ConceptEmbedder first = new ConceptEmbedder();
        new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT).embedTools(first, cache);
        // each tool's whole text and the parts a learned order reads (name, lead, description), each text once
        assertEquals(texts(TOOLS), first.calls.get());
        assertTrue(texts(TOOLS) > 4 && texts(TOOLS) <= 16, "four tools, four texts each, some alike: " + texts(TOOLS));
        assertTrue(Files.exists(cache.resolve("concepts-1.vectors")));

        ConceptEmbedder again = new ConceptEmbedder();
        SearchIndex restarted = new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        SearchIndex.EmbeddedTools done = restarted.embedTools(again, cache);
        assertEquals(0, again.calls.get(), "every vector from the cache");
        assertEquals(1, again.loads.get(), "the model is made ready for the queries all the same");
        assertEquals(4, done.reused());
        assertEquals("create_entities", restarted.search("remember this").get(0).name(), "cached vectors rank");

        ToolDef changed = handler("get_weather", "Rain forecast for a city, by the hour");
        ConceptEmbedder reload = new ConceptEmbedder();
        SearchIndex.EmbeddedTools reloaded = new SearchIndex(List.of(CREATE, LIST_DIR, ORDERS, changed), 10,
                SearchRanking.SEMANTIC, RankFusion.DEFAULT).embedTools(reload, cache);
        // its whole text (its lead too: one sentence and no inputs) and its description; its name's from the cache
        assertEquals(2, reload.calls.get(), "only the changed tool's changed texts");
        assertEquals(1, reloaded.embedded());
    }

    @Test
    void anUnreadableCacheIsReportedAndRewritten() throws Exception {
        Path file = cache.resolve("concepts-1.vectors");
        Files.write(file, new byte[]{0x48, 0x54, 0x56, 0x31, 0, 10, 'c', 'o', 'n', 'c', 'e', 'p', 't', 's', '-', '1',
                0x7f, 0x7f, 0x7f, 0x7f});
        SearchIndex index = new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        SearchIndex.EmbeddedTools done = index.embedTools(new ConceptEmbedder(), cache);
        assertNotNull(done.cacheProblem());
        assertTrue(done.cacheProblem().contains(file.toString()), done.cacheProblem());
        assertEquals(4, done.embedded());
        assertTrue(index.ranksByMeaning(), "the ranking works without the cache");

        ConceptEmbedder next = new ConceptEmbedder();
        new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT).embedTools(next, cache);
        assertEquals(0, next.calls.get(), "the file was rewritten whole");
    }

    @Test
    void anotherModelsVectorsAreNotReused() {
        new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT).embedTools(new ConceptEmbedder(), cache);
        ConceptEmbedder other = new ConceptEmbedder() {
            @Override
            public String model() {
                return "concepts-2";
            }
        };
        new SearchIndex(TOOLS, 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT).embedTools(other, cache);
        assertEquals(texts(TOOLS), other.calls.get());
    }

    /** How many distinct texts a model embeds for {@code tools}: each one's whole text and its parts. */
    private static int texts(List<ToolDef> tools) {
        return (int) tools.stream().flatMap(t -> java.util.stream.Stream.concat(java.util.stream.Stream.of(SemanticRanking.text(t)),
                java.util.stream.IntStream.range(0, LearnedOrder.TEXTS.size()).mapToObj(p -> SemanticRanking.part(t, p))))
                .distinct().count();
    }

    /** The bundled models themselves (the add-on's parts are on the test class path). */
    @Test
    void theBundledModelRelatesWordsThatShareNoLetters() {
        TextEmbedder model = TextEmbedder.bundled().orElse(null);
        Assumptions.assumeTrue(model != null, "no embedding model on the class path (the add-on's parts)");
        ToolDef files = handler("list_directory", "Get a detailed listing of all files and directories in a path");
        ToolDef weather = handler("get_forecast", "Weather forecast for a city");
        SearchIndex index = new SearchIndex(List.of(files, weather), 10, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
        index.embedTools(model, null);
        assertEquals("get_forecast", index.search("will it rain tomorrow in Paris").get(0).name());
        assertEquals("list_directory", index.search("what is inside this folder").get(0).name());
        // the jar's weights were learned with this model: the static table's best tools in their order
        ToolDef[] tools = {files, weather};
        SemanticRanking table = SemanticRanking.build(tools, StaticEmbedder.bundled(), null,
                SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT).ranking();
        SemanticRanking.Order order = table.orderWith(model, null).order();
        assertNotNull(order);
        SemanticRanking byModel = SemanticRanking.build(tools, model, null, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT).ranking();
        for (String query : List.of("will it rain tomorrow in Paris", "what is inside this folder")) {
            var bm25 = new HybridRanking(List.of(tools), RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
            assertEquals(table.search(query, null, 10, bm25, order, byModel.cosines(query)), index.search(query), query);
        }
        float[] vector = model.embed("hello");
        assertEquals(384 * model.models().size(), vector.length);
        // each model runs in a session of its own (one thread, no spinning), its vectors LangChain4j's own
        List<TextEmbedder> parts = model instanceof JointEmbedder joint ? joint.parts() : List.of(model);
        assertNull(model.degraded(), model.degraded());
        for (TextEmbedder part : parts) {
            assertTrue(((BundledEmbedder) part).runsInItsOwnSession(), part.model());
            // the vectors of LangChain4j's own model class, in its own session
            BundledEmbedder.Known known = BundledEmbedder.KNOWN.stream()
                    .filter(k -> part.model().startsWith(k.name() + "-")).findFirst().orElseThrow();
            try {
                Object stock = Class.forName(known.className()).getConstructor().newInstance();
                Object response = stock.getClass().getMethod("embed", String.class).invoke(stock, "will it rain in Paris");
                Object embedding = response.getClass().getMethod("content").invoke(response);
                float[] expected = (float[]) embedding.getClass().getMethod("vector").invoke(embedding);
                float[] own = part.embed("will it rain in Paris");
                for (int d = 0; d < expected.length; d++) {
                    assertEquals(expected[d], own[d], 1e-6, part.model());
                }
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }
}
