package dev.hyperterse.script;

/** Error texts from the JavaScript engine made fit for callers and logs. */
final class ScriptErrors {
    private ScriptErrors() {
    }

    /**
     * A syntax error as GraalJS words it ({@code file:line:col message}), without the source
     * line and caret it appends: the file may be one a script must not read, and its caller must
     * not see its text.
     */
    static String withoutSource(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** {@link #withoutSource} for a message that reports a {@code SyntaxError}; others unchanged. */
    static String withoutSyntaxSource(String message) {
        return message.startsWith("SyntaxError") ? withoutSource(message) : message;
    }
}
