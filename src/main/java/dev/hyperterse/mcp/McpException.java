package dev.hyperterse.mcp;

/** A request that gets a JSON-RPC error (e.g. invalid params); the message is shown to the caller. */
final class McpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;

    McpException(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    int code() {
        return code;
    }
}
