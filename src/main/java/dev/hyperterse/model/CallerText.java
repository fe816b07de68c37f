package dev.hyperterse.model;

/**
 * Text a caller sent (a tool, method, field or argument name) as answers and logs repeat it: cut
 * short, so a name as long as the body limit allows is not sent back twice or written to the log.
 */
public final class CallerText {
    /** Longer than any real name (tool names stop at 128), short enough for one log line. */
    static final int MAX_CHARS = 128;

    private CallerText() {
    }

    /** The text itself when short, else its first {@value #MAX_CHARS} characters (never half a surrogate pair) and "…". */
    public static String cut(String text) {
        if (text.length() <= MAX_CHARS) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
        return text.substring(0, end) + "…";
    }
}
