package dev.hyperterse.search;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * How closely a request's words find a match in a tool's, word by word: for each word of the request
 * the closest word of the tool by the static table (the cosine of their token vectors), rather than
 * the cosine of the two texts' pooled vectors, which a long description dilutes and in which one
 * matching word among many counts little. Read by the learned order for the tools it puts in order
 * ({@link LearnedOrder}), a few dozen a search: each word pair is a dot product of the table's bytes.
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

    /** A request as read here: its distinct content tokens and their weights. */
    record Query(int[] tokens, double[] weights, double total) {}

    /** Reads a request's tokens, each weighing {@code weight} of its id (null: 1). */
    Query read(int[] ids, IntToDoubleFunction weight) {
        int[] tokens = content(ids);
        double[] weights = new double[tokens.length];
        double total = 0;
        for (int i = 0; i < tokens.length; i++) {
            weights[i] = weight == null ? 1 : weight.applyAsDouble(tokens[i]);
            total += weights[i];
        }
        return new Query(tokens, weights, total);
    }

    /**
     * The readings of {@code tool} for {@code q}, over the request's words, each by its closeness to the
     * tool's closest word (the cosine of their vectors, 1 for the same token): its mean, weighted and
     * plain; the weighted share of the request's words with a near word in the tool's ({@link #NEAR}),
     * and with the same token ({@link #SAME}). All 0 for a request with no word that says something.
     */
    double[] features(Query q, int tool) {
        double[] out = new double[COUNT];
        if (q.tokens().length == 0 || q.total() <= 0) {
            return out;
        }
        int[] words = text[tool];
        double weighted = 0;
        double plain = 0;
        double near = 0;
        double same = 0;
        for (int i = 0; i < q.tokens().length; i++) {
            int token = q.tokens()[i];
            double best = 0;
            for (int w : words) {
                best = Math.max(best, w == token ? 1 : table.tokenCosine(token, w));
            }
            double w = q.weights()[i];
            weighted += w * best;
            plain += best;
            near += best >= NEAR ? w : 0;
            same += best >= SAME ? w : 0;
        }
        out[0] = weighted / q.total();
        out[1] = plain / q.tokens().length;
        out[2] = near / q.total();
        out[3] = same / q.total();
        return out;
    }

    /** The distinct content tokens among {@code ids}, ascending. */
    private int[] content(int[] ids) {
        return Arrays.stream(ids).filter(table::contentToken).distinct().sorted().toArray();
    }
}
