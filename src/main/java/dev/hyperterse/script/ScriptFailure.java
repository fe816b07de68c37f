package dev.hyperterse.script;

/**
 * A script call that failed: it threw or rejected, timed out, or returned something that is not
 * JSON. The message is what the caller sees after the stage's prefix, so it never carries a
 * Java stack trace or a host path.
 */
public final class ScriptFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean timedOut;

    ScriptFailure(String message, boolean timedOut, Throwable cause) {
        super(message, cause, false, false);
        this.timedOut = timedOut;
    }

    ScriptFailure(String message) {
        this(message, false, null);
    }

    public boolean timedOut() {
        return timedOut;
    }
}
