package dev.hyperterse.search;

import java.util.Arrays;

/**
 * A catalog's inverse document frequencies over the static table's token ids, smoothed and scaled
 * to 0..1 (see {@link StaticPooling}): {@code (ln((N + 1) / (df + 1)) + c) / (ln(N + 1) + c)}, so a
 * token in no tool weighs 1 and one in every tool {@code c / (ln(N + 1) + c)}. Computed from the
 * tools being indexed, once per snapshot; immutable, so safe to share between threads.
 */
final class TokenWeights {

    /** The distinct token ids of the catalog, ascending. */
    private final int[] ids;
    /** Their scaled IDF, in the same order. */
    private final float[] idf;
    /** What a token no tool contains weighs. */
    private final float unseen;

    private TokenWeights(int[] ids, float[] idf, float unseen) {
        this.ids = ids;
        this.idf = idf;
        this.unseen = unseen;
    }

    /**
     * @param documents    each tool's token ids (repeats count once)
     * @param constant     the smoothing constant c, more than 0
     * @param unseenAtMean whether a token in no tool weighs the mean over the catalog's tokens, not 1
     */
    static TokenWeights of(int[][] documents, double constant, boolean unseenAtMean) {
        int total = 0;
        for (int[] d : documents) {
            total += d.length;
        }
        // every (token, tool) pair once: sort each tool's ids, drop repeats, then count across tools
        int[] pairs = new int[total];
        int n = 0;
        for (int[] d : documents) {
            int[] sorted = d.clone();
            Arrays.sort(sorted);
            for (int i = 0; i < sorted.length; i++) {
                if (i == 0 || sorted[i] != sorted[i - 1]) {
                    pairs[n++] = sorted[i];
                }
            }
        }
        Arrays.sort(pairs, 0, n);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || pairs[i] != pairs[i - 1]) {
                distinct++;
            }
        }
        int[] ids = new int[distinct];
        float[] idf = new float[distinct];
        double tools = documents.length;
        double top = Math.log(tools + 1) + constant;
        double sum = 0;
        int k = -1;
        for (int i = 0; i < n; i++) {
            if (i == 0 || pairs[i] != pairs[i - 1]) {
                ids[++k] = pairs[i];
            }
            idf[k]++; // the document frequency, for now
        }
        for (int i = 0; i < distinct; i++) {
            idf[i] = (float) ((Math.log((tools + 1) / (idf[i] + 1)) + constant) / top);
            sum += idf[i];
        }
        float unseen = unseenAtMean && distinct > 0 ? (float) (sum / distinct) : 1f;
        return new TokenWeights(ids, idf, unseen);
    }

    /** The token's scaled IDF in this catalog, 0..1. */
    double idf(int id) {
        int at = Arrays.binarySearch(ids, id);
        return at >= 0 ? idf[at] : unseen;
    }

    /** How many distinct tokens the catalog's tools hold. */
    int size() {
        return ids.length;
    }
}
