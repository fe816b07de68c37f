package dev.hyperterse.search;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * How closely a request's words find a match in a tool's, word by word: for each word of the request
 * the closest word of the tool by the static table (the cosine of their token vectors), rather than
 * the cosine of the two texts' pooled vectors, which a long description dilutes and in which one
 * matching word among many counts little. Read by the learned order for the tools it puts in order
 * ({@link LearnedOrder}), thirty a search: each of their words is read once from the table, and each
 * word pair is a dot product of two unit vectors.
 *
 * <p>Only tokens that say something count ({@link StaticEmbedder#contentToken}): no stop words, no
 * punctuation. Immutable and safe to share between threads.
 */
final class TokenMatches {

    /** How many readings {@link #features} gives per tool. */
    static final int COUNT = 4;
    /** A request word whose closest tool word is at least this close counts as matched (a near word). */
    static final double NEAR = 0.6;
    /** A request word whose closest tool word is at least this close is the same token. */
    static final double SAME = 0.99;
    /**
     * The most words of a request read, the first that say something (a request runs to a thousand
     * characters; the search's other stages read 64 words too), so that a search costs at most this
     * many times the thirty tools' words in dot products.
     */
    static final int MAX_WORDS = 64;

    private final StaticEmbedder table;
    /** Per tool, the distinct content tokens of its whole text, ascending. */
    private final int[][] text;

    /**
     * @param textIds per tool, the token ids of the text the ranking embeds for it
     */
    TokenMatches(StaticEmbedder table, int[][] textIds) {
        this.table = table;
        this.text = new int[textIds.length][];
        for (int i = 0; i < textIds.length; i++) {
            text[i] = content(textIds[i]);
        }
    }

    /** A request as read here: its distinct content tokens, their unit vectors and their weights. */
    record Query(int[] tokens, float[][] vectors, double[] weights, double total) {}

    /**
     * Reads a request's tokens (the first {@link #MAX_WORDS} distinct ones that say something), each
     * weighing {@code weight} of its id (null: 1).
     */
    Query read(int[] ids, IntToDoubleFunction weight) {
        int[] tokens = Arrays.stream(ids).filter(table::contentToken).distinct().limit(MAX_WORDS).sorted().toArray();
        float[][] vectors = new float[tokens.length][table.dimensions()];
        double[] weights = new double[tokens.length];
        double total = 0;
        for (int i = 0; i < tokens.length; i++) {
            table.unitTokenVector(tokens[i], vectors[i]);
            weights[i] = weight == null ? 1 : weight.applyAsDouble(tokens[i]);
            total += weights[i];
        }
        return new Query(tokens, vectors, weights, total);
    }

    /**
     * The readings of {@code tool} for {@code q}, over the request's words, each by its closeness to the
     * tool's closest word (the cosine of their vectors, 1 for the same token): its mean, weighted and
     * plain; the weighted share of the request's words with a near word in the tool's ({@link #NEAR}),
     * and with the same token ({@link #SAME}). All 0 for a request with no word that says something.
     */
    double[] features(Query q, int tool) {
        return features(q, new int[] {tool}, 1)[0];
    }

    /**
     * {@link #features(Query, int)} of each of the first {@code n} of {@code tools} (indexes): each word
     * pair's closeness is computed once, however many of the tools hold the word.
     */
    double[][] features(Query q, int[] tools, int n) {
        double[][] out = new double[n][COUNT];
        int words = q.tokens().length;
        if (words == 0 || q.total() <= 0) {
            return out;
        }
        // the tools' words, each once, ascending; then each one's closeness to each of the request's words
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += text[tools[i]].length;
        }
        int[] union = new int[total];
        int at = 0;
        for (int i = 0; i < n; i++) {
            int[] own = text[tools[i]];
            System.arraycopy(own, 0, union, at, own.length);
            at += own.length;
        }
        Arrays.sort(union);
        int distinct = 0;
        for (int i = 0; i < total; i++) {
            if (distinct == 0 || union[distinct - 1] != union[i]) {
                union[distinct++] = union[i];
            }
        }
        double[] close = new double[distinct * words];
        int dims = table.dimensions();
        float[] vector = new float[dims];
        for (int j = 0; j < distinct; j++) {
            table.unitTokenVector(union[j], vector);
            for (int w = 0; w < words; w++) {
                close[j * words + w] = union[j] == q.tokens()[w] ? 1 : SemanticRanking.dot(q.vectors()[w], vector, 0, dims);
            }
        }
        double[] best = new double[words];
        for (int i = 0; i < n; i++) {
            Arrays.fill(best, 0);
            for (int token : text[tools[i]]) {
                int j = Arrays.binarySearch(union, 0, distinct, token);
                for (int w = 0; w < words; w++) {
                    best[w] = Math.max(best[w], close[j * words + w]);
                }
            }
            double weighted = 0;
            double plain = 0;
            double near = 0;
            double same = 0;
            for (int w = 0; w < words; w++) {
                double weight = q.weights()[w];
                weighted += weight * best[w];
                plain += best[w];
                near += best[w] >= NEAR ? weight : 0;
                same += best[w] >= SAME ? weight : 0;
            }
            out[i][0] = weighted / q.total();
            out[i][1] = plain / words;
            out[i][2] = near / q.total();
            out[i][3] = same / q.total();
        }
        return out;
    }

    /** The distinct content tokens among {@code ids}, ascending. */
    private int[] content(int[] ids) {
        return Arrays.stream(ids).filter(table::contentToken).distinct().sorted().toArray();
    }
}
