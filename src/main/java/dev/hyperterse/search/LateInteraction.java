package dev.hyperterse.search;

/**
 * The token vectors each model gives a tool's texts ({@link LearnedOrder#TOKEN_TEXTS}: its lead and its whole
 * text), read against a request's token by token: a model's vector of a whole text averages its words, so "make a
 * new branch" and the leads "Create a branch" and "Delete a branch" come out nearly as close; matched token by
 * token, "make" and "new" find "create" closer than "delete", and "who can push" finds an input's "permission" a
 * whole text's mean has diluted. Per model and text two readings ({@link LearnedOrder#TOKEN_READINGS}): the mean
 * over the request's tokens of each one's best match among the text's, and the mean over the text's tokens of
 * each one's best match among the request's (how much of the text the request covers).
 *
 * <p>A text's token vectors are held a dimension at a time (per dimension, that number of each token), so that a
 * request's token is matched against all of a text's at once, in loops the JIT turns into vector instructions;
 * with a {@link TokenBasis} the vectors are mapped onto fewer dimensions first. Immutable; safe to read from
 * several threads at once.
 */
final class LateInteraction {

    /** Per tool, text and model ({@code (tool * texts + text) * models + model}): per dimension, each token's number. */
    private final float[][][] tokens;
    private final int texts;
    private final int models;
    private final int width;

    /**
     * {@code tokens[tool][text * models + model]}: that text's token vectors by that model, {@code width} numbers
     * each, one after another, {@code texts} texts a tool.
     */
    LateInteraction(float[][][] tokens, int texts, int models, int width) {
        if (texts < 1 || models < 1 || width < 1) {
            throw new IllegalArgumentException(texts + " texts, " + models + " models, " + width + " numbers a token");
        }
        this.texts = texts;
        this.models = models;
        this.width = width;
        this.tokens = new float[tokens.length * texts * models][][];
        for (int t = 0; t < tokens.length; t++) {
            if (tokens[t].length != texts * models) {
                throw new IllegalArgumentException("token vectors of " + tokens[t].length + " texts and models beside "
                        + texts + " texts of " + models + " models");
            }
            for (int i = 0; i < texts * models; i++) {
                this.tokens[t * texts * models + i] = byDimension(tokens[t][i], width);
            }
        }
    }

    /** Token vectors of {@code width} numbers, one after another, held a dimension at a time. */
    static float[][] byDimension(float[] tokens, int width) {
        if (tokens.length % width != 0) {
            throw new IllegalArgumentException(tokens.length + " numbers are no token vectors of " + width);
        }
        int n = tokens.length / width;
        float[][] out = new float[width][n];
        for (int j = 0; j < n; j++) {
            for (int d = 0; d < width; d++) {
                out[d][j] = tokens[j * width + d];
            }
        }
        return out;
    }

    /**
     * The vector {@code a} (its numbers from {@code from} on, one per column) times the matrix {@code columns} held a
     * dimension at a time, into {@code out}: {@code out[j]} is the sum over d of {@code a[from + d] * columns[d][j]}.
     * The same index on both sides of the inner loop: the JIT vectorizes it.
     */
    static void times(float[] a, int from, float[][] columns, float[] out) {
        java.util.Arrays.fill(out, 0);
        for (int d = 0; d < columns.length; d++) {
            float x = a[from + d];
            float[] column = columns[d];
            for (int j = 0; j < out.length; j++) {
                out[j] += x * column[j];
            }
        }
    }

    /** How many numbers a token vector has here. */
    int width() {
        return width;
    }

    /** The bytes held, all tools' token vectors with their arrays' headers (for the log's account of memory). */
    long bytes() {
        long n = 16L + 16L * tokens.length;
        for (float[][] text : tokens) {
            n += 16L * text.length + (long) Float.BYTES * width * (text.length == 0 ? 0 : text[0].length);
        }
        return n;
    }

    /**
     * The readings of {@code tool}'s texts against the request's token vectors {@code query} (per model, {@link
     * #width} numbers a token, mapped as the tools' are), per text and model {@link LearnedOrder#TOKEN_READINGS} of
     * them, into {@code out} from {@code at}: the lead's per model, then the whole text's.
     */
    void read(int tool, float[][] query, double[] out, int at) {
        if (query.length != models) {
            throw new IllegalArgumentException("a request's token vectors of " + query.length
                    + " models beside the tools' " + models);
        }
        for (int text = 0; text < texts; text++) {
            for (int m = 0; m < models; m++) {
                readings(query[m], tokens[(tool * texts + text) * models + m], width, out,
                        at + (text * models + m) * LearnedOrder.TOKEN_READINGS);
            }
        }
    }

    /**
     * The two readings of the token vectors {@code a} (the request's, {@code width} numbers each, one after another)
     * against {@code b} (a text's, held a dimension at a time, {@link #byDimension}): the mean of each of a's best
     * dot product with b's, then of each of b's with a's; 0 for a side with no token.
     */
    static void readings(float[] a, float[][] b, int width, double[] out, int at) {
        int na = a.length / width;
        int nb = b.length == 0 ? 0 : b[0].length;
        if (na == 0 || nb == 0) {
            out[at] = 0;
            out[at + 1] = 0;
            return;
        }
        float[] dots = new float[nb];
        float[] bestOfB = new float[nb];
        java.util.Arrays.fill(bestOfB, Float.NEGATIVE_INFINITY);
        double sumA = 0;
        for (int i = 0; i < na; i++) {
            times(a, i * width, b, dots);
            float bestOfA = Float.NEGATIVE_INFINITY;
            for (int j = 0; j < nb; j++) {
                bestOfA = Math.max(bestOfA, dots[j]);
                bestOfB[j] = Math.max(bestOfB[j], dots[j]);
            }
            sumA += bestOfA;
        }
        double sumB = 0;
        for (float c : bestOfB) {
            sumB += c;
        }
        out[at] = sumA / na;
        out[at + 1] = sumB / nb;
    }
}
