package dev.hyperterse.search;

import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.hyperterse.search.TestTools.db;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LateInteractionTest {

    /**
     * A model whose token vectors know a few words' meanings: each word a unit vector of its concept (a word it
     * does not know, one of the last dimension), the text's vector their mean. "make" and "new" stand near
     * "create", far from "delete", which a text's mean blurs where both texts name the same thing.
     */
    static class WordsEmbedder implements TextEmbedder {
        private static final Map<String, float[]> WORDS = Map.of(
                "make", new float[] {0.8f, 0.6f, 0, 0, 0}, "new", new float[] {0.6f, 0.8f, 0, 0, 0},
                "create", new float[] {0.7f, 0.7f, 0, 0, 0}, "delete", new float[] {-0.7f, 0, 0.7f, 0, 0},
                "remove", new float[] {-0.6f, 0, 0.8f, 0, 0}, "branch", new float[] {0, 0, 0, 1, 0},
                "branches", new float[] {0, 0, 0, 1, 0});

        @Override
        public String model() {
            return "words-1";
        }

        @Override
        public float[] embed(String text) {
            return embedTokens(text).vector();
        }

        @Override
        public TokenVectors embedTokens(String text) {
            List<float[]> tokens = new ArrayList<>();
            for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
                if (!word.isEmpty()) {
                    tokens.add(SemanticRanking.unit(WORDS.getOrDefault(word, new float[] {0, 0, 0, 0, 1})));
                }
            }
            float[] mean = new float[5];
            float[] flat = new float[tokens.size() * 5];
            for (int i = 0; i < tokens.size(); i++) {
                for (int d = 0; d < 5; d++) {
                    mean[d] += tokens.get(i)[d];
                    flat[i * 5 + d] = tokens.get(i)[d];
                }
            }
            return new TokenVectors(SemanticRanking.unit(mean), new float[][] {flat});
        }
    }

    @Test
    void readsEachSidesBestMatchesOnAverage() {
        // the request's tokens: x and y; the lead's: x alone
        float[] request = {1, 0, 0, 1};
        float[] lead = {1, 0};
        double[] out = new double[3];
        LateInteraction.readings(request, LateInteraction.byDimension(lead, 2), 2, out, 1);
        assertEquals(0.5, out[1], 1e-9, "x finds x (1), y finds nothing like it (0)");
        assertEquals(1.0, out[2], 1e-9, "the lead's one token is in the request");
        LateInteraction.readings(new float[0], LateInteraction.byDimension(lead, 2), 2, out, 0);
        assertEquals(0, out[0]);
        assertEquals(0, out[1]);
    }

    @Test
    void aRequestsVerbMeetsTheRightSiblingsLead() {
        ToolDef create = db("create-branch", "Create a branch", "SELECT 1");
        ToolDef delete = db("delete-branch", "Delete a branch", "SELECT 1");
        ToolDef[] tools = {create, delete};
        SemanticRanking ranking = SemanticRanking.build(tools, new WordsEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT, true).ranking();
        assertTrue(ranking.holdsTokens());
        // what it holds: each tool's lead's and whole text's token vectors, five floats a token, held a dimension
        // at a time (an array per dimension: their headers counted too)
        long tokens = 0;
        for (ToolDef tool : tools) {
            tokens += new WordsEmbedder().embedTokens(SemanticRanking.lead(tool)).count(0)
                    + new WordsEmbedder().embedTokens(SemanticRanking.text(tool)).count(0);
        }
        long arrays = 1 + 2 * 2 + 2 * 2 * 5;
        assertEquals(tokens * 5 * Float.BYTES + 16 * arrays, ranking.tokenBytes());
        assertNull(ranking.tokenBasis(), "no basis maps this model's token vectors");
        SemanticRanking.ModelCosines cosines = ranking.cosines("make a new branch");
        assertTrue(cosines.readsTokens());
        // one model: the lead's two readings, then the whole text's
        double[] toCreate = new double[LearnedOrder.TOKEN_COLUMNS];
        double[] toDelete = new double[LearnedOrder.TOKEN_COLUMNS];
        cosines.tokenReadings(0, toCreate, 0);
        cosines.tokenReadings(1, toDelete, 0);
        assertTrue(toCreate[0] > toDelete[0] + 0.2, "the request's tokens find create's lead: " + toCreate[0]
                + " against " + toDelete[0]);
        assertTrue(toCreate[1] > toDelete[1] + 0.2, "create's lead is in the request: " + toCreate[1]
                + " against " + toDelete[1]);
        // the readings are those of the request's tokens against the lead's and the whole text's, as the model
        // gives them (no basis maps this model's)
        double[] expected = new double[4];
        float[] request = new WordsEmbedder().embedTokens("make a new branch").tokens()[0];
        LateInteraction.readings(request, LateInteraction.byDimension(new WordsEmbedder()
                .embedTokens(SemanticRanking.lead(create)).tokens()[0], 5), 5, expected, 0);
        LateInteraction.readings(request, LateInteraction.byDimension(new WordsEmbedder()
                .embedTokens(SemanticRanking.text(create)).tokens()[0], 5), 5, expected, 2);
        for (int i = 0; i < 4; i++) {
            assertEquals(expected[i], toCreate[i], 1e-6);
        }
    }

    @Test
    void theLeadsTokenVectorsAreKeptInTheCacheWithTheirTexts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        WordsEmbedder counted = new WordsEmbedder() {
            @Override
            public TokenVectors embedTokens(String text) {
                runs.incrementAndGet();
                return super.embedTokens(text);
            }
        };
        ToolDef[] tools = {db("create-branch", "Create a branch", "SELECT 1"), db("delete-branch", "Delete a branch", "SELECT 1")};
        VectorCache cache = new VectorCache(dir, counted.model());
        SemanticRanking first = SemanticRanking.build(tools, counted, cache, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true).ranking();
        int once = runs.get();
        assertTrue(once > 0);
        SemanticRanking.Built again = SemanticRanking.build(tools, counted, cache, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true);
        assertEquals(once, runs.get(), "every text and the leads' token vectors from the cache");
        assertEquals(0, again.embedded());
        assertTrue(again.ranking().holdsTokens());
        double[] cached = new double[LearnedOrder.TOKEN_COLUMNS];
        double[] fresh = new double[LearnedOrder.TOKEN_COLUMNS];
        again.ranking().cosines("make a new branch").tokenReadings(0, cached, 0);
        first.cosines("make a new branch").tokenReadings(0, fresh, 0);
        assertArrayEquals(fresh, cached, 1e-6);
    }

    @Test
    void aModelWithoutTokenVectorsHoldsNone() {
        ToolDef[] tools = {db("create-branch", "Create a branch", "SELECT 1")};
        SemanticRanking ranking = SemanticRanking.build(tools, new SemanticRankingTest.ConceptEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT, true).ranking();
        assertFalse(ranking.holdsTokens());
        SemanticRanking.ModelCosines cosines = ranking.cosines("make a branch");
        assertFalse(cosines.readsTokens());
        assertThrows(IllegalStateException.class, () -> cosines.tokenReadings(0, new double[2], 0));
        // a model that gives them, where no order reads them (the jar's, unless its weights do): none held either
        SemanticRanking unread = SemanticRanking.build(tools, new WordsEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT, false).ranking();
        assertFalse(unread.holdsTokens());
        assertEquals(LearnedOrder.semanticReadsTokens(), SemanticRanking.build(tools, new WordsEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT).ranking().holdsTokens());
    }

    @Test
    void aBasisMapsTheToolsAndTheRequestsTokenVectorsAlike(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        WordsEmbedder second = new WordsEmbedder() {
            @Override
            public String model() {
                return "words-2";
            }
        };
        TextEmbedder joint = new JointEmbedder(List.of(new WordsEmbedder(), second));
        ToolDef create = db("create-branch", "Create a branch", "SELECT 1");
        ToolDef delete = db("delete-branch", "Delete a branch, removing it", "SELECT 1");
        ToolDef[] tools = {create, delete};
        // a map of the five numbers onto three, another per model
        java.util.List<java.util.List<float[]>> samples = java.util.List.of(
                java.util.List.of(joint.embedTokens("make a new branch").tokens()[0],
                        joint.embedTokens("delete remove create").tokens()[0]),
                java.util.List.of(joint.embedTokens("new branches").tokens()[1],
                        joint.embedTokens("remove make").tokens()[1]));
        TokenBasis basis = TokenBasis.learn(joint.models(), 5, 3, samples);
        VectorCache cache = new VectorCache(dir, joint.model());
        SemanticRanking ranking = SemanticRanking.build(tools, joint, cache, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true, basis, null, SemanticRanking.TOKEN_BUDGET).ranking();
        assertEquals(basis.tag(), ranking.tokenBasis());
        String query = "make a new branch";
        double[] read = new double[2 * LearnedOrder.TOKEN_COLUMNS];
        ranking.cosines(query).tokenReadings(1, read, 0);
        // per text (lead, then whole text), per model: the request's and the text's tokens, both mapped
        double[] expected = new double[read.length];
        TextEmbedder.TokenVectors request = joint.embedTokens(query);
        for (int k = 0; k < 2; k++) {
            TextEmbedder.TokenVectors text = joint.embedTokens(SemanticRanking.tokenText(delete, k));
            for (int m = 0; m < 2; m++) {
                LateInteraction.readings(basis.project(m, request.tokens()[m]),
                        LateInteraction.byDimension(basis.project(m, text.tokens()[m]), 3), 3, expected,
                        (k * 2 + m) * LearnedOrder.TOKEN_READINGS);
            }
        }
        assertArrayEquals(expected, read, 1e-6);
        // the cache keeps the mapped token vectors under the basis's tag: a build without the basis does not take
        // them for the models' own, and reads the same as one with no cache at all
        SemanticRanking raw = SemanticRanking.build(tools, joint, cache, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true, null, null, SemanticRanking.TOKEN_BUDGET).ranking();
        SemanticRanking fresh = SemanticRanking.build(tools, joint, null, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true, null, null, SemanticRanking.TOKEN_BUDGET).ranking();
        double[] fromRaw = new double[read.length];
        double[] fromFresh = new double[read.length];
        raw.cosines(query).tokenReadings(1, fromRaw, 0);
        fresh.cosines(query).tokenReadings(1, fromFresh, 0);
        assertArrayEquals(fromFresh, fromRaw, 1e-6);
        // and the mapped ones come back from the cache as they went in
        SemanticRanking.Built again = SemanticRanking.build(tools, joint, cache, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true, basis, null, SemanticRanking.TOKEN_BUDGET);
        assertEquals(0, again.embedded());
        double[] cached = new double[read.length];
        again.ranking().cosines(query).tokenReadings(1, cached, 0);
        assertArrayEquals(read, cached, 1e-6);
        // more numbers than a ranking holds: none, and why
        SemanticRanking over = SemanticRanking.build(tools, joint, null, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true, basis, null, 10).ranking();
        assertFalse(over.holdsTokens());
        ToolDef[] bothTools = tools;
        SemanticRanking table = SemanticRanking.build(bothTools, StaticEmbedder.bundled(), null,
                SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT).ranking();
        String weights = "model\twords-1\twords-2\ntokens\tlead\ttext\nbasis\t" + basis.tag()
                + "\nverbs\tget\nfirst\twhich\nbase" + "\t0".repeat(9 + 2) + "\t0".repeat(2 * LearnedOrder.TOKEN_COLUMNS)
                + "\n" + "pair\t0\t0\t0\n".repeat(8);
        LearnedOrder order;
        try {
            order = LearnedOrder.read(new BufferedReader(new StringReader(weights)));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        String problem = table.orderWith(joint, order, over).problem();
        assertTrue(problem.startsWith("the order's weights read the token vectors of each tool's texts, which the models"
                + " do not give here (the token vectors of the tools' texts would take 0 MB, more than the 0 MB a"
                + " ranking holds)"), problem);
        assertNull(table.orderWith(joint, order, ranking).problem(), "the basis the weights name: served");
        // no tools: a ranking that holds (none of) them all the same
        assertTrue(SemanticRanking.build(new ToolDef[0], joint, null, SemanticRanking.DEFAULT_BM25_WEIGHT,
                ActionWeights.DEFAULT, StaticPooling.DEFAULT, true, basis, null, SemanticRanking.TOKEN_BUDGET).ranking().holdsTokens());
    }

    @Test
    void twoModelsGiveTheirTokenVectorsSideBySide() {
        TextEmbedder joint = new JointEmbedder(List.of(new WordsEmbedder(), new WordsEmbedder() {
            @Override
            public String model() {
                return "words-2";
            }
        }));
        TextEmbedder.TokenVectors both = joint.embedTokens("make a new branch");
        assertEquals(2, both.tokens().length);
        assertEquals(4, both.count(0));
        assertEquals(4, both.count(1));
        assertEquals(5, both.width());
        float[] whole = joint.embed("make a new branch");
        for (int d = 0; d < whole.length; d++) {
            assertEquals(whole[d], both.vector()[d], 1e-6);
        }
        // a model without token vectors: the joint embedding gives none
        assertNull(new JointEmbedder(List.of(new WordsEmbedder(), new SemanticRankingTest.ConceptEmbedder()))
                .embedTokens("make a branch"));
    }

    @Test
    void weightsThatReadTokenVectorsNeedModelsThatGiveThem() throws IOException {
        String weights = "model\twords-1\ntexts\tlead\ntokens\tlead\ttext\nverbs\tget\nfirst\twhich\nbase"
                + "\t0".repeat(9 + 2) + "\t5\t0\t0\t0\n" + "pair\t0\t0\t0\n".repeat(8);
        LearnedOrder order = LearnedOrder.read(new BufferedReader(new StringReader(weights)));
        assertTrue(order.readsTokens());
        // two readings per model past the parts' cosines: one weight short is refused, naming the count
        IllegalArgumentException shortOne = assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(
                new BufferedReader(new StringReader(weights.replace("\t5\t0\t0\t0\n", "\t5\t0\t0\n")))));
        assertTrue(shortOne.getMessage().contains("4 per model for the token vectors of [lead, text]"), shortOne.getMessage());
        IOException other = assertThrows(IOException.class, () -> LearnedOrder.read(
                new BufferedReader(new StringReader(weights.replace("tokens\tlead\ttext", "tokens\tdescription")))));
        assertEquals("line 3: tokens names the parts of a tool's text whose token vectors are read, [lead, text], not"
                + " [description]", other.getMessage());
        IllegalArgumentException noModel = assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(
                new BufferedReader(new StringReader(weights.replace("model\twords-1\ntexts\tlead\n", "")))));
        assertTrue(noModel.getMessage().contains("token vectors of a tool's texts are read by a model"), noModel.getMessage());

        ToolDef create = db("create-branch", "Create a branch", "SELECT 1");
        ToolDef delete = db("delete-branch", "Delete a branch", "SELECT 1");
        ToolDef[] tools = {delete, create};
        SemanticRanking table = SemanticRanking.build(tools, StaticEmbedder.bundled(), null,
                SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT).ranking();
        SemanticRanking model = SemanticRanking.build(tools, new WordsEmbedder(), null,
                SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT, true).ranking();
        SemanticRanking.Order byTokens = table.orderWith(new WordsEmbedder(), order, model).order();
        assertNotNull(byTokens);
        String query = "make a new branch";
        var bm25 = new HybridRanking(List.of(tools), RankFusion.DEFAULT).bm25(query, HybridRanking.FUSED_DEPTH);
        List<SearchHit> hits = table.search(query, null, 10, bm25, byTokens, model.cosines(query));
        assertEquals("create-branch", hits.get(0).name(), "the weight on the request's tokens' matches puts create first");
        // the dump's lines end with the token readings, after each part's cosine
        String[] row = table.learnedFeatures(query, bm25, model.cosines(query)).split("\n")[1].split("\t");
        int at = 1 + LearnedOrder.BASE + TokenMatches.COUNT + ValueKinds.COUNT + 1 + LearnedOrder.TEXTS.size();
        double[] readings = new double[LearnedOrder.TOKEN_COLUMNS];
        model.cosines(query).tokenReadings(List.of(tools).stream().map(ToolDef::name).toList().indexOf(row[0]),
                readings, 0);
        for (int i = 0; i < readings.length; i++) {
            assertEquals(readings[i], Double.parseDouble(row[at + i]), 1e-6);
        }
        // models that give no token vectors: no such order, and why
        SemanticRanking without = SemanticRanking.build(tools, new SemanticRankingTest.ConceptEmbedder() {
            @Override
            public String model() {
                return "words-1";
            }
        }, null, SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT, StaticPooling.DEFAULT, true).ranking();
        assertEquals("the order's weights read the token vectors of each tool's texts, which the models do not give"
                + " here (the models give no token vectors)", table.orderWith(new WordsEmbedder(), order, without).problem());
        // weights learned with token vectors mapped by a basis are not served by token vectors mapped otherwise
        LearnedOrder mapped = LearnedOrder.read(new BufferedReader(new StringReader(
                weights.replace("tokens\tlead\ttext\n", "tokens\tlead\ttext\nbasis\t0123456789ab\n"))));
        assertEquals("0123456789ab", mapped.tokenBasis());
        assertEquals("the order's weights read token vectors mapped by the basis 0123456789ab, and the models' ranking"
                + " holds them as the models give them", table.orderWith(new WordsEmbedder(), mapped, model).problem());
        assertEquals("line 4: basis names the tag of a token basis (hexadecimal digits), not x y", assertThrows(
                IOException.class, () -> LearnedOrder.read(new BufferedReader(new StringReader(
                        weights.replace("tokens\tlead\ttext\n", "tokens\tlead\ttext\nbasis\tx\ty\n")))))
                .getMessage());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> table.search(query, null, 10, bm25, byTokens, without.cosines(query)));
        assertEquals("this order reads the token vectors of each tool's texts: the models give none", refused.getMessage());
    }
}
