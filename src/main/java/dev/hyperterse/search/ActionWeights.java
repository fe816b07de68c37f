package dev.hyperterse.search;

/**
 * How much the action stage moves a tool's score (on the rankings' 0..1 scale) when the query names
 * an action ("create a branch", "remove the index"): up for a tool whose own action is the same
 * (WordNet's senses, their hypernyms and verb groups: "make" is "create", "remove" is "delete"),
 * down for one whose action is another, further down for the opposite ("install" and "uninstall").
 * A tool whose action cannot be read (no verb in its name or leading its description) is not moved.
 *
 * @param same     added for the same action
 * @param other    taken off for another action
 * @param opposite taken off for the opposite action
 * @param siblings whether a tool whose action is the query's moves up before a sibling (a tool
 *                 whose name names the same object) whose action is another
 */
public record ActionWeights(double same, double other, double opposite, boolean siblings) {

    /** No action stage. */
    public static final ActionWeights OFF = new ActionWeights(0, 0, 0, false);
    /**
     * What the {@code static} and {@code semantic} rankings use: off. Chosen leave-one-catalog-out
     * on bench/search's real catalogs, no weights and no sibling order ranked the catalogs held out
     * whole better (bench/RESULTS.md, "Search quality").
     */
    public static final ActionWeights DEFAULT = OFF;

    public ActionWeights {
        if (!(same >= 0 && other >= 0 && opposite >= 0)) {
            throw new IllegalArgumentException("action weights must be zero or more");
        }
    }

    boolean off() {
        return same == 0 && other == 0 && opposite == 0 && !siblings;
    }
}
