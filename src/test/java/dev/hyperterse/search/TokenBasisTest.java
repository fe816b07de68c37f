package dev.hyperterse.search;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenBasisTest {

    /**
     * Token vectors of eight numbers that vary along three directions only (plus a little noise): a map onto three
     * dimensions keeps their dot products, one onto two loses the weakest direction's part.
     */
    private static List<float[]> samples(Random random, int texts) {
        float[][] directions = {
                {1, 1, 0, 0, 0, 0, 0, 0}, {0, 0, 1, -1, 0, 0, 0, 0}, {0, 0, 0, 0, 1, 1, 1, 1}};
        List<float[]> out = new ArrayList<>();
        for (int t = 0; t < texts; t++) {
            float[] tokens = new float[5 * 8];
            for (int k = 0; k < 5; k++) {
                double a = 3 * random.nextGaussian();
                double b = 2 * random.nextGaussian();
                double c = random.nextGaussian();
                for (int d = 0; d < 8; d++) {
                    tokens[k * 8 + d] = (float) (a * directions[0][d] + b * directions[1][d] + c * directions[2][d]
                            + 0.01 * random.nextGaussian());
                }
            }
            out.add(tokens);
        }
        return out;
    }

    @Test
    void aMapOntoTheDirectionsTokensVaryInKeepsTheirDotProducts() {
        Random random = new Random(7);
        List<float[]> train = samples(random, 200);
        TokenBasis three = TokenBasis.learn(List.of("m"), 8, 3, List.of(train));
        TokenBasis two = TokenBasis.learn(List.of("m"), 8, 2, List.of(train));
        float[] x = samples(random, 1).get(0);
        float[] y = samples(random, 1).get(0);
        float[] px = three.project(0, x);
        float[] py = three.project(0, y);
        assertEquals(5 * 3, px.length);
        double lostByTwo = 0;
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 5; j++) {
                double whole = SemanticRanking.dotFrom(x, i * 8, y, j * 8, 8);
                assertEquals(whole, SemanticRanking.dotFrom(px, i * 3, py, j * 3, 3), 0.05 * (1 + Math.abs(whole)),
                        "token " + i + " against " + j);
                lostByTwo += Math.abs(whole - SemanticRanking.dotFrom(two.project(0, x), i * 2, two.project(0, y), j * 2, 2));
            }
        }
        assertTrue(lostByTwo / 25 > 0.2, "two dimensions drop the third direction's part: " + lostByTwo / 25);
        // the same samples give the same map
        assertEquals(three.tag(), TokenBasis.learn(List.of("m"), 8, 3, List.of(train)).tag());
        assertNotEquals(three.tag(), two.tag());
    }

    @Test
    void readsWhatItWrites() throws IOException {
        TokenBasis basis = TokenBasis.learn(List.of("a", "b"), 8, 3,
                List.of(samples(new Random(1), 20), samples(new Random(2), 20)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        basis.write(bytes);
        TokenBasis again = TokenBasis.read(new ByteArrayInputStream(bytes.toByteArray()));
        assertEquals(basis.tag(), again.tag());
        assertEquals(List.of("a", "b"), again.models());
        float[] tokens = samples(new Random(3), 1).get(0);
        assertArrayEquals(basis.project(1, tokens), again.project(1, tokens));
        byte[] longer = java.util.Arrays.copyOf(bytes.toByteArray(), bytes.size() + 1);
        assertEquals("a token basis with more after its last map",
                assertThrows(IOException.class, () -> TokenBasis.read(new ByteArrayInputStream(longer))).getMessage());
        assertEquals("not a token basis (its first bytes)", assertThrows(IOException.class,
                () -> TokenBasis.read(new ByteArrayInputStream(new byte[16]))).getMessage());
        // a damaged header asks for no more memory than a real map takes
        ByteArrayOutputStream huge = new ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(huge)) {
            out.writeInt(0x48544231);
            out.writeInt(16);
            out.writeInt(4096);
            out.writeInt(4096);
        }
        assertEquals("a token basis of 16 models, 4096 of 4096 dimensions", assertThrows(IOException.class,
                () -> TokenBasis.read(new ByteArrayInputStream(huge.toByteArray()))).getMessage());
        byte[] notANumber = bytes.toByteArray().clone();
        int at = 16 + 2 + 1;
        notANumber[at] = (byte) 0x7f;
        notANumber[at + 1] = (byte) 0xc0;
        assertEquals("a token basis with a number that is not finite", assertThrows(IOException.class,
                () -> TokenBasis.read(new ByteArrayInputStream(notANumber))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> basis.project(0, new float[7]));
    }

    @Test
    void theJarsMapIsForTheSemanticModelsOnly() {
        // models the jar's map was not learned for read their token vectors as they are
        assertEquals(null, TokenBasis.bundledFor(List.of("words-1")));
        // the jar's is for the two models the semantic ranking's weights name, in their order
        List<String> models = List.of("all-MiniLM-L6-v2-q-22972370", "bge-small-en-v1.5-q-34014426");
        TokenBasis bundled = TokenBasis.bundledFor(models);
        assertEquals(models, bundled.models());
        assertEquals(384, bundled.width());
        assertEquals(64, bundled.dims());
        assertEquals(null, TokenBasis.bundledFor(List.of(models.get(1), models.get(0))));
        // the semantic ranking's weights were learned with token vectors mapped by this very map
        assertEquals(bundled.tag(), LearnedOrder.bundledSemantic().tokenBasis());
    }
}
