package dev.hyperterse.script;

import java.nio.file.Path;

/**
 * A script that cannot be loaded: a syntax error, a missing module or export, or top-level code
 * that throws. {@code file} is absolute; {@code line} and {@code column} are 1-based, 0 when unknown.
 * The message never holds a Java stack trace.
 */
public final class ScriptLoadException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;
    private final int column;

    public ScriptLoadException(Path file, int line, int column, String message) {
        super(message, null, false, false);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    public Path file() {
        return file;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    /** The same failure, said another way. */
    ScriptLoadException withMessage(String message) {
        return new ScriptLoadException(file, line, column, message);
    }
}
