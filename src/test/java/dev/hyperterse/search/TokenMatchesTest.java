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
        assertTrue(file[0] >= 0.5 + 0.5 * TABLE.tokenCosine(TABLE.tokenIds("erase")[0], TABLE.tokenIds("delete")[0]) - 1e-9,
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
    void aWordWeighsAsTheWeightSays() {
        int file = TABLE.tokenIds("file")[0];
        TokenMatches.Query q = MATCHES.read(TABLE.tokenIds("erase the file"), id -> id == file ? 3 : 1);
        assertEquals(0.75, MATCHES.features(q, 0)[3], 1e-12);
        assertEquals(features("erase the file", 0)[1], MATCHES.features(q, 0)[1], 1e-12, "the plain mean ignores weights");
    }

    @Test
    void aTokensCosineWithItselfIsOne() {
        int key = TABLE.tokenIds("key")[0];
        assertEquals(1, TABLE.tokenCosine(key, key), 1e-6);
        int users = TABLE.tokenIds("users")[0];
        assertEquals(TABLE.tokenCosine(key, users), TABLE.tokenCosine(users, key), 1e-12);
        assertTrue(TABLE.tokenCosine(key, users) < 0.9);
    }
}
