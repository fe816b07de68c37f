package dev.hyperterse.search;

/**
 * How the action stage reorders the best hits by what the query asks to do against what each tool
 * does ({@link ActionStage}): the moved tools are sorted again by their score (on the rankings' 0..1
 * scale) plus the weighted readings below, among the places they hold, each place keeping its score.
 *
 * @param mood     weight of read against write: the query's mood (a question, or a verb that reads
 *                 or changes, in −1..1) times the tool's (its read-only or destructive hint, else its
 *                 verb's, in −1..1)
 * @param verb     weight of the cosine between the query's verb and the tool's (the static table's
 *                 vectors: "make" is near "create", "remove" near "delete")
 * @param number   weight of the number the query names the tool's object in: +1 in the form its
 *                 name has ("which issues are open" and {@code list_issues}), −1 in the other
 *                 ({@code get_issue})
 * @param object   weight of how near the query's content words are to what the tool acts on (its
 *                 name's words beside its action and the words half the catalog's names carry, else
 *                 the words after its description's verb), by the static table's word vectors: the
 *                 mean of each object word's best cosine to a query word and each query word's best
 *                 cosine to an object word, each word weighted by how rare it is among the catalog's
 *                 names, in 0..1 ("which pods are running" nearer {@code list_pods} than
 *                 {@code list_nodes}); 0 by default, as it did not rank the bench's catalogs better
 * @param few      only tools among the first this many hits are moved (and never past the hits
 *                 asked for), so a tool below them never enters them
 * @param margin   only tools whose score is within this of the best are moved
 * @param siblings whether only the best tool and its siblings (tools whose names share a word
 *                 beside the action) are moved, so that no unrelated tool rises by a shared verb
 */
public record ActionWeights(double mood, double verb, double number, double object, int few,
                            double margin, boolean siblings) {

    /** No action stage. */
    public static final ActionWeights OFF = new ActionWeights(0, 0, 0, 0, 0, 0, false);
    /**
     * What the {@code static} and {@code semantic} rankings use: within the ten best hits, each
     * tool's score plus 0.1 × mood × the tool's mood plus 0.4 × the cosine of the two verbs decides
     * their order; no margin, siblings or not. Chosen leave-one-catalog-out on bench/search's real
     * catalogs (bench/RESULTS.md, "Search quality").
     */
    public static final ActionWeights DEFAULT = new ActionWeights(0.1, 0.4, 0, 0, 10, 1, false);

    public ActionWeights {
        if (!(mood >= 0 && verb >= 0 && number >= 0 && object >= 0 && few >= 0 && margin >= 0)) {
            throw new IllegalArgumentException("action weights must be zero or more");
        }
    }

    boolean off() {
        return (mood == 0 && verb == 0 && number == 0 && object == 0) || few < 2 || margin == 0;
    }
}
