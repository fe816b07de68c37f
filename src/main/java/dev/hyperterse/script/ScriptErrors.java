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

    /**
     * A message as a caller may read it: paths inside the project folder relative to it, and the
     * folder itself (run npm install in …) named, never shown.
     *
     * @param projectDir the project folder's real path
     */
    static String withoutProjectFolder(String message, String projectDir) {
        String folder = projectDir.endsWith("/") ? projectDir.substring(0, projectDir.length() - 1) : projectDir;
        if (folder.isEmpty()) {
            return message;
        }
        return message.replace(folder + "/", "").replace(folder, "the project folder");
    }

    /** {@link #withoutSource} for a message that reports a {@code SyntaxError}; others unchanged. */
    static String withoutSyntaxSource(String message) {
        return message.startsWith("SyntaxError") ? withoutSource(message) : message;
    }
}
