package dev.hyperterse.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import dev.hyperterse.telemetry.JsonLineLayout;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import java.util.Locale;

/**
 * The log level scheme of the project format (1 error, 2 warn, 3 info, 4 debug) and the two
 * formats: text for terminals ({@link dev.hyperterse.telemetry.LogConfigurator}) and JSON lines
 * for log collectors.
 */
final class Logging {
    static final String TEXT = "text";
    static final String JSON = "json";

    private Logging() {
    }

    static void install() {
        // libraries that log through java.util.logging end up in the same place
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        // so does an exception no code caught, which the JVM would print raw to standard error
        // (breaking --log-format json's one object per line)
        Thread.setDefaultUncaughtExceptionHandler(Logging::uncaught);
    }

    /**
     * A task refused by an event loop that has stopped is the end of a shutdown racing work still
     * finishing on a worker: nothing is lost, so it is logged at debug; anything else at error.
     */
    static void uncaught(Thread thread, Throwable e) {
        org.slf4j.Logger log = LoggerFactory.getLogger("dev.hyperterse.uncaught");
        if (e instanceof java.util.concurrent.RejectedExecutionException && String.valueOf(e.getMessage())
                .contains("terminated")) {
            log.debug("thread {}: a task came after its event loop stopped: {}", thread.getName(), e.toString());
            return;
        }
        log.error("thread {} stopped on an exception nothing caught: {}", thread.getName(), e.toString(), e);
    }

    static void setLevel(int level) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(toLogback(level));
    }

    /** {@code text} or {@code json} (case-insensitive); null for anything else. */
    static String format(String written) {
        if (written == null) {
            return null;
        }
        String f = written.strip().toLowerCase(Locale.ROOT);
        return f.equals(TEXT) || f.equals(JSON) ? f : null;
    }

    /**
     * Switches the packaged console appender to {@code format} ({@code text} or {@code json});
     * anything else, or a format already in use, changes nothing. {@code start} sets it before
     * anything it does logs, then again from the compiled project (which normally agrees). A
     * logback configuration file given by the operator has no such appender and is left alone.
     */
    static void setFormat(String format) {
        if (format == null) {
            return;
        }
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Appender<ILoggingEvent> appender = root.getAppender(dev.hyperterse.telemetry.LogConfigurator.APPENDER);
        if (!(appender instanceof ConsoleAppender)) {
            return;
        }
        ConsoleAppender<ILoggingEvent> console = (ConsoleAppender<ILoggingEvent>) appender;
        // the appender's own encoder says which format it writes: logging keeps no state of its own
        boolean writesJson = console.getEncoder() instanceof LayoutWrappingEncoder
                && ((LayoutWrappingEncoder<ILoggingEvent>) console.getEncoder()).getLayout() instanceof JsonLineLayout;
        if (writesJson == JSON.equals(format)) {
            return;
        }
        LoggerContext context = root.getLoggerContext();
        Encoder<ILoggingEvent> encoder;
        if (JSON.equals(format)) {
            JsonLineLayout layout = new JsonLineLayout();
            layout.setContext(context);
            layout.start();
            LayoutWrappingEncoder<ILoggingEvent> json = new LayoutWrappingEncoder<>();
            json.setContext(context);
            json.setLayout(layout);
            json.start();
            encoder = json;
        } else if (TEXT.equals(format)) {
            encoder = dev.hyperterse.telemetry.LogConfigurator.textEncoder(context);
        } else {
            return;
        }
        console.stop();
        console.setEncoder(encoder);
        console.start();
    }

    /**
     * The log level a setting written as {@code written} asks for (1 to 4), or null when it is
     * not one: for setting the level before the project is compiled, which checks the value.
     */
    static Integer level(String written) {
        if (written == null) {
            return null;
        }
        try {
            int level = Integer.parseInt(written.strip());
            return level >= 1 && level <= 4 ? level : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static Level toLogback(int level) {
        switch (level) {
            case 1:
                return Level.ERROR;
            case 2:
                return Level.WARN;
            case 4:
                return Level.DEBUG;
            default:
                return Level.INFO;
        }
    }
}
