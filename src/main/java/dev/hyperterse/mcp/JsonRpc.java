package dev.hyperterse.mcp;

import io.vertx.core.json.JsonObject;

/** JSON-RPC 2.0 error codes and message builders. */
public final class JsonRpc {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** Used for transport-level rejections ("Bad Request: …"), as the MCP SDKs do. */
    public static final int SERVER_ERROR = -32000;
    /** Session not found, as the MCP SDKs do. */
    public static final int SESSION_NOT_FOUND = -32001;

    private JsonRpc() {
    }

    public static JsonObject result(Object id, JsonObject result) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
    }

    public static JsonObject error(Object id, int code, String message) {
        return error(id, code, message, null);
    }

    public static JsonObject error(Object id, int code, String message, JsonObject data) {
        JsonObject error = new JsonObject().put("code", code).put("message", message);
        if (data != null) {
            error.put("data", data);
        }
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", error);
    }

    /** A request id must be a string or an integer (never null, never fractional). */
    public static boolean validId(Object id) {
        if (id instanceof String) {
            return true;
        }
        if (id instanceof Integer || id instanceof Long || id instanceof java.math.BigInteger) {
            return true;
        }
        return false;
    }
}
