package dev.hyperterse.telemetry;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import dev.hyperterse.model.Redaction;
import dev.hyperterse.model.VisibleText;
import org.slf4j.event.KeyValuePair;

import java.util.List;

/**
 * What both log formats agree on: messages and key-value pairs are redacted, and a stack trace is
 * written only when the event's logger is at debug; at other levels an exception is one line
 * (its type and redacted message). Every piece is cut before it is redacted (messages and values
 * to {@link Redaction#MAX_CHARS}, a stack trace to {@link #STACK_CHARS}), so a line costs the same
 * however long the text a caller managed to put in it: lines are written on the thread that
 * logged them, often an event loop.
 */
final class LogLines {
    /** A debug stack trace: room for the deepest real one, not for a message quoted in it without end. */
    static final int STACK_CHARS = 65_536;

    private LogLines() {
    }

    /**
     * The message with its key-value pairs appended ({@code key="value"}), redacted, for a text
     * line: a line break in the message goes on as an indented line ({@link #continued}).
     */
    static String message(ILoggingEvent event) {
        String message = continued(Redaction.secrets(event.getFormattedMessage()));
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs == null || pairs.isEmpty()) {
            return message;
        }
        StringBuilder out = new StringBuilder(message == null ? "" : message);
        for (KeyValuePair kv : pairs) {
            // values carry what callers sent (a failed call's reason quotes the input): escaped, a
            // line break cannot start a forged line nor a backslash end the value early
            out.append(' ').append(kv.key).append("=\"");
            VisibleText.quotedInto(value(kv), out);
            out.append('"');
        }
        return out.toString();
    }

    /**
     * A message's text for a text line. A message may quote what a caller sent (a method name, at
     * debug), so a line break in it must not start what reads as a log line of its own: each line
     * after the first is indented with {@code "  | "}, as no log line begins; other control
     * characters (a terminal's escapes) are written as {@code \\uXXXX}. Messages of several lines
     * (a project's problems) stay readable.
     */
    static String continued(String message) {
        if (message == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            boolean lineBreak = c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029';
            if (out == null && (lineBreak || (Character.isISOControl(c) && c != '\t'))) {
                out = new StringBuilder(message.length() + 16).append(message, 0, i);
            }
            if (out == null) {
                continue;
            }
            if (c == '\r' && i + 1 < message.length() && message.charAt(i + 1) == '\n') {
                continue;
            }
            if (lineBreak) {
                out.append("\n  | ");
            } else if (Character.isISOControl(c) && c != '\t') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out == null ? message : out.toString();
    }

    static String value(KeyValuePair kv) {
        if (kv.value == null) {
            return "";
        }
        return Redaction.sensitiveName(kv.key) ? Redaction.MASK : Redaction.secrets(String.valueOf(kv.value));
    }

    /** {@code Type: message} of the exception, redacted, or null when there is none. */
    static String error(ILoggingEvent event) {
        IThrowableProxy t = event.getThrowableProxy();
        if (t == null) {
            return null;
        }
        String message = t.getMessage();
        return t.getClassName() + (message == null ? "" : ": " + Redaction.secrets(message));
    }

    /** The full stack trace (redacted) when the event's logger is at debug, else null. */
    static String stack(ILoggingEvent event, LoggerContext context) {
        IThrowableProxy t = event.getThrowableProxy();
        if (t == null || context == null) {
            return null;
        }
        Logger logger = context.getLogger(event.getLoggerName());
        return logger.isDebugEnabled() ? Redaction.secrets(ThrowableProxyUtil.asString(t), STACK_CHARS) : null;
    }
}
