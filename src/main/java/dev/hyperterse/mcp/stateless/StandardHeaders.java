package dev.hyperterse.mcp.stateless;

import dev.hyperterse.model.CallerText;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The request-metadata headers of the 2026-07-28 Streamable HTTP transport, checked against the
 * body they mirror: {@code MCP-Protocol-Version} (the {@code _meta} version), {@code Mcp-Method}
 * and, for calls that name something, {@code Mcp-Name}. Load balancers and gateways may route on
 * the headers while this server acts on the body, so a disagreement is refused (-32020, HTTP 400).
 * Header names are case-insensitive (Vert.x headers are); values are trimmed and compared exactly.
 */
final class StandardHeaders {
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
    static final String METHOD = "Mcp-Method";
    static final String NAME = "Mcp-Name";
    private static final String BASE64_PREFIX = "=?base64?";
    private static final String BASE64_SUFFIX = "?=";

    private StandardHeaders() {
    }

    /** Throws a HeaderMismatch error when a required header is missing or differs from the body. */
    static void check(MultiMap headers, String method, JsonObject params, String metaVersion) {
        String version = trimmed(headers.get(PROTOCOL_VERSION));
        if (version == null) {
            throw mismatch("the " + PROTOCOL_VERSION + " header is required");
        }
        if (!version.equals(metaVersion)) {
            throw mismatch(PROTOCOL_VERSION + " header '" + CallerText.cut(version) + "' does not match _meta "
                    + RequestMeta.PROTOCOL_VERSION + " '" + CallerText.cut(metaVersion) + "'");
        }
        String methodHeader = trimmed(headers.get(METHOD));
        if (methodHeader == null) {
            throw mismatch("the " + METHOD + " header is required");
        }
        if (!methodHeader.equals(method)) {
            throw mismatch(METHOD + " header '" + CallerText.cut(methodHeader) + "' does not match body method '"
                    + CallerText.cut(method) + "'");
        }
        String nameField = nameField(method);
        if (nameField == null || !(params.getValue(nameField) instanceof String)) {
            return; // nothing to mirror; a missing name is the method's own -32602
        }
        String bodyName = params.getString(nameField);
        String nameHeader = trimmed(headers.get(NAME));
        if (nameHeader == null) {
            throw mismatch("the " + NAME + " header is required for " + method);
        }
        String decoded = decoded(nameHeader);
        if (decoded == null) {
            throw mismatch(NAME + " header is not valid " + BASE64_PREFIX + "…" + BASE64_SUFFIX + " encoding");
        }
        if (!decoded.equals(bodyName)) {
            throw mismatch(NAME + " header '" + CallerText.cut(decoded) + "' does not match body value '"
                    + CallerText.cut(bodyName) + "'");
        }
    }

    /** The body field {@code Mcp-Name} mirrors for a method, or null when it carries none. */
    static String nameField(String method) {
        switch (method) {
            case "tools/call":
            case "prompts/get":
                return "name";
            case "resources/read":
                return "uri";
            default:
                return null;
        }
    }

    /** A header value with its Base64 sentinel encoding undone; null when the encoding is broken. */
    static String decoded(String value) {
        if (!value.startsWith(BASE64_PREFIX) || !value.endsWith(BASE64_SUFFIX)
                || value.length() < BASE64_PREFIX.length() + BASE64_SUFFIX.length()) {
            return value;
        }
        String encoded = value.substring(BASE64_PREFIX.length(), value.length() - BASE64_SUFFIX.length());
        try {
            return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String trimmed(String value) {
        if (value == null) {
            return null;
        }
        String t = value.trim();
        return t.isEmpty() ? null : t;
    }

    private static StatelessError mismatch(String why) {
        return new StatelessError(400, StatelessError.HEADER_MISMATCH, "Header mismatch: " + why);
    }
}
