package dev.hyperterse.mcp;

/** A request that gets a JSON-RPC error (e.g. invalid params); the message is shown to the caller. */
public final class McpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;

    public McpException(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
