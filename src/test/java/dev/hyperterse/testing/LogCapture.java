package dev.hyperterse.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a logger (and the loggers below it) logs while a test runs, kept in memory; {@link #close()}
 * detaches it and puts back the level {@link #atLevel} changed.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private Level levelBefore;
    private boolean levelChanged;

    private LogCapture(Logger logger) {
        this.logger = logger;
        appender.start();
        logger.addAppender(appender);
    }

    /** Everything the process logs. */
    public static LogCapture root() {
        return of(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    public static LogCapture of(String loggerName) {
        return new LogCapture((Logger) LoggerFactory.getLogger(loggerName));
    }

    public static LogCapture of(Class<?> loggerClass) {
        return of(loggerClass.getName());
    }

    /** Sets the logger's level (whatever an earlier test left it at) until {@link #close()}. */
    public LogCapture atLevel(Level level) {
        if (!levelChanged) {
            levelBefore = logger.getLevel();
            levelChanged = true;
        }
        logger.setLevel(level);
        return this;
    }

    /** The events so far (appends hold the appender's lock, so this copy is consistent). */
    public List<ILoggingEvent> events() {
        synchronized (appender) {
            return new ArrayList<>(appender.list);
        }
    }

    /** The formatted messages so far. */
    public List<String> messages() {
        return events().stream().map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
    }

    /** The formatted messages so far that contain {@code fragment}. */
    public List<String> messagesContaining(String fragment) {
        return messages().stream().filter(m -> m.contains(fragment)).collect(Collectors.toList());
    }

    /** Forgets the events so far. */
    public void clear() {
        synchronized (appender) {
            appender.list.clear();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        if (levelChanged) {
            logger.setLevel(levelBefore);
        }
    }
}
