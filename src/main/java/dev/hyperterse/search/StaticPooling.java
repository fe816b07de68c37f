package dev.hyperterse.search;

/**
 * How the {@code static} ranking pools a text's token vectors into one, beyond the table's own
 * token weights (Zipf's law over the vocabulary's ranks, fixed when the table is made).
 *
 * <p>A token's rarity within the project's own catalog: its weight is
 * {@code (1 - blend) + blend × idf}, where {@code idf = (ln((N + 1) / (df + 1)) + c) / (ln(N + 1) + c)}
 * over the catalog's N tools, df of which contain the token; 1 for a token in no tool (the rarest
 * possible), or, with {@code unseenAtMean}, the mean over the catalog's own tokens. So a word every
 * tool carries ("repository" in a GitHub server, "browser" in a browser's) moves a vector less than
 * the word that tells one tool from another. The query may take a general prior on top, from the
 * token's rank in the vocabulary ({@code a / (a + p)}, p proportional to {@code 1 / (rank + 2)}):
 * question scaffolding ("how do I", "can you please show me") weighs little without a word list.
 * And a share of the pooled vector may come from the per-dimension maximum over the tokens instead
 * of their mean, which a long text dilutes less. A share of a tool's vector may come from its lead
 * alone (its name as words, its title and its description's first sentence, see
 * {@link SemanticRanking#lead}), pooled the same way: the first sentence says what the tool is for,
 * the rest adds caveats, formats and options whose words dilute the whole.
 *
 * @param toolIdf      the IDF blend in a tool's vector, 0..1 (0: the table's weights alone)
 * @param queryIdf     the IDF blend in a query's vector, 0..1
 * @param idfConstant  c above, more than 0: the larger, the less a common token is cut
 * @param unseenAtMean whether a query token no tool contains weighs the catalog's mean IDF rather than 1
 * @param queryPrior   the query's vocabulary-rank prior's coefficient a (0: none)
 * @param maxShare     the share of the max-pooled vector in both sides' vectors, 0..1 (0: the mean alone)
 * @param leadShare    the share of the lead's vector in a tool's, 0..1: the tool's vector is
 *                     {@code unit(leadShare × lead + (1 - leadShare) × whole)}, both unit length
 *                     (0: the whole text alone)
 * @param minScore     a place scoring under this in all is no hit (the action stage may lift a
 *                     tool from under it into a place above it): weights move every score, so each
 *                     pooling has its own floor, chosen by the same rule (the highest that keeps
 *                     every dev intent's right tool in its top ten, bench/search)
 */
public record StaticPooling(double toolIdf, double queryIdf, double idfConstant, boolean unseenAtMean,
                            double queryPrior, double maxShare, double leadShare, double minScore) {

    /** The table's own weights, mean pooling: the ranking as it was before catalog weights. */
    public static final StaticPooling OFF = new StaticPooling(0, 0, 1, false, 0, 0,
            SemanticRanking.STATIC_MIN_SCORE);

    /**
     * What the {@code static} ranking uses: the catalog's IDF in full in tool vectors and at 0.75 in
     * the query's, c = 0.5, a query token no tool has at 1, no rank prior, a quarter max-pooled,
     * the lead at 0.4 of a tool's vector, a floor of 0.16. The pooling was chosen on bench/search's
     * nine real catalogs (each grid point with its own floor); chosen for each catalog on the other
     * eight instead, the grid ranked the five catalogs held out whole better than the table's mean
     * alone (MRR@10 0.640 → 0.696; bench/RESULTS.md, "Search quality"). The lead's share was chosen
     * on three sets of catalogs held out whole, before a fourth ranked with it (MRR@10 0.674 → 0.693;
     * bench/RESULTS.md, "A tool's lead sentence in its static vector, shipped"), the floor then
     * re-derived by its rule.
     */
    public static final StaticPooling DEFAULT = new StaticPooling(1, 0.75, 0.5, false, 0, 0.25, 0.4, 0.16);

    public StaticPooling {
        if (!(toolIdf >= 0 && toolIdf <= 1 && queryIdf >= 0 && queryIdf <= 1)) {
            throw new IllegalArgumentException("IDF blends must lie in 0..1");
        }
        if (!(idfConstant > 0)) {
            throw new IllegalArgumentException("the IDF constant must be more than 0");
        }
        if (!(queryPrior >= 0) || !(maxShare >= 0 && maxShare <= 1) || !(leadShare >= 0 && leadShare <= 1)
                || !(minScore >= 0 && minScore < 1)) {
            throw new IllegalArgumentException("the query prior must be 0 or more, the max and lead shares in 0..1"
                    + " and the floor in 0..1");
        }
    }

    /** A pooling whose tool vectors are the whole text's alone (no lead share). */
    public StaticPooling(double toolIdf, double queryIdf, double idfConstant, boolean unseenAtMean,
                         double queryPrior, double maxShare, double minScore) {
        this(toolIdf, queryIdf, idfConstant, unseenAtMean, queryPrior, maxShare, 0, minScore);
    }

    /** Whether the catalog's document frequencies are needed at all. */
    boolean usesIdf() {
        return toolIdf > 0 || queryIdf > 0;
    }

    /**
     * Whether pooling is exactly the table's mean over the whole text with its own weights (and its
     * floor): a tool's vector then depends on its own text alone.
     */
    boolean off() {
        return !usesIdf() && queryPrior == 0 && maxShare == 0 && leadShare == 0
                && minScore == SemanticRanking.STATIC_MIN_SCORE;
    }

    /** The same pooling with another floor. */
    public StaticPooling withMinScore(double floor) {
        return new StaticPooling(toolIdf, queryIdf, idfConstant, unseenAtMean, queryPrior, maxShare, leadShare, floor);
    }
}
