package dev.hyperterse.pipeline;

import dev.hyperterse.model.BoundedText;

/**
 * A failed stage of a tool call. The message is what the caller sees: it names the stage and
 * the reason and never carries a stack trace or a secret. It is cut to
 * {@link BoundedText#MESSAGE_CHARS} (saying so), since reasons often quote the caller's value and
 * every failed call is logged and traced on the thread that finished it.
 */
public final class ToolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** JSON-RPC code for "tool not found" in the seed documents' error table. */
    public static final int NOT_FOUND = -32601;
    /** JSON-RPC code every other tool failure uses. */
    public static final int TOOL_FAILURE = -32000;

    private final Stage stage;
    private final int code;
    private final String tool;
    private final boolean refusedByAuthCheck;

    public ToolException(Stage stage, int code, String tool, String message, Throwable cause) {
        this(stage, code, tool, message, cause, false);
    }

    private ToolException(Stage stage, int code, String tool, String message, Throwable cause,
                          boolean refusedByAuthCheck) {
        super(BoundedText.cut(message, BoundedText.MESSAGE_CHARS), cause, false, false);
        this.stage = stage;
        this.code = code;
        this.tool = tool;
        this.refusedByAuthCheck = refusedByAuthCheck;
    }

    public ToolException(Stage stage, String tool, String message) {
        this(stage, TOOL_FAILURE, tool, message, null);
    }

    /**
     * The answer for a tool name no tool has, and (so names cannot be probed) for a tool the
     * caller may not see: the name is shown as the caller wrote it, cut short.
     */
    public static ToolException notFound(String requested) {
        String named = dev.hyperterse.model.CallerText.cut(requested);
        return new ToolException(Stage.RESOLUTION, NOT_FOUND, named, "tool not found: " + named, null);
    }

    /**
     * The same failure, marked as the tool's auth check refusing the caller (it denied, or could
     * not decide): exactly the outcome for which a search filtered by auth hides the tool.
     */
    public ToolException asAuthCheckRefusal() {
        return new ToolException(stage, code, tool, getMessage(), getCause(), true);
    }

    /** True when the tool's auth check refused the caller, as opposed to a later stage failing. */
    public boolean refusedByAuthCheck() {
        return refusedByAuthCheck;
    }

    public Stage stage() {
        return stage;
    }

    public int code() {
        return code;
    }

    /** The tool the call named, or null when it had none. */
    public String tool() {
        return tool;
    }
}
