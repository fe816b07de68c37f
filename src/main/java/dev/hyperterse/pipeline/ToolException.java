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

    public ToolException(Stage stage, int code, String tool, String message, Throwable cause) {
        super(BoundedText.cut(message, BoundedText.MESSAGE_CHARS), cause, false, false);
        this.stage = stage;
        this.code = code;
        this.tool = tool;
    }

    public ToolException(Stage stage, String tool, String message) {
        this(stage, TOOL_FAILURE, tool, message, null);
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
