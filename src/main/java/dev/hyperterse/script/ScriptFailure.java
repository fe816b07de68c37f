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
    private final boolean memory;

    ScriptFailure(String message, boolean timedOut, Throwable cause) {
        this(message, timedOut, cause, Kind.RUNTIME);
    }

    ScriptFailure(String message, boolean timedOut, Throwable cause, Kind kind) {
        this(message, timedOut, cause, kind, false);
    }

    private ScriptFailure(String message, boolean timedOut, Throwable cause, Kind kind, boolean memory) {
        super(message, cause, false, false);
        this.timedOut = timedOut;
        this.kind = kind;
        this.memory = memory;
    }

    public Kind kind() {
        return kind;
    }

    ScriptFailure(String message) {
        this(message, false, null);
    }

    /** A call the memory guard stopped because the heap was nearly full while it ran. */
    static ScriptFailure memory(String message) {
        return new ScriptFailure(message, false, null, Kind.RUNTIME, true);
    }

    /** True when the call was stopped because the server's memory was nearly exhausted. */
    public boolean memory() {
        return memory;
    }

    public boolean timedOut() {
        return timedOut;
    }
}
