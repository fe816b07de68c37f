package dev.hyperterse.search;

/**
 * How the {@code hybrid} ranking fuses its two orders by reciprocal rank: a tool at 1-based rank
 * r in a list gains {@code weight / (k + r)} from it. A small k lets first places count for more.
 *
 * @param k             the rank offset
 * @param bm25Weight    weight of the BM25 order (field-weighted, stemmed)
 * @param lexicalWeight weight of Hyperterse's order (names, partial words, character 3-grams)
 */
public record RankFusion(int k, double bm25Weight, double lexicalWeight) {

    /** What {@code tools.search.ranking: hybrid} uses; chosen on bench/search's dev intents. */
    public static final RankFusion DEFAULT = new RankFusion(10, 1.0, 0.1);

    public RankFusion {
        if (k < 1 || bm25Weight < 0 || lexicalWeight < 0 || bm25Weight + lexicalWeight <= 0) {
            throw new IllegalArgumentException("rank fusion needs k >= 1 and a positive weight");
        }
    }
}
