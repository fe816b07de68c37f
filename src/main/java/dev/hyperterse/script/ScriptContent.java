package dev.hyperterse.script;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A script's result as MCP content blocks rather than rows: what the sandbox's {@code Image},
 * {@code Audio}, {@code Text}, {@code BlobResource} and {@code ResourceLink} made, or, for a tool
 * that declares {@code output: content}, whatever it returned ({@link #fromValue}). The blocks
 * are checked here, on the way out of the sandbox: types, media types, base64 and URIs.
 */
public record ScriptContent(JsonArray blocks) {
    private static final Pattern MEDIA_TYPE =
            Pattern.compile("[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*");

    public ScriptContent {
        for (int i = 0; i < blocks.size(); i++) {
            check(blocks.getValue(i), i);
        }
    }

    /**
     * What a tool that declares {@code output: content} answers for a result of plain JSON: a
     * string is a text block, an array one block per item (strings as text, anything else as its
     * JSON text), null none, and any other value its JSON text.
     */
    public static ScriptContent fromValue(Object value) {
        if (value instanceof ScriptContent) {
            return (ScriptContent) value;
        }
        JsonArray blocks = new JsonArray();
        if (value instanceof JsonArray) {
            for (Object item : (JsonArray) value) {
                blocks.add(text(item));
            }
        } else if (value != null) {
            blocks.add(text(value));
        }
        return new ScriptContent(blocks);
    }

    private static JsonObject text(Object value) {
        String text = value instanceof String ? (String) value : io.vertx.core.json.Json.encode(value);
        return new JsonObject().put("type", "text").put("text", text);
    }

    private static void check(Object value, int index) {
        String at = "content[" + index + "]";
        if (!(value instanceof JsonObject)) {
            throw new ScriptFailure("the result's " + at + " is not a content block");
        }
        JsonObject block = (JsonObject) value;
        String type = String.valueOf(block.getValue("type"));
        switch (type) {
            case "text":
                string(block, "text", at);
                break;
            case "image":
            case "audio":
                mediaType(string(block, "mimeType", at), type, at);
                base64(string(block, "data", at), at + ".data");
                break;
            case "resource":
                Object resource = block.getValue("resource");
                if (!(resource instanceof JsonObject)) {
                    throw new ScriptFailure("the result's " + at + " has no resource");
                }
                JsonObject contents = (JsonObject) resource;
                uri(string(contents, "uri", at + ".resource"), at + ".resource.uri");
                if (contents.getValue("mimeType") != null) {
                    mediaType(string(contents, "mimeType", at + ".resource"), null, at + ".resource");
                }
                if (contents.getValue("blob") != null) {
                    base64(string(contents, "blob", at + ".resource"), at + ".resource.blob");
                } else {
                    string(contents, "text", at + ".resource");
                }
                break;
            case "resource_link":
                uri(string(block, "uri", at), at + ".uri");
                string(block, "name", at);
                if (block.getValue("mimeType") != null) {
                    mediaType(string(block, "mimeType", at), null, at);
                }
                break;
            default:
                throw new ScriptFailure("the result's " + at + " has the unknown content type '"
                        + dev.hyperterse.model.CallerText.cut(type) + "'");
        }
    }

    private static String string(JsonObject block, String key, String at) {
        Object value = block.getValue(key);
        if (!(value instanceof String)) {
            throw new ScriptFailure("the result's " + at + " has no " + key + " (a string)");
        }
        return (String) value;
    }

    private static void mediaType(String given, String family, String at) {
        if (!MEDIA_TYPE.matcher(given).matches()
                || family != null && !given.toLowerCase(Locale.ROOT).startsWith(family + "/")) {
            throw new ScriptFailure("the result's " + at + ".mimeType '" + dev.hyperterse.model.CallerText.cut(given)
                    + "' is not " + (family == null ? "a media type" : "an " + family + "/… media type"));
        }
    }

    /** Standard base64 with padding, as MCP carries binary data; names the first character that is not. */
    static void base64(String data, String at) {
        int n = data.length();
        if (n % 4 != 0) {
            throw new ScriptFailure("the result's " + at + " is not base64: its length " + n + " is not a multiple of 4");
        }
        for (int i = 0; i < n; i++) {
            char c = data.charAt(i);
            boolean ok = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
                    || c == '=' && i >= n - 2 && (i == n - 1 || data.charAt(n - 1) == '=');
            if (!ok) {
                throw new ScriptFailure("the result's " + at + " is not base64: character " + (i + 1)
                        + " is not of the base64 alphabet");
            }
        }
    }

    private static void uri(String given, String at) {
        try {
            URI uri = new URI(given);
            if (uri.getScheme() == null) {
                throw new URISyntaxException(given, "no scheme");
            }
        } catch (URISyntaxException e) {
            throw new ScriptFailure("the result's " + at + " '" + dev.hyperterse.model.CallerText.cut(given)
                    + "' is not an absolute URI");
        }
    }
}
