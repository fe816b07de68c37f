package dev.hyperterse.model;

/** {@code tools.search.ranking}: how {@code search} orders tools. */
public enum SearchRanking {
    /** Hyperterse v2.2's weighted token coverage, score for score. */
    HYPERTERSE("hyperterse"),
    /** BM25 with English stemming (Lucene), fused with Hyperterse's ranking by reciprocal rank. */
    HYBRID("hybrid"),
    /**
     * A static word embedding distilled from all-MiniLM-L6-v2 (in the server's jar) with a share of
     * BM25; ranks as {@link #HYBRID} until its table is read and the tool vectors are ready. The
     * default where the semantic ranking's add-on is not beside the jar.
     */
    STATIC("static"),
    /**
     * {@link #STATIC}'s hits, its best tools put in order with two embedding models' similarities read
     * too; the default, it needs the add-on {@code hyperterse-semantic.jar} beside the server's jar (the
     * models and ONNX Runtime), and ranks as {@link #STATIC} until the models' tool vectors are ready (as
     * {@link #HYBRID} until the static table's are).
     */
    SEMANTIC("semantic");

    private final String keyword;

    SearchRanking(String keyword) {
        this.keyword = keyword;
    }

    /** The word written in {@code .hyperterse}. */
    public String keyword() {
        return keyword;
    }

    /** The ranking a keyword names, or null for an unknown one. */
    public static SearchRanking of(String keyword) {
        for (SearchRanking ranking : values()) {
            if (ranking.keyword.equals(keyword)) {
                return ranking;
            }
        }
        return null;
    }
}
