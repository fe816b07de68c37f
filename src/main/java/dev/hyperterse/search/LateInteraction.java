package dev.hyperterse.search;

/**
 * The token vectors each model gives a tool's lead ({@link LearnedOrder#TOKEN_TEXTS}), read against a
 * request's token by token: a model's vector of a whole text averages its words, so "make a new branch"
 * and the leads "Create a branch" and "Delete a branch" come out nearly as close; matched token by token,
 * "make" and "new" find "create" closer than "delete". Per model two readings
 * ({@link LearnedOrder#TOKEN_READINGS}): the mean over the request's tokens of each one's best cosine
 * with the lead's, and the mean over the lead's tokens of each one's best cosine with the request's
 * (how much of the lead the request covers). Immutable; safe to read from several threads at once.
 */
final class LateInteraction {

    /** Per tool and model ({@code tool * models + model}): the lead's unit token vectors, one after another. */
    private final float[][] leads;
    private final int models;
    private final int width;

    /**
     * {@code leads[tool]}: the lead's {@link TextEmbedder.TokenVectors} (all of one embedder: as many models,
     * vectors of one width).
     */
    LateInteraction(TextEmbedder.TokenVectors[] leads) {
        this.models = leads.length == 0 ? 1 : leads[0].tokens().length;
        this.width = leads.length == 0 ? 0 : leads[0].width();
        this.leads = new float[leads.length * models][];
        for (int t = 0; t < leads.length; t++) {
            if (leads[t].tokens().length != models || leads[t].width() != width) {
                throw new IllegalArgumentException("token vectors of " + leads[t].tokens().length + " models of "
                        + leads[t].width() + " numbers beside " + models + " of " + width);
            }
            for (int m = 0; m < models; m++) {
                this.leads[t * models + m] = leads[t].tokens()[m];
            }
        }
    }

    /**
     * The readings of {@code tool}'s lead against the request's token vectors {@code query} (from the same
     * models), per model {@link LearnedOrder#TOKEN_READINGS} of them, into {@code out} from {@code at}.
     */
    void read(int tool, TextEmbedder.TokenVectors query, double[] out, int at) {
        if (query.tokens().length != models || models > 0 && query.width() != width) {
            throw new IllegalArgumentException("a request's token vectors of " + query.tokens().length
                    + " models beside the tools' " + models);
        }
        for (int m = 0; m < models; m++) {
            readings(query.tokens()[m], leads[tool * models + m], width, out, at + m * LearnedOrder.TOKEN_READINGS);
        }
    }

    /**
     * The two readings of the unit token vectors {@code a} (the request's) against {@code b} (the lead's),
     * {@code width} floats each: the mean of each of a's best cosine with b's, then of each of b's with a's;
     * 0 for a side with no token.
     */
    static void readings(float[] a, float[] b, int width, double[] out, int at) {
        int na = width == 0 ? 0 : a.length / width;
        int nb = width == 0 ? 0 : b.length / width;
        if (na == 0 || nb == 0) {
            out[at] = 0;
            out[at + 1] = 0;
            return;
        }
        double[] bestOfB = new double[nb];
        java.util.Arrays.fill(bestOfB, -1);
        double sumA = 0;
        for (int i = 0; i < na; i++) {
            double bestOfA = -1;
            for (int j = 0; j < nb; j++) {
                double c = SemanticRanking.dotFrom(a, i * width, b, j * width, width);
                bestOfA = Math.max(bestOfA, c);
                bestOfB[j] = Math.max(bestOfB[j], c);
            }
            sumA += bestOfA;
        }
        double sumB = 0;
        for (double c : bestOfB) {
            sumB += c;
        }
        out[at] = sumA / na;
        out[at + 1] = sumB / nb;
    }
}
