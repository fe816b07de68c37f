package dev.hyperterse.model;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules an input's value must keep besides its type: {@code enum} (any scalar type),
 * {@code minimum}/{@code maximum} (int, float), {@code min_length}/{@code max_length}/{@code pattern}
 * (string) and {@code min_items}/{@code max_items} (array). Null means the rule is not set.
 * {@code enumValues} are already coerced to the input's type.
 *
 * <p>{@code pattern} is compiled once, when the project is read, and is searched for anywhere in
 * the value (as JSON Schema's {@code pattern}; anchor it with {@code ^…$} to match the whole
 * value). Java's regular expressions backtrack, so a pattern such as {@code (a+)+$} can take time
 * exponential in the value's length: values longer than {@link #PATTERN_MAX_INPUT} characters are
 * refused before matching, and a match that reads more than {@link #PATTERN_STEP_BUDGET} characters
 * is stopped and refused. Either way the work per value is bounded, whatever the caller sends; and
 * all the matches of one call share one {@link PatternBudget}, so the work per call is bounded too,
 * however many values an array holds.
 */
public record InputConstraints(List<Object> enumValues, BigDecimal minimum, BigDecimal maximum, Integer minLength,
                               Integer maxLength, Pattern pattern, Integer minItems, Integer maxItems) {
    public static final InputConstraints NONE = new InputConstraints(null, null, null, null, null, null, null, null);
    /** The longest value a pattern is matched against when the input sets no lower {@code max_length}. */
    public static final int PATTERN_MAX_INPUT = 10_000;
    /** Characters a single pattern match may read (backtracking included) before it is given up. */
    public static final long PATTERN_STEP_BUDGET = 1_000_000;

    public InputConstraints {
        enumValues = enumValues == null ? null : Collections.unmodifiableList(new ArrayList<>(enumValues));
    }

    public boolean isEmpty() {
        return (enumValues == null && minimum == null && maximum == null && minLength == null
                && maxLength == null && pattern == null && minItems == null && maxItems == null);
    }

    /**
     * Checks a value already coerced to its input's type, on a budget of its own (a value written in
     * the project, such as a default).
     *
     * @throws InputValueException naming the rule, such as {@code must be ≤ 1000 (maximum)}
     */
    public void check(Object value) throws InputValueException {
        check(value, PatternBudget.forCall());
    }

    /**
     * Checks a value already coerced to its input's type; its {@code pattern} match draws on the
     * call's {@code budget}.
     *
     * @throws InputValueException naming the rule, such as {@code must be ≤ 1000 (maximum)}
     */
    public void check(Object value, PatternBudget budget) throws InputValueException {
        if (enumValues != null && !enumValues.contains(value)) {
            throw new InputValueException("must be one of " + enumText() + " (enum), got " + InputType.describe(value));
        }
        if (value instanceof Number && (minimum != null || maximum != null)) {
            BigDecimal n = InputType.decimal((Number) value);
            if (minimum != null && n.compareTo(minimum) < 0) {
                throw new InputValueException("must be ≥ " + InputType.numberText(minimum) + " (minimum), got "
                        + InputType.describe(value));
            }
            if (maximum != null && n.compareTo(maximum) > 0) {
                throw new InputValueException("must be ≤ " + InputType.numberText(maximum) + " (maximum), got "
                        + InputType.describe(value));
            }
        }
        if (value instanceof String) {
            checkText((String) value, budget);
        }
        if (value instanceof List) {
            checkItemCount(((List<?>) value).size());
        }
    }

    /**
     * The {@code min_items} / {@code max_items} rules alone: checked on an array before its items
     * are coerced, so an array far past its limit costs the event loop nothing per item.
     */
    public void checkItemCount(int size) throws InputValueException {
        if (minItems != null && size < minItems) {
            throw new InputValueException("must have at least " + Counted.of(minItems, "item")
                    + " (min_items), got " + size);
        }
        if (maxItems != null && size > maxItems) {
            throw new InputValueException("must have at most " + Counted.of(maxItems, "item")
                    + " (max_items), got " + size);
        }
    }

    private void checkText(String text, PatternBudget budget) throws InputValueException {
        if (minLength != null || maxLength != null) {
            int length = text.codePointCount(0, text.length());
            if (minLength != null && length < minLength) {
                throw new InputValueException("must be at least " + Counted.of(minLength, "character")
                        + " long (min_length), got " + length);
            }
            if (maxLength != null && length > maxLength) {
                throw new InputValueException("must be at most " + Counted.of(maxLength, "character")
                        + " long (max_length), got " + length);
            }
        }
        if (pattern != null) {
            if (text.length() > PATTERN_MAX_INPUT) {
                throw new InputValueException("is too long to check against its pattern (at most "
                        + PATTERN_MAX_INPUT + " characters; pattern), got " + text.length());
            }
            long allowed = Math.min(PATTERN_STEP_BUDGET, budget.left());
            BoundedText bounded = new BoundedText(text, allowed);
            boolean found;
            try {
                found = pattern.matcher(bounded).find();
            } catch (BoundedText.Exhausted e) {
                throw new InputValueException(allowed < PATTERN_STEP_BUDGET
                        ? "could not be checked against the pattern " + pattern.pattern() + ": this call's values"
                                + " together needed more than the " + PatternBudget.PER_CALL + " characters of pattern"
                                + " matching one call may take (pattern); send fewer or shorter values"
                        : "could not be checked against the pattern " + pattern.pattern()
                                + " within its step budget (pattern); send a shorter or simpler value");
            } finally {
                budget.spend(bounded.steps());
            }
            if (!found) {
                throw new InputValueException("must match the pattern " + pattern.pattern() + " (pattern), got "
                        + InputType.describe(text));
            }
        }
    }

    private String enumText() {
        StringBuilder out = new StringBuilder();
        for (Object v : enumValues) {
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append(v instanceof String ? "\"" + v + "\"" : InputType.describe(v));
        }
        return out.toString();
    }

    /** The rules as JSON Schema keywords (numbers as Long or Double), for {@code input_schema}. */
    public void describeInto(Map<String, Object> schema) {
        if (enumValues != null) {
            schema.put("enum", new ArrayList<>(enumValues));
        }
        if (minimum != null) {
            schema.put("minimum", number(minimum));
        }
        if (maximum != null) {
            schema.put("maximum", number(maximum));
        }
        if (minLength != null) {
            schema.put("minLength", minLength);
        }
        if (maxLength != null) {
            schema.put("maxLength", maxLength);
        }
        if (pattern != null) {
            schema.put("pattern", pattern.pattern());
        }
        if (minItems != null) {
            schema.put("minItems", minItems);
        }
        if (maxItems != null) {
            schema.put("maxItems", maxItems);
        }
    }

    private static Object number(BigDecimal d) {
        BigDecimal s = d.stripTrailingZeros();
        if (s.scale() <= 0 && s.toBigInteger().bitLength() < 63) {
            return s.longValueExact();
        }
        return d.doubleValue();
    }

    /**
     * A string that counts the characters a matcher reads and stops the match past a budget, so a
     * backtracking pattern cannot spend unbounded time on one value.
     */
    private static final class BoundedText implements CharSequence {
        private final String text;
        private final long[] steps;
        private final long budget;

        BoundedText(String text, long budget) {
            this(text, new long[1], budget);
        }

        private BoundedText(String text, long[] steps, long budget) {
            this.text = text;
            this.steps = steps;
            this.budget = budget;
        }

        long steps() {
            return steps[0];
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            if (++steps[0] > budget) {
                throw new Exhausted();
            }
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new BoundedText(text.substring(start, end), steps, budget);
        }

        @Override
        public String toString() {
            return text;
        }

        static final class Exhausted extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Exhausted() {
                super(null, null, false, false);
            }
        }
    }
}
