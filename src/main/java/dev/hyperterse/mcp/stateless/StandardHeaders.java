package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.MirroredParam;
import dev.hyperterse.model.CallerText;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The request-metadata headers of the 2026-07-28 Streamable HTTP transport, checked against the
 * body they mirror: {@code MCP-Protocol-Version} (the {@code _meta} version), {@code Mcp-Method}
 * and, for calls that name something, {@code Mcp-Name}; and for {@code tools/call}, the
 * {@code Mcp-Param-*} headers of the arguments the tool declares {@code x-mcp-header}
 * ({@link #checkParams}). Load balancers and gateways may route on the headers while this server
 * acts on the body, so a disagreement is refused (-32020, HTTP 400). Header names are
 * case-insensitive (Vert.x headers are); values are trimmed and compared exactly, after undoing
 * the {@code =?base64?…?=} encoding, which must be canonical Base64 of well-formed UTF-8.
 */
final class StandardHeaders {
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
    static final String METHOD = "Mcp-Method";
    static final String NAME = "Mcp-Name";
    private static final String BASE64_PREFIX = "=?base64?";
    private static final String BASE64_SUFFIX = "?=";
    /** The encoding's form, as messages name it. */
    private static final String BASE64_FORM = BASE64_PREFIX + "…" + BASE64_SUFFIX;
    /**
     * The longest {@code Mcp-Param-*} value read (as sent, before decoding): far above any
     * argument worth routing on, and the HTTP server's header size limit is the hard bound.
     */
    static final int MAX_PARAM_LENGTH = 4096;
    /** A decimal number without an exponent: what a header mirroring an integer can hold. */
    private static final Pattern PLAIN_NUMBER = Pattern.compile("-?[0-9]{1,400}(\\.[0-9]{1,400})?");
    /** The longest number, as the body writes it, compared with a header's (the pattern's bound). */
    private static final int MAX_NUMBER_LENGTH = 802;

    private StandardHeaders() {
    }

    /** Throws a HeaderMismatch error when a required header is missing or differs from the body. */
    static void check(MultiMap headers, String method, JsonObject params, String metaVersion) {
        String version = trimmed(standard(headers, PROTOCOL_VERSION));
        if (version == null) {
            throw mismatch("the " + PROTOCOL_VERSION + " header is required");
        }
        if (!version.equals(metaVersion)) {
            throw mismatch(PROTOCOL_VERSION + " header '" + CallerText.cut(version) + "' does not match _meta "
                    + RequestMeta.PROTOCOL_VERSION + " '" + CallerText.cut(metaVersion) + "'");
        }
        String methodHeader = trimmed(standard(headers, METHOD));
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
        String nameHeader = trimmed(standard(headers, NAME));
        if (nameHeader == null) {
            throw mismatch("the " + NAME + " header is required for " + method);
        }
        String decoded = decoded(nameHeader);
        if (decoded == null) {
            throw mismatch(NAME + " header is not valid " + BASE64_FORM + " encoding");
        }
        if (!decoded.equals(bodyName)) {
            throw mismatch(NAME + " header '" + CallerText.cut(decoded) + "' does not match body value '"
                    + CallerText.cut(bodyName) + "'");
        }
    }

    /**
     * A standard header's one value, trimmed ({@link #single}), holding only what a header value may
     * carry. The HTTP server reads other bytes as ISO-8859-1, which an intermediary reading UTF-8
     * would see differently, so such a value is refused rather than compared.
     */
    private static String standard(MultiMap headers, String name) {
        String value = single(headers, name);
        if (value != null && !visibleAscii(value)) {
            throw mismatch(name + " header contains characters a header value cannot carry"
                    + (NAME.equals(name) ? " (use the " + BASE64_FORM + " encoding)" : ""));
        }
        return value == null ? null : value.trim();
    }

    /**
     * A header's one value as sent (null when absent). Sent twice, it is refused: an intermediary
     * may route on one copy while this server would check the other.
     */
    private static String single(MultiMap headers, String name) {
        List<String> sent = headers.getAll(name);
        if (sent.size() > 1) {
            throw mismatch("the " + name + " header was sent more than once");
        }
        return sent.isEmpty() ? null : sent.get(0);
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

    /**
     * Checks the {@code Mcp-Param-*} headers of a {@code tools/call} against its arguments: for
     * each argument the tool declares {@code x-mcp-header}, a value in the body must come with its
     * header, equal to it once decoded (integers compared as numbers, booleans as {@code true} /
     * {@code false}), and a header must not come without a value to mirror (absent or null). Throws
     * a HeaderMismatch error naming the header and the argument. Headers the tool does not declare
     * are ignored.
     */
    static void checkParams(MultiMap headers, JsonObject arguments, List<MirroredParam> declared) {
        for (MirroredParam param : declared) {
            Object body = param.valueIn(arguments);
            String sent = single(headers, param.header());
            String mirrored = mirrored(body);
            if (sent == null) {
                if (mirrored != null) {
                    throw mismatch("the " + param.header() + " header is required: the body sets argument '"
                            + CallerText.cut(param.argument()) + "'");
                }
                continue;
            }
            if (sent.length() > MAX_PARAM_LENGTH) {
                throw mismatch(param.header() + " header is longer than " + MAX_PARAM_LENGTH + " characters");
            }
            if (!visibleAscii(sent)) {
                throw mismatch(param.header() + " header contains characters a header value cannot carry"
                        + " (use the " + BASE64_FORM + " encoding)");
            }
            String raw = sent.trim();
            String value = decoded(raw);
            if (value == null) {
                throw mismatch(param.header() + " header is not valid " + BASE64_FORM + " encoding");
            }
            if (mirrored == null) {
                throw mismatch(param.header() + " header is set but the body has no string, integer or boolean value for argument '"
                        + CallerText.cut(param.argument()) + "'");
            }
            if (!(body instanceof Number ? sameNumber(value, (Number) body) : value.equals(mirrored))) {
                throw mismatch(param.header() + " header '" + CallerText.cut(value) + "' does not match argument '"
                        + CallerText.cut(param.argument()) + "' value '" + CallerText.cut(mirrored) + "'");
            }
        }
    }

    /**
     * An argument's value as its header carries it (string as is, integer in decimal, boolean as
     * {@code true}/{@code false}); null when nothing is mirrored (absent, null, or an object or
     * array, which a client cannot mirror: the tool's own checks refuse those).
     */
    private static String mirrored(Object body) {
        if (body instanceof String) {
            return (String) body;
        }
        if (body instanceof Boolean) {
            return body.toString();
        }
        if (body instanceof Number) {
            // as the body wrote it (for messages): sameNumber compares the values
            return body.toString();
        }
        return null;
    }

    /**
     * Whether a header value is the same number as the body's ({@code 42.0} and {@code 42} are).
     * Both sides are bounded before they are parsed: a number longer than any header may hold
     * matches nothing.
     */
    private static boolean sameNumber(String header, Number body) {
        String text = body.toString();
        if (text.length() > MAX_NUMBER_LENGTH || !PLAIN_NUMBER.matcher(header).matches()) {
            return false;
        }
        BigDecimal h = number(header);
        BigDecimal b = number(text);
        return h != null && b != null && h.compareTo(b) == 0;
    }

    private static BigDecimal number(String text) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Whether a value holds only what an HTTP field value may: visible ASCII, space and tab. */
    private static boolean visibleAscii(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /**
     * A header value with its Base64 sentinel encoding undone (a value without both markers is
     * literal); null when the encoding is broken: characters outside the standard alphabet,
     * missing or misplaced padding, bits set past the last byte, or bytes that are not UTF-8.
     */
    static String decoded(String value) {
        if (!value.startsWith(BASE64_PREFIX) || !value.endsWith(BASE64_SUFFIX)
                || value.length() < BASE64_PREFIX.length() + BASE64_SUFFIX.length()) {
            return value;
        }
        String encoded = value.substring(BASE64_PREFIX.length(), value.length() - BASE64_SUFFIX.length());
        if (encoded.length() % 4 != 0) {
            return null; // the JDK decoder accepts missing padding
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            if (!Base64.getEncoder().encodeToString(bytes).equals(encoded)) {
                return null; // non-canonical: bits set in the padding
            }
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
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
