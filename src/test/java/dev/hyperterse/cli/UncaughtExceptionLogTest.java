package dev.hyperterse.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.hyperterse.testing.LogCapture;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An exception no code caught goes to the log (one JSON object per line with --log-format json), not raw to stderr. */
class UncaughtExceptionLogTest {

    @Test
    void anUncaughtExceptionIsLoggedAsAnError() {
        try (LogCapture log = LogCapture.of("dev.hyperterse.uncaught").atLevel(Level.DEBUG)) {
            Logging.uncaught(new Thread("worker-7"), new IllegalStateException("broken"));
            List<ILoggingEvent> events = log.events();
            assertEquals(1, events.size());
            assertEquals(Level.ERROR, events.get(0).getLevel());
            assertTrue(events.get(0).getFormattedMessage().contains("worker-7"), events.get(0).getFormattedMessage());
            assertTrue(events.get(0).getFormattedMessage().contains("IllegalStateException: broken"));
        }
    }

    @Test
    void aTaskRefusedByAStoppedEventLoopIsOnlyDebug() {
        try (LogCapture log = LogCapture.of("dev.hyperterse.uncaught").atLevel(Level.DEBUG)) {
            Logging.uncaught(new Thread("vert.x-worker-thread-14"),
                    new RejectedExecutionException("event executor terminated"));
            assertEquals(List.of(Level.DEBUG), log.events().stream().map(ILoggingEvent::getLevel).toList());
        }
    }

    @Test
    void installingMakesItTheDefaultHandler() {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        try {
            Logging.install();
            try (LogCapture log = LogCapture.of("dev.hyperterse.uncaught").atLevel(Level.DEBUG)) {
                Thread.getDefaultUncaughtExceptionHandler().uncaughtException(Thread.currentThread(),
                        new IllegalArgumentException("x"));
                assertEquals(1, log.events().size());
            }
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
