package dev.hyperterse.telemetry;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %safeMsg} in the text log pattern: the message and its key-value pairs, with secrets
 * redacted (see {@link LogLines}).
 */
public final class SafeMessageConverter extends ClassicConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return LogLines.message(event);
    }
}
