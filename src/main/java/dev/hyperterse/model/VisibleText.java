package dev.hyperterse.model;

/**
 * Text from scripts and callers written where a line break or a terminal escape would let it
 * forge what follows (log lines, quoted log values): control characters (C0, DEL, C1) and the
 * Unicode line and paragraph separators become visible escapes ({@code \n}, {@code \r},
 * {@code \t}, else {@code &#92;u00XX}).
 */
public final class VisibleText {
    private VisibleText() {
    }

    /** {@code text} with its control characters escaped; the same string when it has none. */
    public static String escape(String text) {
        int first = -1;
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        append(text, first, out, false);
        return out.toString();
    }

    /**
     * Appends {@code value} as the inside of a double-quoted value: control characters, and also
     * {@code "} and {@code \}, escaped, so the value ends only where its closing quote is written.
     */
    public static void quotedInto(String value, StringBuilder out) {
        append(value, 0, out, true);
    }

    private static void append(String text, int from, StringBuilder out, boolean quoted) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted && (c == '"' || c == '\\')) {
                out.append('\\').append(c);
            } else if (!isControl(c)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
