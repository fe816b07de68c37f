package dev.hyperterse.script;

import java.nio.file.Path;

/**
 * A script that cannot be loaded: a syntax error, a missing module or export, top-level code
 * that throws, or top-level code that runs past the time limit. {@code file} is absolute; {@code line} and {@code column} are 1-based, 0 when unknown.
 * The message never holds a Java stack trace.
 */
public final class ScriptLoadException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;
    private final int column;
    private final boolean timedOut;

    public ScriptLoadException(Path file, int line, int column, String message) {
        this(file, line, column, message, false);
    }

    private ScriptLoadException(Path file, int line, int column, String message, boolean timedOut) {
        super(message, null, false, false);
        this.file = file;
        this.line = line;
        this.column = column;
        this.timedOut = timedOut;
    }

    /** Top-level code of {@code file} (or of a module it loads) that did not finish within {@code limit}. */
    static ScriptLoadException timedOut(Path file, java.time.Duration limit) {
        return new ScriptLoadException(file, 0, 0, "its top-level code did not finish within "
                + Durations.show(limit) + " (the script's time limit; the modules it imports included)", true);
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

    /** True when loading was stopped because top-level code ran past the time limit. */
    public boolean timedOut() {
        return timedOut;
    }

    /** The same failure, said another way. */
    ScriptLoadException withMessage(String message) {
        return new ScriptLoadException(file, line, column, message, timedOut);
    }
}
