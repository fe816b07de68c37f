package dev.hyperterse.script;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one context's {@code console} output goes: the server log, tagged with the script, within
 * bounds. A script controls what it logs and how often, and often logs what a caller sent, so:
 * <ul>
 *   <li>a line is cut at {@link #LINE_CHARS} characters ("(truncated, N characters)");</li>
 *   <li>a call logs at most {@link #CALL_LINES} lines and {@link #CALL_CHARS} characters, then one
 *   "(further console output dropped)" line and nothing more;</li>
 *   <li>line breaks, terminal escape codes and other control characters are written as visible
 *   escapes ({@code \n}, {@code &#92;u001b}), so a script can neither forge log lines nor drive the
 *   terminal reading the log.</li>
 * </ul>
 * So the work each {@code console.log} costs the host, the logger's redaction included, is
 * bounded whatever the script passes. One context runs on one thread at a time.
 */
final class ScriptConsole {
    private static final Logger LOG = LoggerFactory.getLogger("dev.hyperterse.script.console");
    /** Longest line written; the bootstrap reads no more than this (plus one) of each argument. */
    static final int LINE_CHARS = 2 * 1024;
    /** Most lines one call writes. */
    static final int CALL_LINES = 200;
    /** Most characters one call writes. */
    static final int CALL_CHARS = 64 * 1024;

    private final String script;
    private int lines;
    private long chars;
    private boolean dropped;

    ScriptConsole(String script) {
        this.script = script;
    }

    /** A new call starts with a fresh budget. */
    void begin() {
        lines = 0;
        chars = 0;
        dropped = false;
    }

    void write(String level, String text) {
        if (dropped) {
            return;
        }
        if (lines >= CALL_LINES || chars >= CALL_CHARS) {
            dropped = true;
            log("warn", "(further console output dropped: a call may write " + CALL_LINES + " lines and "
                    + CALL_CHARS + " characters)");
            return;
        }
        String line = text.length() > LINE_CHARS
                ? escape(text.substring(0, LINE_CHARS)) + " (truncated, " + text.length() + " characters)"
                : escape(text);
        lines++;
        chars += Math.min(text.length(), LINE_CHARS);
        log(level, line);
    }

    private void log(String level, String line) {
        switch (level) {
            case "debug":
                LOG.debug("[{}] {}", script, line);
                break;
            case "warn":
                LOG.warn("[{}] {}", script, line);
                break;
            case "error":
                LOG.error("[{}] {}", script, line);
                break;
            default:
                LOG.info("[{}] {}", script, line);
        }
    }

    /**
     * Control characters (C0, DEL, C1) and the Unicode line and paragraph separators as visible
     * escapes: {@code \n}, {@code \r}, {@code \t}, else {@code &#92;u00XX}.
     */
    static String escape(String text) {
        int first = -1;
        for (int i = 0; i < text.length(); i++) {
            if (needsEscape(text.charAt(i))) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!needsEscape(c)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
