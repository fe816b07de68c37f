package dev.hyperterse.search;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Text rules shared by index build and query, written to give the same results as Hyperterse's
 * Go code (so the same query ranks the same tools the same way on both servers).
 */
final class SearchText {

    /** Character n-gram size of the fuzzy component. */
    static final int GRAM_SIZE = 3;

    /** Bits per code point in a packed substring key; every code point fits in 21 bits. */
    private static final int BITS_PER_CODE_POINT = 21;

    private SearchText() {
    }

    /**
     * Lower-cases, turns every run of characters that are neither letters nor numbers into one
     * space, and trims. Lower-casing is per code point ({@link Character#toLowerCase(int)}, the
     * simple mapping Go's {@code unicode.ToLower} uses) rather than {@link String#toLowerCase},
     * whose full mapping turns {@code İ} into two characters and sigma into a context-dependent form.
     * "Number" is any Unicode number category (Nd, Nl, No) to match Go's {@code unicode.IsNumber},
     * so {@code ²} and {@code Ⅻ} are kept as well as {@code 0-9}.
     */
    static String normalize(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(value.length());
        boolean previousWasSpace = true; // leading separators must not produce a space
        int i = 0;
        while (i < value.length()) {
            int cp = value.codePointAt(i);
            i += Character.charCount(cp);
            int lower = Character.toLowerCase(cp);
            if (isLetterOrNumber(lower)) {
                out.appendCodePoint(lower);
                previousWasSpace = false;
            } else if (!previousWasSpace) {
                out.append(' ');
                previousWasSpace = true;
            }
        }
        int length = out.length();
        if (length > 0 && out.charAt(length - 1) == ' ') {
            out.setLength(length - 1);
        }
        return out.toString();
    }

    static boolean isLetterOrNumber(int cp) {
        if (Character.isLetter(cp)) {
            return true;
        }
        int type = Character.getType(cp);
        return type == Character.DECIMAL_DIGIT_NUMBER
                || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    /** The distinct space-separated tokens of a normalised text, in first-seen order. */
    static String[] distinctTokens(String normalized) {
        if (normalized.isEmpty()) {
            return new String[0];
        }
        Set<String> tokens = new LinkedHashSet<>();
        int start = 0;
        while (start <= normalized.length()) {
            int end = normalized.indexOf(' ', start);
            if (end < 0) {
                end = normalized.length();
            }
            tokens.add(normalized.substring(start, end));
            start = end + 1;
        }
        return tokens.toArray(new String[0]);
    }

    /**
     * The distinct character n-grams of a normalised text with its spaces removed, as packed keys,
     * sorted. A text of at most {@link #GRAM_SIZE} code points is a single gram of itself (so a
     * two-letter tool or query still takes part); an empty text has none.
     */
    static long[] gramKeys(String normalized) {
        int[] cps = normalized.codePoints().filter(cp -> cp != ' ').toArray();
        if (cps.length == 0) {
            return new long[0];
        }
        if (cps.length <= GRAM_SIZE) {
            return new long[] {key(cps, 0, cps.length)};
        }
        long[] keys = new long[cps.length - GRAM_SIZE + 1];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = key(cps, i, GRAM_SIZE);
        }
        return distinctSorted(keys);
    }

    /**
     * Packs up to three code points into one long. Unambiguous across lengths because code point
     * 0 is neither a letter nor a number, so it never occurs in normalised text.
     */
    static long key(int[] cps, int from, int length) {
        long key = 0;
        for (int i = from; i < from + length; i++) {
            key = (key << BITS_PER_CODE_POINT) | cps[i];
        }
        return key;
    }

    static long[] distinctSorted(long[] keys) {
        if (keys.length < 2) {
            return keys;
        }
        long[] sorted = keys.clone();
        Arrays.sort(sorted);
        int distinct = 1;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] != sorted[distinct - 1]) {
                sorted[distinct++] = sorted[i];
            }
        }
        return distinct == sorted.length ? sorted : Arrays.copyOf(sorted, distinct);
    }

    /**
     * Orders strings by code point, which is the byte order of their UTF-8 form and so the order
     * Go's {@code <} on strings gives; {@link String#compareTo} orders UTF-16 units and differs
     * for characters beyond the Basic Multilingual Plane.
     */
    static int compareCodePoints(String a, String b) {
        int common = Math.min(a.length(), b.length());
        for (int i = 0; i < common; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca != cb) {
                if (Character.isSurrogate(ca) || Character.isSurrogate(cb)) {
                    return Integer.compare(a.codePointAt(i), b.codePointAt(i));
                }
                return Character.compare(ca, cb);
            }
        }
        return Integer.compare(a.length(), b.length());
    }
}
