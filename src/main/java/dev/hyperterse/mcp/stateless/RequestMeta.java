package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LogLevel;
import io.vertx.core.json.JsonObject;

/**
 * The per-request {@code _meta} envelope of protocol 2026-07-28: the version the request speaks,
 * the client's capabilities for this request (declared on every request, never remembered), and
 * the optional log level and progress token.
 *
 * @param logLevel      null when the client asked for no log messages
 * @param progressToken null when the client asked for no progress
 */
record RequestMeta(String protocolVersion, JsonObject clientCapabilities, LogLevel logLevel, Object progressToken) {
    static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
    static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

    /** The protocol version a request's body names in {@code params._meta}, or null. */
    static Object declaredVersion(JsonObject message) {
        Object params = message.getValue("params");
        if (!(params instanceof JsonObject)) {
            return null;
        }
        Object meta = ((JsonObject) params).getValue("_meta");
        return meta instanceof JsonObject ? ((JsonObject) meta).getValue(PROTOCOL_VERSION) : null;
    }

    /** Reads {@code params._meta}; a missing or malformed required field is -32602 with HTTP 400. */
    static RequestMeta of(JsonObject params) {
        Object meta = params.getValue("_meta");
        if (!(meta instanceof JsonObject)) {
            throw invalid("params._meta is required (with " + PROTOCOL_VERSION + " and " + CLIENT_CAPABILITIES + ")");
        }
        JsonObject m = (JsonObject) meta;
        Object version = m.getValue(PROTOCOL_VERSION);
        if (!(version instanceof String) || ((String) version).isEmpty()) {
            throw invalid("params._meta." + PROTOCOL_VERSION + " is required and must be a string");
        }
        Object capabilities = m.getValue(CLIENT_CAPABILITIES);
        if (!(capabilities instanceof JsonObject)) {
            throw invalid("params._meta." + CLIENT_CAPABILITIES + " is required and must be an object");
        }
        LogLevel level = null;
        if (m.containsKey(LOG_LEVEL)) {
            level = LogLevel.of(m.getValue(LOG_LEVEL));
            if (level == null) {
                throw invalid("params._meta." + LOG_LEVEL + " must be one of " + LogLevel.ALL);
            }
        }
        Object token = m.getValue("progressToken");
        return new RequestMeta((String) version, (JsonObject) capabilities, level,
                JsonRpc.validId(token) ? token : null);
    }

    /** Whether the client declared a capability (e.g. {@code elicitation}) for this request. */
    boolean declares(String capability) {
        return clientCapabilities.getValue(capability) instanceof JsonObject;
    }

    private static StatelessError invalid(String why) {
        return new StatelessError(400, JsonRpc.INVALID_PARAMS, "Invalid params: " + why);
    }
}
