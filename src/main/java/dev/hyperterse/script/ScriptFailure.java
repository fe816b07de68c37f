package dev.hyperterse.script;

/**
 * A script call that failed: it threw or rejected, timed out, or returned something that is not
 * JSON. The message is what the caller sees after the stage's prefix, so it never carries a
 * Java stack trace or a host path.
 */
public final class ScriptFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Who the failure comes from, which decides whether a caller may read its message. */
    public enum Kind {
        /** The script threw a {@code ToolError}: its message is meant for the caller. */
        TOOL_ERROR,
        /** The script threw (or rejected with) anything else: its message may reveal internals. */
        THROWN,
        /** The runtime stopped the script: time limit, resources, a result that is not JSON. */
        RUNTIME
    }

    private final boolean timedOut;
    private final Kind kind;

    ScriptFailure(String message, boolean timedOut, Throwable cause) {
        this(message, timedOut, cause, Kind.RUNTIME);
    }

    ScriptFailure(String message, boolean timedOut, Throwable cause, Kind kind) {
        super(message, cause, false, false);
        this.timedOut = timedOut;
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    ScriptFailure(String message) {
        this(message, false, null);
    }

    public boolean timedOut() {
        return timedOut;
    }
}
