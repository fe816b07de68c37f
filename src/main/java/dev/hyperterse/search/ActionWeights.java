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
 *                 vectors: "make" is near "create", "remove" near "delete"; each verb's vector mixed
 *                 with its WordNet synonyms' as {@code toolSynonyms} and {@code phraseSynonyms} say)
 * @param number   weight of the number the query names the tool's object in: +1 in the form its
 *                 name has ("which issues are open" and {@code list_issues}), −1 in the other
 *                 ({@code get_issue}), 0 when it names no word of the name
 * @param object   weight of how near the query's content words are to what the tool acts on (its
 *                 name's words beside its action and the words half the catalog's names carry, else
 *                 the words after its description's verb), by the static table's word vectors: the
 *                 mean of each object word's best cosine to a query word and each query word's best
 *                 cosine to an object word, each word weighted by how rare it is among the catalog's
 *                 names, in 0..1 ("which pods are running" nearer {@code list_pods} than
 *                 {@code list_nodes}); 0 by default, as it did not rank the bench's catalogs better
 * @param few      only tools among the first this many the ranking finds are moved: among the hits
 *                 asked for, or as far as {@code reach} reads when it reads further
 * @param margin   only tools whose score is within this of the best are moved
 * @param siblings whether only the best tool and its siblings (tools whose names share a word
 *                 beside the action) are moved, so that no unrelated tool rises by a shared verb
 * @param toolSynonyms   share, in 0..1, of a tool's verb vector that is the mean of the vectors of
 *                 the other verbs of its first sense in WordNet ({@code create}: {@code make};
 *                 {@code delete}: {@code cancel}), the rest its own: a tool's verb is its author's
 *                 term, the synonyms bring in the words an agent says for the same act
 * @param phraseSynonyms share, in 0..1, of a query's multi-word verb's vector that is its first
 *                 sense's synonyms' ({@code get_rid_of}: {@code remove}; {@code set_up}:
 *                 {@code establish}, {@code found}, {@code launch}): the phrase's words pooled say
 *                 little ("get rid of" is near "get"); a query's one-word verb is read as it is
 * @param reach    how many of the ranking's best tools the stage reads at least, below the
 *                 ranking's floor too, however many hits are asked for (0: the hits asked for
 *                 alone, above the floor): a tool just below them, or below the floor, that does
 *                 what the query asks (it reads, or has the query's verb) may be
 *                 moved into them, as far as {@code few} allows, and the tool it displaces leaves
 *                 them. Every place keeps its score and the places below the floor are no hits, so
 *                 the hits' scores, and how many there are, stay what the ranking gave ("which
 *                 deployments are running in the cluster": {@code kubectl_get}, below the first ten by its
 *                 words, rises into them as a tool that reads)
 * @param learned  in the {@code static} ranking, whether the first places (as many as the weights say:
 *                 thirty) are ordered by the learned score ({@link LearnedOrder}: these readings and
 *                 how the query is put against the kind of tool, weighed as learned from requests to
 *                 real catalogs) instead of the weights above (in {@code semantic}, twenty by the order
 *                 that reads the models' cosines too;
 *                 without it, the model's ranking and the table's are fused, each ordered by the
 *                 weights above); a table that cannot be read keeps the weights
 */
public record ActionWeights(double mood, double verb, double number, double object, int few,
                            double margin, boolean siblings, double toolSynonyms, double phraseSynonyms,
                            int reach, boolean learned) {

    /** No action stage. */
    public static final ActionWeights OFF = new ActionWeights(0, 0, 0, 0, 0, 0, false);

    /** These weights, with the learned order on or off. */
    public ActionWeights learned(boolean on) {
        return new ActionWeights(mood, verb, number, object, few, margin, siblings, toolSynonyms, phraseSynonyms, reach, on);
    }
    /**
     * The hand weights: within the twenty best tools the ranking finds (however many hits are asked
     * for, and below its floor too), each tool's score plus 0.1 × mood × the tool's mood plus 0.4 ×
     * the cosine of the two verbs plus 0.05 × number decides their order; no margin, siblings or not;
     * a tool's verb read a fifth by its WordNet synonyms, a query's multi-word verb four fifths. Mood
     * and verb chosen leave-one-catalog-out on bench/search's real catalogs, number, the synonym
     * shares and the reach leave-one-set-out on its sets of catalogs held out whole (bench/RESULTS.md,
     * "Search quality"). They order the twenty when the learned order's weights cannot be read.
     */
    public static final ActionWeights HAND = new ActionWeights(0.1, 0.4, 0.05, 0, 20, 1, false, 0.2, 0.8, 20, false);

    /**
     * What the {@code static} and {@code semantic} rankings use: the readings of {@link #HAND}, the
     * best thirty put in order by the learned score ({@link LearnedOrder}; in {@code semantic}, the
     * best twenty by the order that reads the models' cosines too). On by
     * default since the eleventh set of catalogs held out whole, read once by a rule written before,
     * ranked higher with it (MRR@10 0.781 against the hand weights' 0.739; the tenth had ranked
     * 0.004 lower), and so did the twelfth (0.809 against 0.773).
     */
    public static final ActionWeights DEFAULT = HAND.learned(true);

    /** The stage with these weights, and no learned order. */
    public ActionWeights(double mood, double verb, double number, double object, int few, double margin,
                         boolean siblings, double toolSynonyms, double phraseSynonyms, int reach) {
        this(mood, verb, number, object, few, margin, siblings, toolSynonyms, phraseSynonyms, reach, false);
    }

    /** The stage reading the hits asked for alone. */
    public ActionWeights(double mood, double verb, double number, double object, int few, double margin,
                         boolean siblings, double toolSynonyms, double phraseSynonyms) {
        this(mood, verb, number, object, few, margin, siblings, toolSynonyms, phraseSynonyms, 0);
    }

    /** Verbs read by their own vectors alone (no synonyms). */
    public ActionWeights(double mood, double verb, double number, double object, int few, double margin,
                         boolean siblings) {
        this(mood, verb, number, object, few, margin, siblings, 0, 0, 0);
    }

    public ActionWeights {
        if (!(mood >= 0 && verb >= 0 && number >= 0 && object >= 0 && few >= 0 && margin >= 0 && reach >= 0)) {
            throw new IllegalArgumentException("action weights must be zero or more");
        }
        if (!(toolSynonyms >= 0 && toolSynonyms <= 1 && phraseSynonyms >= 0 && phraseSynonyms <= 1)) {
            throw new IllegalArgumentException("synonym shares must be in 0..1");
        }
    }

    boolean off() {
        return (mood == 0 && verb == 0 && number == 0 && object == 0) || few < 2 || margin == 0;
    }
}
