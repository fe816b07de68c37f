package dev.hyperterse.telemetry;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;

/**
 * {@code %debugEx} in the text log pattern: a stack trace only when the event's logger is at
 * debug; otherwise the exception's type and redacted message on one indented line. Being a
 * throwable converter, it also stops logback from appending its own full {@code %ex}.
 */
public final class DebugThrowableConverter extends ThrowableHandlingConverter {
    @Override
    public String convert(ILoggingEvent event) {
        String stack = LogLines.stack(event, (LoggerContext) getContext());
        if (stack != null) {
            return stack;
        }
        String error = LogLines.error(event);
        // the message may quote a caller's text: its line breaks continue this line, as a message's do
        return error == null ? "" : "  caused by " + LogLines.continued(error) + CoreConstants.LINE_SEPARATOR;
    }
}
