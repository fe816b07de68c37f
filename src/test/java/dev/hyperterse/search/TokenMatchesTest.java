package dev.hyperterse.search;

import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static dev.hyperterse.search.TestTools.handler;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenMatchesTest {

    private static final StaticEmbedder TABLE = StaticEmbedder.bundled();
    private static final ToolDef[] TOOLS = {
            handler("delete_file", "Delete a file from the disk"),
            handler("list_users", "List the users of the team"),
            handler("rotate_key", "Rotate the signing key")};
    private static final TokenMatches MATCHES = new TokenMatches(TABLE,
            Arrays.stream(TOOLS).map(t -> TABLE.tokenIds(SemanticRanking.text(t))).toArray(int[][]::new));

    private static double cosine(int a, int b) {
        float[] x = new float[TABLE.dimensions()];
        float[] y = new float[TABLE.dimensions()];
        TABLE.unitTokenVector(a, x);
        TABLE.unitTokenVector(b, y);
        return SemanticRanking.dot(x, y, 0, x.length);
    }

    private static double[] features(String request, int tool) {
        return MATCHES.features(MATCHES.read(TABLE.tokenIds(request), null), tool);
    }

    @Test
    void eachRequestWordIsReadByTheToolsClosestWord() {
        // "file" is in delete_file's text, "erase" only near its "delete"; neither is in rotate_key's
        double[] file = features("erase the file", 0);
        double[] key = features("erase the file", 2);
        assertEquals(0.5, file[3], 1e-12, "one of the two words that say something is the same token");
        assertEquals(0, key[3], 1e-12);
        assertTrue(file[0] > key[0] && file[1] > key[1], Arrays.toString(file) + " " + Arrays.toString(key));
        assertEquals(file[0], file[1], 1e-12, "unweighted, the weighted mean is the plain one");
        assertTrue(file[0] >= 0.5 + 0.5 * cosine(TABLE.tokenIds("erase")[0], TABLE.tokenIds("delete")[0]) - 1e-9,
                "erase at least as close as to delete: " + file[0]);
        assertTrue(file[2] >= file[3], "the same token is a near one too");
    }

    @Test
    void stopWordsAndMarksSayNothing() {
        assertArrayEquals(new double[TokenMatches.COUNT], features("the, of? to!", 0));
        assertArrayEquals(features("file", 0), features("the file?", 0));
        assertEquals(0, MATCHES.read(TABLE.tokenIds("is it the one?"), null).tokens().length - 1,
                "\"one\" says something, the rest does not");
    }

    @Test
    void manyToolsAtOnceReadAsEachAlone() {
        TokenMatches.Query q = MATCHES.read(TABLE.tokenIds("erase the users' key file"), id -> 1 + id % 3);
        double[][] all = MATCHES.features(q, new int[] {2, 0, 1, 9}, 3);
        assertEquals(3, all.length, "only the first three asked for");
        assertArrayEquals(MATCHES.features(q, 2), all[0]);
        assertArrayEquals(MATCHES.features(q, 0), all[1]);
        assertArrayEquals(MATCHES.features(q, 1), all[2]);
        // and as the words read one by one say: each request word's closest word in delete_file's text
        int[] text = TABLE.tokenIds(SemanticRanking.text(TOOLS[0]));
        double weighted = 0;
        double plain = 0;
        double near = 0;
        double same = 0;
        for (int i = 0; i < q.tokens().length; i++) {
            double best = 0;
            for (int t : text) {
                if (TABLE.contentToken(t)) {
                    best = Math.max(best, t == q.tokens()[i] ? 1 : cosine(q.tokens()[i], t));
                }
            }
            weighted += q.weights()[i] * best;
            plain += best;
            near += best >= TokenMatches.NEAR ? q.weights()[i] : 0;
            same += best >= TokenMatches.SAME ? q.weights()[i] : 0;
        }
        assertArrayEquals(new double[] {weighted / q.total(), plain / q.tokens().length, near / q.total(),
                same / q.total()}, all[1], 1e-9);
    }

    @Test
    void aLongRequestIsReadByItsFirstWords() {
        StringBuilder request = new StringBuilder();
        for (int i = 1; i <= 200; i++) {
            request.append(i).append(' ');
        }
        TokenMatches.Query q = MATCHES.read(TABLE.tokenIds("file " + request), null);
        assertEquals(TokenMatches.MAX_WORDS, q.tokens().length);
        assertTrue(Arrays.stream(q.tokens()).anyMatch(t -> t == TABLE.tokenIds("file")[0]), "the first word kept");
    }

    @Test
    void aWordWeighsAsTheWeightSays() {
        int file = TABLE.tokenIds("file")[0];
        TokenMatches.Query q = MATCHES.read(TABLE.tokenIds("erase the file"), id -> id == file ? 3 : 1);
        assertEquals(0.75, MATCHES.features(q, 0)[3], 1e-12);
        assertEquals(features("erase the file", 0)[1], MATCHES.features(q, 0)[1], 1e-12, "the plain mean ignores weights");
    }

    @Test
    void aTokensUnitVectorHasLengthOne() {
        int key = TABLE.tokenIds("key")[0];
        assertEquals(1, cosine(key, key), 1e-6);
        int users = TABLE.tokenIds("users")[0];
        assertEquals(cosine(key, users), cosine(users, key), 1e-6);
        assertTrue(cosine(key, users) < 0.9);
    }
}
