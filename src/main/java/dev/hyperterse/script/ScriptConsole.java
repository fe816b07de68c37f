package dev.hyperterse.script;

import dev.hyperterse.model.VisibleText;

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
                ? VisibleText.escape(text.substring(0, LINE_CHARS)) + " (truncated, " + text.length() + " characters)"
                : VisibleText.escape(text);
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
}
