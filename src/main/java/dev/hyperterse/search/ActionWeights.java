package dev.hyperterse.search;

/**
 * How much the action stage moves the best tools' scores (on the rankings' 0..1 scale) by what the
 * query asks to do against what each tool does ({@link ActionStage}).
 *
 * @param mood     weight of read against write: the query's mood (a question, or a verb that reads
 *                 or changes, in −1..1) times the tool's (its read-only or destructive hint, else its
 *                 verb's, in −1..1)
 * @param verb     weight of the cosine between the query's verb and the tool's (the static table's
 *                 vectors: "make" is near "create", "remove" near "delete")
 * @param number   weight of the number the query names the tool's object in: +1 in the form its
 *                 name has ("which issues are open" and {@code list_issues}), −1 in the other
 *                 ({@code get_issue})
 * @param margin   only tools whose score is within this of the best are moved
 * @param siblings whether only the best tool and its siblings (tools whose names share a word
 *                 beside the action) are moved, so that no unrelated tool rises by a shared verb
 */
public record ActionWeights(double mood, double verb, double number, double margin, boolean siblings) {

    /** No action stage. */
    public static final ActionWeights OFF = new ActionWeights(0, 0, 0, 0, false);
    /**
     * What the {@code static} and {@code semantic} rankings use: off. Chosen leave-one-catalog-out
     * on bench/search's real catalogs, no point of the grid ranked the catalogs held out whole
     * better enough to ship (bench/RESULTS.md, "Search quality").
     */
    public static final ActionWeights DEFAULT = OFF;

    public ActionWeights {
        if (!(mood >= 0 && verb >= 0 && number >= 0 && margin >= 0)) {
            throw new IllegalArgumentException("action weights must be zero or more");
        }
    }

    boolean off() {
        return (mood == 0 && verb == 0 && number == 0) || margin == 0;
    }
}
