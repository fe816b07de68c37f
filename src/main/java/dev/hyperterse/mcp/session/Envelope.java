package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.JsonRpc;
import io.vertx.core.json.JsonObject;

/** A decoded JSON-RPC message, or why it is not one. */
final class Envelope {
    String method;
    Object id;
    boolean hasId;
    JsonObject params;
    /** Why the message is invalid; null when it is valid. */
    String error;
    /** The id to answer an invalid message with (null when it had no usable id). */
    Object errorId;

    static Envelope of(JsonObject m) {
        Envelope e = new Envelope();
        Object rawId = m.getValue("id");
        e.errorId = JsonRpc.validId(rawId) ? rawId : null;
        if (!"2.0".equals(m.getValue("jsonrpc"))) {
            e.error = "'jsonrpc' must be \"2.0\"";
            return e;
        }
        e.hasId = m.containsKey("id");
        if (e.hasId && !JsonRpc.validId(rawId)) {
            e.error = "'id' must be a string or an integer";
            return e;
        }
        e.id = rawId;
        Object method = m.getValue("method");
        if (method == null) {
            if (e.hasId && (m.containsKey("result") || m.containsKey("error"))) {
                return e; // a response from the client
            }
            e.error = "'method' is required";
            return e;
        }
        if (!(method instanceof String)) {
            e.error = "'method' must be a string";
            return e;
        }
        e.method = (String) method;
        Object params = m.getValue("params");
        if (params != null && !(params instanceof JsonObject)) {
            e.error = "'params' must be an object";
            return e;
        }
        e.params = params == null ? new JsonObject() : (JsonObject) params;
        return e;
    }

    boolean isRequest() {
        return method != null && hasId;
    }

    /**
     * The request's {@code _meta.progressToken} when it is a string or an integer, else null: a
     * token of another type cannot be echoed back faithfully, so it is treated as absent.
     */
    Object progressToken() {
        Object meta = params == null ? null : params.getValue("_meta");
        if (!(meta instanceof JsonObject)) {
            return null;
        }
        Object token = ((JsonObject) meta).getValue("progressToken");
        return JsonRpc.validId(token) ? token : null;
    }
}
