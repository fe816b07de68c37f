package dev.hyperterse.model;

/**
 * Text of any length (an error message echoing a caller's value, a traced input, a log line) cut
 * to a bound before anything else reads it, so the work a log line, a span or an error answer
 * costs never grows with what a caller sent. The cut is visible: {@code … (truncated, N chars)}.
 */
public final class BoundedText {
    /**
     * Error messages, as callers receive them and logs and spans repeat them (a database's
     * message quoting a caller's value, a script's exception): long enough for any real reason.
     */
    public static final int MESSAGE_CHARS = 2048;

    private BoundedText() {
    }

    /**
     * The text itself when at most {@code maxChars} long, else its first {@code maxChars}
     * characters (never half a surrogate pair) and {@code … (truncated, N chars)}, N being the
     * whole text's length. Reads only the characters it keeps.
     */
    public static String cut(String text, int maxChars) {
        if (text == null || text.length() <= maxChars) {
            return text;
        }
        return prefix(text, maxChars) + marker(text.length());
    }

    /** The first {@code maxChars} characters, one fewer when the last would be half a surrogate pair. */
    static String prefix(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        int end = maxChars > 0 && Character.isHighSurrogate(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
        return text.substring(0, end);
    }

    /** What a cut text ends with: {@code … (truncated, 1048576 chars)}. */
    static String marker(int originalLength) {
        return "… (truncated, " + originalLength + " chars)";
    }
}
