package dev.hyperterse.search;

import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.hyperterse.search.TestTools.handler;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LearnedOrderTest {

    private static final List<ToolDef> SIBLINGS = List.of(
            handler("get_wiki_page", "Get the content of a wiki page"),
            handler("list_wiki_pages", "List the pages of a wiki"),
            handler("create_wiki_page", "Create a wiki page"),
            handler("update_wiki_page", "Update the content of a wiki page"),
            handler("get_forwarding_address", "Get a forwarding address"),
            handler("list_forwarding_addresses", "List the forwarding addresses"),
            handler("create_forwarding_address", "Create a forwarding address"),
            handler("delete_forwarding_address", "Delete a forwarding address"));

    private static final ActionWeights LEARNED = ActionWeights.DEFAULT;

    private static SearchIndex index(ActionWeights weights) {
        SearchIndex index = new SearchIndex(SIBLINGS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        index.embedToolsStatically(weights);
        return index;
    }

    private static String first(SearchIndex index, String query) {
        return index.search(query).get(0).name();
    }

    @Test
    void theLearnedOrderPutsTheSiblingThatDoesWhatTheRequestAsksFirst() {
        SearchIndex served = index(LEARNED);
        SearchIndex hand = index(ActionWeights.HAND);
        // a question about a plural asks for the list; the hand weights read both as reads and put
        // the single item's tool first
        assertEquals("list_wiki_pages", first(served, "what pages does the team wiki have?"));
        assertEquals("get_wiki_page", first(hand, "what pages does the team wiki have?"));
        assertEquals("list_forwarding_addresses", first(served, "which addresses can my mail be forwarded to?"));
        assertEquals("get_forwarding_address", first(hand, "which addresses can my mail be forwarded to?"));
        // "stop" is no word the order knows as a first word: its verb is nearest delete's
        assertEquals("delete_forwarding_address", first(served, "stop forwarding mail to old@example.com"));
        assertEquals("get_forwarding_address", first(hand, "stop forwarding mail to old@example.com"));
        // and what the hand weights got right stays right
        assertEquals("get_wiki_page", first(served, "show me the onboarding wiki page"));
        assertEquals("create_wiki_page", first(served, "add a wiki page about the release process"));
        assertEquals("update_wiki_page", first(served, "rename the FAQ page"));
    }

    @Test
    void everyPlaceKeepsTheRankingsScore() {
        SearchIndex served = index(LEARNED);
        SearchIndex hand = index(ActionWeights.HAND);
        for (String q : List.of("what pages does the team wiki have?", "stop forwarding mail", "rename the FAQ page",
                "banana smoothie recipe")) {
            for (int n : new int[] {1, 3, 10}) {
                List<SearchHit> hits = served.search(q, null, n);
                assertEquals(hand.search(q, null, n).stream().map(SearchHit::rawScore).toList(),
                        hits.stream().map(SearchHit::rawScore).toList(), q);
                for (SearchHit hit : hits) {
                    assertTrue(hit.relevanceScore() >= 1 && hit.relevanceScore() <= 100, hits.toString());
                }
            }
        }
    }

    @Test
    void theFirstHitsAreTheSameHoweverManyAreAskedFor() {
        SearchIndex served = index(LEARNED);
        // the last two name no word the action stage reads (no ASCII letters): the order still reads
        // as far as it was learned to
        for (String q : List.of("what pages does the team wiki have?", "stop forwarding mail", "rename the FAQ page",
                "какие страницы есть в вики", "転送先のアドレス")) {
            List<String> twenty = served.search(q, null, 20).stream().map(SearchHit::name).toList();
            for (int n : new int[] {1, 2, 5, 10}) {
                assertEquals(twenty.subList(0, Math.min(n, twenty.size())),
                        served.search(q, null, n).stream().map(SearchHit::name).toList(), q + " " + n);
            }
        }        // a catalog described in Japanese, asked in Japanese: BM25 finds the tools, the action stage
        // reads no word, and the order still reads as far as it was learned to
        SearchIndex japanese = new SearchIndex(List.of(
                handler("get_page", "ページ を 取得 する"), handler("list_pages", "ページ の 一覧"),
                handler("update_page", "ページ を 更新 する"), handler("create_page", "ページ を 作成 する"),
                handler("delete_page", "ページ を 削除 する")), 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        japanese.embedToolsStatically(LEARNED);
        List<String> all = japanese.search("ページ", null, 20).stream().map(SearchHit::name).toList();
        assertEquals(5, all.size(), all.toString());
        for (int n : new int[] {1, 2, 3}) {
            assertEquals(all.subList(0, n), japanese.search("ページ", null, n).stream().map(SearchHit::name).toList());
        }
    }

    @Test
    void theLearnedOrderNeedsNoNumberWeight() {
        SearchIndex index = index(new ActionWeights(0.1, 0.4, 0, 0, 20, 1, false, 0.2, 0.8, 20, true));
        assertEquals("list_wiki_pages", first(index, "what pages does the team wiki have?"));
    }

    @Test
    void theShippedWeightsRead() {
        LearnedOrder order = LearnedOrder.bundled();
        double[] which = order.frame("which zzzz?", null);
        double[] unknown = order.frame("zzzz qqqq?", null);
        // "zzzz" and "qqqq" are neither first words nor held ones: the row of any other first word and
        // the question mark's
        assertEquals(2.0, java.util.Arrays.stream(unknown).sum(), 1e-12);
        // "which" is held anywhere (among the words requests most often hold) and is one of the
        // commonest first words: first, it has a row of its own
        assertEquals(3.0, java.util.Arrays.stream(which).sum(), 1e-12);
        assertEquals(3.0, java.util.Arrays.stream(order.frame("zzzz which?", null)).sum(), 1e-12);
        assertFalse(java.util.Arrays.equals(which, order.frame("zzzz which?", null)));
        assertEquals(order.frame("qqqq pages?", null).length, unknown.length);
        assertArrayEquals(unknown, order.frame("qqqq pages?", null));
        // both orders read their base features through a hidden layer too (semantic's since it reads two
        // models' cosines)
        assertEquals(8, order.hiddenUnits());
        assertEquals(8, LearnedOrder.bundledSemantic().hiddenUnits());
    }

    @Test
    void aRequestIsReadByItsFirstWordItsMarksAndItsVerb() throws IOException {
        LearnedOrder order = LearnedOrder.read(reader(weights(List.of("get", "list"), List.of("which", "show"))));
        // rows: which, show, another, digit, quote, all/every/each/any, ?, this/that/it, verb≈get, verb≈list
        assertArrayEquals(new double[] {1, 0, 0, 0, 0, 0, 1, 0, 0, 0}, order.frame("Which pages?", null));
        assertArrayEquals(new double[] {0, 1, 0, 1, 1, 1, 0, 1, 0, 1},
                order.frame("show all of \"it\" for 2024", new double[] {0.2, 0.7}));
        assertArrayEquals(new double[] {0, 0, 1, 0, 0, 0, 0, 0, 1, 0},
                order.frame("fetch the page", new double[] {0.9, 0.7}));
        assertArrayEquals(new double[] {0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, order.frame("", null));
    }

    @Test
    void aRequestIsReadByTheWordsItHoldsWherever() throws IOException {
        String text = weights(List.of("get"), List.of("which")) + "words\tnew\twho\n"
                + ("pair" + "\t0".repeat(3) + "\n").repeat(2);
        LearnedOrder order = LearnedOrder.read(reader(text));
        // rows: which, another, digit, quote, all/every/each/any, ?, this/that/it, verb≈get, new, who
        assertArrayEquals(new double[] {0, 1, 0, 0, 0, 0, 0, 0, 1, 1}, order.frame("So who made the NEW one, who?!",
                null));
        assertArrayEquals(new double[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, order.frame("which renewal", null));
        // a row per held word too, and each listed once
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                weights(List.of("get"), List.of("which")) + "words\tnew\n")));
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                weights(List.of("get"), List.of("which")) + "words\tnew\tnew\n"
                        + ("pair" + "\t0".repeat(3) + "\n").repeat(2))));
        // a word a request is never read as would be a dead row: refused, named
        for (String dead : List.of("", "New", "sign-in", "two words")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(
                    reader(weights(List.of("get"), List.of("which")) + "words\tnew\t" + dead + "\n"
                            + ("pair" + "\t0".repeat(3) + "\n").repeat(2))));
            assertTrue(refused.getMessage().contains("\"" + dead + "\""), refused.getMessage());
        }
    }

    @Test
    void aToolsKindIsItsNamesVerbPastTheWordsHalfTheCatalogCarries() throws IOException {
        LearnedOrder order = LearnedOrder.read(reader(weights(List.of("get", "list"), List.of("which"))));
        ToolDef[] tools = {handler("kubectl_get", "Get a resource"), handler("kubectl_listPods", "List pods"),
                handler("kubectl_apply", "Apply a manifest"), handler("kubectl_logs", "Logs of a pod")};
        int[] kinds = order.kinds(tools);
        // verb index << 1 | plural; 2 is "another verb"
        assertEquals(0 << 1, kinds[0]);
        assertEquals(1 << 1 | 1, kinds[1]);
        assertEquals(2 << 1, kinds[2]);
        assertEquals(2 << 1 | 1, kinds[3]);
        assertArrayEquals(new String[] {"kubectl", "list", "pods"}, LearnedOrder.nameWords("kubectl_listPods"));
    }

    @Test
    void theScoreAddsTheBaseAndThePairsOfTheRequestsRowsAndTheToolsKind() throws IOException {
        String text = "verbs\tget\nfirst\twhich\nbase\t1\t2\t0\t0\t0\t0\t0\t0\t0\n"
                + "pair\t0.5\t0.25\t0.125\n" + "pair\t0\t0\t0\n".repeat(6) + "pair\t0\t1\t0\n";
        LearnedOrder order = LearnedOrder.read(reader(text));
        double[] x = {0.5, 0.25, 0, 0, 0, 0, 0, 0, 0};
        double[] which = order.frame("which one", null);
        assertEquals(0.5 + 0.5 + 0.5, order.score(x, which, 0, null, null), 1e-12);
        assertEquals(1.0 + 0.25 + 0.125, order.score(x, which, 1 << 1 | 1, null, null), 1e-12);
        assertEquals(1.0 + 1, order.score(x, order.frame("do it", new double[] {0.3}), 1 << 1, null, null), 1e-12);
    }

    @Test
    void theBilinearFormAddsTheDotProductOfTheMappedVectors() throws IOException {
        // two dimensions, rank 1: U = (1, 2), V = (3, -1)
        LearnedOrder order = LearnedOrder.read(reader(weights(List.of("get"), List.of("which"))
                + "u\t1\nu\t2\nv\t3\nv\t-1\n"));
        assertTrue(order.mapsVectors());
        assertTrue(order.learnedWith("any table", 2));
        assertFalse(order.learnedWith("any table", 256));
        // weights without a form, and weights learned with another table
        LearnedOrder plain = LearnedOrder.read(reader(weights(List.of("get"), List.of("which"))));
        assertFalse(plain.mapsVectors());
        assertTrue(plain.learnedWith("any table", 256));
        LearnedOrder other = LearnedOrder.read(reader("table\tanother-table\n" + weights(List.of("get"),
                List.of("which"))));
        assertFalse(other.learnedWith(StaticEmbedder.bundled().model(), 256));
        assertTrue(other.learnedWith("another-table", 256));
        float[] q = order.mapQuery(new float[] {0.5f, 0.25f});
        float[] t = order.mapTool(new float[] {9, 9, 1, 2}, 2);
        assertArrayEquals(new float[] {1.0f}, q);
        assertArrayEquals(new float[] {1.0f}, t);
        double[] x = {0.5, 0, 0, 0, 0, 0, 0, 0, 0};
        double[] frame = order.frame("which", null);
        assertEquals(order.score(x, frame, 0, null, null) + 1.0, order.score(x, frame, 0, q, t), 1e-9);
        // the shipped weights map the static table's vectors
        assertTrue(LearnedOrder.bundled().learnedWith(StaticEmbedder.bundled().model(),
                StaticEmbedder.bundled().dimensions()));
        // maps of other shapes are refused
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                weights(List.of("get"), List.of("which")) + "u\t1\nu\t2\nv\t3\n")));
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                weights(List.of("get"), List.of("which")) + "u\t1\t2\nu\t2\nv\t3\nv\t1\n")));
    }

    @Test
    void aHiddenLayerAddsEachUnitsWeightTimesTheTanhOfItsBaseFeaturesSum() throws IOException {
        // two units over the nine base features: tanh(2 x0 - x1 + 0.5) weighs 3, tanh(x2 - 1) weighs -1
        String units = "hidden\t2\t-1" + "\t0".repeat(7) + "\t0.5\t3\n"
                + "hidden\t0\t0\t1" + "\t0".repeat(6) + "\t-1\t-1\n";
        String plainText = weights(List.of("get"), List.of("which"));
        LearnedOrder plain = LearnedOrder.read(reader(plainText));
        LearnedOrder order = LearnedOrder.read(reader(plainText + units));
        assertEquals(0, plain.hiddenUnits());
        assertEquals(2, order.hiddenUnits());
        double[] x = {0.5, 0.25, 0.75, 0, 0, 0, 0, 0, 0};
        double[] frame = order.frame("which", null);
        assertEquals(plain.score(x, frame, 0, null, null) + 3 * Math.tanh(1 - 0.25 + 0.5) - Math.tanh(0.75 - 1),
                order.score(x, frame, 0, null, null), 1e-12);
        // a unit with a number too few or too many (for the base weights there are) is refused, saying what it needs
        for (String unit : List.of("hidden" + "\t0".repeat(10) + "\n", "hidden" + "\t0".repeat(12) + "\n")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> LearnedOrder.read(reader(plainText + unit)));
            assertTrue(refused.getMessage().contains("11 expected (a weight per base feature, its bias, its weight in"
                    + " the score)"), refused.getMessage());
        }
        assertThrows(IOException.class, () -> LearnedOrder.read(reader(plainText + "hidden\t1\tx\n")));
        // with a model's cosine last among the base features (and the word matches before it), a unit reads it too
        String rows = "pair\t0\t0\t0\n".repeat(8);
        LearnedOrder withModel = LearnedOrder.read(reader("model\tconcepts\nverbs\tget\nfirst\twhich\nbase" + "\t0".repeat(14)
                + "\n" + rows + "hidden" + "\t0".repeat(13) + "\t2\t0\t1\n"));
        double[] y = new double[14];
        y[13] = 0.25;
        assertEquals(Math.tanh(0.5), withModel.score(y, withModel.frame("which", null), 0, null, null), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader("model\tconcepts\nverbs\tget\nfirst"
                + "\twhich\nbase" + "\t0".repeat(14) + "\n" + rows + "hidden" + "\t0".repeat(11) + "\t1\n")));
    }

    @Test
    void aModelsWeightsReadItsCosineAsTheLastBaseFeature() throws IOException {
        String rows = "pair\t0\t0\t0\n".repeat(8);
        LearnedOrder order = LearnedOrder.read(reader(
                "model\tconcepts\nverbs\tget\nfirst\twhich\nbase\t1\t0\t0\t0\t0\t0\t0\t0\t0\t2\n" + rows));
        assertEquals(List.of("concepts"), order.models());
        double[] frame = order.frame("which one", null);
        assertEquals(0.5 + 2 * 0.25, order.score(new double[] {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.25}, frame, 0, null, null),
                1e-12);
        assertEquals(List.of(), LearnedOrder.read(reader(weights(List.of("get"), List.of("which")))).models());
        // a model line with nine base weights, or ten without one, is refused
        IllegalArgumentException nine = assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                "model\tconcepts\n" + weights(List.of("get"), List.of("which")))));
        assertTrue(nine.getMessage().contains("9 base weights (9; with the word matches, 13; with the kinds of value"
                + " too, 23; one more per model's cosine and per part of the text read, 1 expected)"), nine.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                "verbs\tget\nfirst\twhich\nbase\t1\t0\t0\t0\t0\t0\t0\t0\t0\t2\n" + rows)));
    }

    @Test
    void weightsOfTwoModelsReadACosineOfEachAsTheLastBaseFeatures() throws IOException {
        String rows = "pair\t0\t0\t0\n".repeat(8);
        LearnedOrder order = LearnedOrder.read(reader(
                "model\tconcepts\tideas\nverbs\tget\nfirst\twhich\nbase\t1\t0\t0\t0\t0\t0\t0\t0\t0\t2\t-3\n" + rows));
        assertEquals(List.of("concepts", "ideas"), order.models());
        assertEquals(0.5 + 2 * 0.25 - 3 * 0.1, order.score(new double[] {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.25, 0.1},
                order.frame("which one", null), 0, null, null), 1e-12);
        // two models and one cosine's weight: refused, saying how many
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                "model\tconcepts\tideas\nverbs\tget\nfirst\twhich\nbase\t1\t0\t0\t0\t0\t0\t0\t0\t0\t2\n" + rows)));
        assertTrue(one.getMessage().contains("one more per model's cosine and per part of the text read, 2 expected"), one.getMessage());
        // a model line naming none, an empty name or one name twice
        for (String line : List.of("model", "model\t", "model\tconcepts\t", "model\tideas\tideas")) {
            IOException bad = assertThrows(IOException.class, () -> LearnedOrder.read(reader(line
                    + "\nverbs\tget\nfirst\twhich\nbase\t1\t0\t0\t0\t0\t0\t0\t0\t0\t2\t-3\n" + rows)));
            assertTrue(bad.getMessage().startsWith("line 1: model names a model or more, each once"), bad.getMessage());
        }
    }

    @Test
    void weightsMayReadEachModelsCosineOfPartsOfTheToolsTextAfterTheWholeTexts() throws IOException {
        String rows = "pair\t0\t0\t0\n".repeat(8);
        String nine = "\t1" + "\t0".repeat(8);
        // two models: the whole text's cosines (2, -3), then the name's (5, 7), then the description's (11, 13)
        LearnedOrder order = LearnedOrder.read(reader("model\tconcepts\tideas\ntexts\tname\tdescription\nverbs\tget\n"
                + "first\twhich\nbase" + nine + "\t2\t-3\t5\t7\t11\t13\n" + rows));
        assertArrayEquals(new int[] {0, 2}, order.texts());
        assertEquals(List.of("name", "lead", "description"), LearnedOrder.TEXTS);
        double[] x = {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
        assertEquals(0.5 + 2 * 0.1 - 3 * 0.2 + 5 * 0.3 + 7 * 0.4 + 11 * 0.5 + 13 * 0.6,
                order.score(x, order.frame("which one", null), 0, null, null), 1e-12);
        assertArrayEquals(new int[0], LearnedOrder.read(reader("model\tconcepts\nverbs\tget\nfirst\twhich\nbase" + nine
                + "\t2\n" + rows)).texts(), "no texts line: the whole text's cosines only");
        // a weight short: refused, saying how many
        IllegalArgumentException short1 = assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                "model\tconcepts\tideas\ntexts\tname\tdescription\nverbs\tget\nfirst\twhich\nbase" + nine
                        + "\t2\t-3\t5\t7\t11\n" + rows)));
        assertTrue(short1.getMessage().contains("one more per model's cosine and per part of the text read, 6 expected"),
                short1.getMessage());
        // parts without a model to read them
        IllegalArgumentException noModel = assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                "texts\tname\nverbs\tget\nfirst\twhich\nbase" + nine + "\t1\n" + rows)));
        assertTrue(noModel.getMessage().contains("are read by a model, and the weights name none"), noModel.getMessage());
        // an unknown part, one twice, or out of order
        for (String line : List.of("texts\ttitle", "texts\tname\tname", "texts\tdescription\tname", "texts\t", "texts")) {
            IOException bad = assertThrows(IOException.class, () -> LearnedOrder.read(reader("model\tconcepts\n" + line
                    + "\nverbs\tget\nfirst\twhich\nbase" + nine + "\t1\t1\t1\n" + rows)), line);
            assertTrue(bad.getMessage().startsWith("line 2: texts names parts of a tool's text, some of [name, lead,"
                    + " description], each once and in that order"), bad.getMessage());
        }
    }

    @Test
    void weightsMayReadTheWordMatchesAfterTheNineAndBeforeTheModelsCosine() throws IOException {
        String rows = "pair\t0\t0\t0\n".repeat(8);
        String nine = "\t1" + "\t0".repeat(8);
        LearnedOrder plain = LearnedOrder.read(reader("verbs\tget\nfirst\twhich\nbase" + nine + "\n" + rows));
        LearnedOrder matches = LearnedOrder.read(reader("verbs\tget\nfirst\twhich\nbase" + nine + "\t0\t0\t0\t3\n" + rows));
        LearnedOrder withModel = LearnedOrder.read(reader("model\tconcepts\nverbs\tget\nfirst\twhich\nbase" + nine
                + "\t0\t0\t0\t3\t2\n" + rows));
        assertFalse(plain.readsMatches());
        assertTrue(matches.readsMatches());
        assertTrue(withModel.readsMatches());
        double[] frame = matches.frame("which", null);
        // the score, then the four matches (the same token's share weighs 3), then the model's cosine (2)
        assertEquals(0.5 + 3 * 0.25, matches.score(new double[] {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.9, 0.9, 0.9, 0.25},
                frame, 0, null, null), 1e-12);
        assertEquals(0.5 + 3 * 0.25 + 2 * 0.125, withModel.score(new double[] {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0.25, 0.125}, frame, 0, null, null), 1e-12);
        // the kinds of value after the matches (a URL the request carries and the tool takes weighs 4), then
        // the model's cosine
        LearnedOrder values = LearnedOrder.read(reader("model\tconcepts\nverbs\tget\nfirst\twhich\nbase" + nine
                + "\t0\t0\t0\t3" + "\t4" + "\t0".repeat(ValueKinds.COUNT - 1) + "\t2\n" + rows));
        assertTrue(values.readsValues());
        assertFalse(withModel.readsValues());
        double[] x = new double[LearnedOrder.BASE + TokenMatches.COUNT + ValueKinds.COUNT + 1];
        x[0] = 0.5;
        x[LearnedOrder.BASE + TokenMatches.COUNT] = 1;
        x[x.length - 1] = 0.125;
        assertEquals(0.5 + 4 + 2 * 0.125, values.score(x, frame, 0, null, null), 1e-12);
        assertEquals(2, values.groups());
        assertEquals(1, withModel.groups());
        // neither nine, thirteen nor twenty-three of its own: refused
        for (String base : List.of(nine + "\t0", nine + "\t0".repeat(5), nine + "\t0".repeat(13), nine + "\t0".repeat(15))) {
            assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                    "verbs\tget\nfirst\twhich\nbase" + base + "\n" + rows)), base);
        }
        // the shipped weights, static's and semantic's, read the matches and the kinds of value
        assertTrue(LearnedOrder.bundled().readsMatches());
        assertTrue(LearnedOrder.bundledSemantic().readsMatches());
        assertTrue(LearnedOrder.bundled().readsValues());
        assertTrue(LearnedOrder.bundledSemantic().readsValues());
    }

    @Test
    void theWeightsSayHowManyPlacesTheyOrder() throws IOException {
        String weights = weights(List.of("get"), List.of("which"));
        assertEquals(LearnedOrder.DEFAULT_PLACES, LearnedOrder.read(reader(weights)).places(),
                "weights written before the places line were learned on twenty");
        assertEquals(25, LearnedOrder.read(reader("places\t25\n" + weights)).places());
        // static's shipped weights order thirty; semantic's, learned before, twenty
        assertEquals(LearnedOrder.FEW, LearnedOrder.bundled().places());
        assertEquals(LearnedOrder.DEFAULT_PLACES, LearnedOrder.bundledSemantic().places());
        for (String places : List.of("1", String.valueOf(LearnedOrder.FEW + 1), "thirty")) {
            IOException e = assertThrows(IOException.class,
                    () -> LearnedOrder.read(reader("# c\nplaces\t" + places + "\n" + weights)));
            assertTrue(e.getMessage().startsWith("line 2: places \"" + places + "\" is no whole number from 2 to "
                    + LearnedOrder.FEW), e.getMessage());
        }
    }

    @Test
    void weightsLearnedWithAnotherTableLeaveTheOrderToTheHandWeightsAndSayWhy(@TempDir Path dir) throws IOException {
        // the jar's table with one vector byte changed: another table by its hash (it samples every 97th
        // byte from the first), which the shipped weights were not learned with
        byte[] bytes;
        try (InputStream in = StaticEmbedder.class.getResourceAsStream(StaticEmbedder.RESOURCE)) {
            bytes = in.readAllBytes();
        }
        ByteBuffer header = ByteBuffer.wrap(bytes);
        int vectors = 20 + header.getInt(16) + 4 * header.getInt(8);
        bytes[vectors] ^= 1;
        Path file = dir.resolve("another-table.bin");
        Files.write(file, bytes);
        StaticEmbedder another = StaticEmbedder.fromFile(file);
        assertNotEquals(StaticEmbedder.bundled().model(), another.model());

        SearchIndex served = index(LEARNED);
        SearchIndex learned = new SearchIndex(SIBLINGS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        SearchIndex hand = new SearchIndex(SIBLINGS, 10, SearchRanking.STATIC, RankFusion.DEFAULT);
        assertNull(served.embedToolsStatically(LEARNED).handOrderBecause(), "the jar's table: its weights order");
        String why = learned.embedTools(another, null, SemanticRanking.STATIC_BM25_WEIGHT, LEARNED,
                StaticPooling.DEFAULT).handOrderBecause();
        assertEquals(LearnedOrder.RESOURCE + " was learned with the static table " + StaticEmbedder.bundled().model()
                + ", not with this ranking's " + another.model(), why);
        assertNull(hand.embedTools(another, null, SemanticRanking.STATIC_BM25_WEIGHT, ActionWeights.HAND,
                StaticPooling.DEFAULT).handOrderBecause(), "the hand weights asked for: nothing to say");
        for (String query : List.of("what pages does the team wiki have?", "make a new forwarding address",
                "remove the forwarding address for sales")) {
            assertEquals(hand.search(query), learned.search(query), query);
        }
    }

    @Test
    void theShippedSemanticWeightsReadTheBundledModelsCosine() {
        LearnedOrder order = LearnedOrder.bundledSemantic();
        assertEquals(2, order.models().size(), order.models().toString());
        assertTrue(order.models().get(0).startsWith("all-MiniLM-L6-v2-q-"), order.models().toString());
        assertTrue(order.models().get(1).startsWith("bge-small-en-v1.5-q-"), order.models().toString());
        assertTrue(order.learnedWith(StaticEmbedder.bundled().model(), StaticEmbedder.bundled().dimensions()));
        assertTrue(order.mapsVectors());
        TextEmbedder.bundled().ifPresent(model -> assertEquals(model.models(), order.models(),
                "learned with the model this build holds"));
    }

    @Test
    void malformedWeightsAreRefusedNamingTheLine() {
        IOException unknown = assertThrows(IOException.class,
                () -> LearnedOrder.read(reader("verbs\tget\nweights\t1\n")));
        assertTrue(unknown.getMessage().contains("line 2"), unknown.getMessage());
        IOException number = assertThrows(IOException.class,
                () -> LearnedOrder.read(reader("# c\nverbs\tget\nbase\t1\tx\n")));
        assertTrue(number.getMessage().contains("line 3"), number.getMessage());
        assertThrows(IOException.class, () -> LearnedOrder.read(reader("verbs\tget\n")));
        // a row per way a request is put, a weight per kind of tool
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                "verbs\tget\nfirst\twhich\nbase\t1\t0\t0\t0\t0\t0\t0\t0\t0\npair\t0\t0\t0\n")));
        String rows = "pair\t0\t0\t0\n".repeat(8);
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                "verbs\tget\nfirst\twhich\nbase\t1\t0\n" + rows)));
        // a word listed twice would shift the rows; a weight that is no number would poison every score
        assertThrows(IllegalArgumentException.class, () -> LearnedOrder.read(reader(
                weights(List.of("get"), List.of("which", "which")))));
        IOException infinite = assertThrows(IOException.class, () -> LearnedOrder.read(reader(
                "verbs\tget\nbase\t1\tInfinity\n")));
        assertTrue(infinite.getMessage().contains("line 2"), infinite.getMessage());
    }

    private static String weights(List<String> verbs, List<String> first) {
        StringBuilder s = new StringBuilder("verbs\t" + String.join("\t", verbs) + "\nfirst\t" + String.join("\t", first)
                + "\nbase\t1\t0\t0\t0\t0\t0\t0\t0\t0\n");
        String row = "pair" + "\t0".repeat(verbs.size() + 2) + "\n";
        s.append(row.repeat(first.size() + 6 + verbs.size()));
        return s.toString();
    }

    private static BufferedReader reader(String text) {
        return new BufferedReader(new StringReader(text));
    }
}
