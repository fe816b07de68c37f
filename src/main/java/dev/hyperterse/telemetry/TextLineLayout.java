package dev.hyperterse.telemetry;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The text format's line, {@link LogConfigurator#PATTERN} written out in code: the local time
 * ({@code HH:mm:ss.SSS}), the level padded to five characters, the logger's simple name, the
 * message with its pairs, redacted ({@link LogLines#message}), and below it the exception: a
 * stack trace for loggers at debug, else one "caused by" line ({@link DebugThrowableConverter}).
 * Logback's pattern layout would give the same line, but parses the pattern and registers its
 * few dozen converters at every start.
 */
public final class TextLineLayout extends LayoutBase<ILoggingEvent> {
    private static final String[] PADDING = {"     ", "    ", "   ", "  ", " ", ""};
    private final DateTimeFormatter time = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
    private final DebugThrowableConverter exception = new DebugThrowableConverter();

    @Override
    public void start() {
        exception.setContext(getContext());
        exception.start();
        super.start();
    }

    @Override
    public String doLayout(ILoggingEvent event) {
        if (!isStarted()) {
            return CoreConstants.EMPTY_STRING;
        }
        StringBuilder line = new StringBuilder(128);
        time.formatTo(Instant.ofEpochMilli(event.getTimeStamp()), line);
        String level = event.getLevel().toString();
        line.append(' ').append(level).append(PADDING[Math.min(level.length(), 5)]).append(' ');
        String logger = event.getLoggerName();
        line.append(logger, logger.lastIndexOf('.') + 1, logger.length());
        line.append(" - ").append(LogLines.message(event)).append(CoreConstants.LINE_SEPARATOR);
        line.append(exception.convert(event));
        return line.toString();
    }
}
