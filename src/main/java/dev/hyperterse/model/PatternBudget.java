package dev.hyperterse.model;

/**
 * The characters {@code pattern} rules may read for one call, all its values together: each value
 * is still limited to {@link InputConstraints#PATTERN_STEP_BUDGET}, and the call as a whole to
 * {@link #PER_CALL}. Without the total an array of patterned strings (or objects with patterned
 * properties) would cost items × the per-value budget. One budget belongs to one call and one
 * thread; it is not shared.
 */
public final class PatternBudget {
    /** Characters all of one call's pattern matches may read together, backtracking included. */
    public static final long PER_CALL = 4_000_000;

    private long left;

    private PatternBudget(long characters) {
        this.left = characters;
    }

    /** A fresh budget for one call's inputs, or one result's output check. */
    public static PatternBudget forCall() {
        return new PatternBudget(PER_CALL);
    }

    long left() {
        return left;
    }

    void spend(long characters) {
        left = Math.max(0, left - characters);
    }
}
