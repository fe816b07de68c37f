package dev.hyperterse.model;

import java.util.Locale;
import java.util.Map;

/** Which resources are text and which travel as base64 blobs, and a type for a file by its extension. */
public final class MimeTypes {
    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("txt", "text/plain"), Map.entry("md", "text/markdown"), Map.entry("markdown", "text/markdown"),
            Map.entry("html", "text/html"), Map.entry("htm", "text/html"), Map.entry("css", "text/css"),
            Map.entry("csv", "text/csv"), Map.entry("json", "application/json"), Map.entry("xml", "application/xml"),
            Map.entry("yaml", "application/yaml"), Map.entry("yml", "application/yaml"),
            Map.entry("js", "text/javascript"), Map.entry("ts", "text/plain"), Map.entry("sql", "application/sql"),
            Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"), Map.entry("svg", "image/svg+xml"),
            Map.entry("pdf", "application/pdf"), Map.entry("wav", "audio/wav"), Map.entry("mp3", "audio/mpeg"),
            Map.entry("zip", "application/zip"));

    private MimeTypes() {
    }

    /** The type of a file name by its extension; {@code text/plain} when the extension says nothing. */
    public static String ofFileName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        String ext = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        return BY_EXTENSION.getOrDefault(ext, "text/plain");
    }

    /** Whether content of this type is sent as {@code text} rather than a base64 {@code blob}. */
    public static boolean isText(String mimeType) {
        String t = mimeType.toLowerCase(Locale.ROOT).split(";")[0].trim();
        return t.startsWith("text/") || t.endsWith("+json") || t.endsWith("+xml")
                || t.equals("application/json") || t.equals("application/xml") || t.equals("application/yaml")
                || t.equals("application/javascript") || t.equals("application/sql")
                || t.equals("application/x-yaml") || t.equals("image/svg+xml");
    }
}
