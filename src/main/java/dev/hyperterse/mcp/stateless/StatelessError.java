package dev.hyperterse.mcp.stateless;

import io.vertx.core.json.JsonObject;

/**
 * A request of the stateless generation that gets a JSON-RPC error with a given HTTP status (the
 * 2026-07-28 transport answers envelope and header problems with 400 and unknown methods with
 * 404). The message is shown to the caller.
 */
final class StatelessError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final int HEADER_MISMATCH = -32020;
    static final int MISSING_CLIENT_CAPABILITY = -32021;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private final int code;
    private final int httpStatus;
    private final transient JsonObject data;

    StatelessError(int httpStatus, int code, String message, JsonObject data) {
        super(message, null, false, false);
        this.code = code;
        this.httpStatus = httpStatus;
        this.data = data;
    }

    StatelessError(int httpStatus, int code, String message) {
        this(httpStatus, code, message, null);
    }

    int code() {
        return code;
    }

    int httpStatus() {
        return httpStatus;
    }

    JsonObject data() {
        return data;
    }
}
