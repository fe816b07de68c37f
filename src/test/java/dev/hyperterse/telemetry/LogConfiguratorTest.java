package dev.hyperterse.telemetry;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.status.NopStatusListener;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogConfiguratorTest {

    @Test
    void setsUpWhatLogbackXmlDid() {
        LoggerContext context = new LoggerContext();
        LogConfigurator.apply(context);
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        assertEquals(Level.INFO, root.getLevel());
        assertEquals(Level.WARN, context.getLogger("io.netty").getLevel());
        assertEquals(Level.WARN, context.getLogger("com.hazelcast").getLevel());
        assertEquals(Level.ERROR, context.getLogger("com.hazelcast.cp.CPSubsystem").getLevel());
        assertEquals(Level.ERROR, context.getLogger("io.micrometer.core.instrument.MeterRegistry").getLevel());
        assertEquals(Level.ERROR, context.getLogger("com.github.benmanes.caffeine.cache.LocalAsyncCache").getLevel());
        assertEquals(Level.ERROR, context.getLogger("ai.djl").getLevel());
        // "You are running with Java 23 or later. To make full use of the Vector API, please update Apache Lucene."
        assertEquals(Level.ERROR, context.getLogger("org.apache.lucene.internal.vectorization.VectorizationProvider")
                .getEffectiveLevel());
        assertTrue(context.getStatusManager().getCopyOfStatusListenerList().stream()
                .anyMatch(l -> l instanceof NopStatusListener));

        Appender<ILoggingEvent> appender = root.getAppender(LogConfigurator.APPENDER);
        ConsoleAppender<ILoggingEvent> console = assertInstanceOf(ConsoleAppender.class, appender);
        assertTrue(console.isStarted());
        assertEquals("System.err", console.getTarget());
        LayoutWrappingEncoder<ILoggingEvent> encoder =
                assertInstanceOf(LayoutWrappingEncoder.class, console.getEncoder());

        Logger logger = context.getLogger("dev.hyperterse.server.Pipeline");
        LoggingEvent event = new LoggingEvent("fqcn", logger, Level.WARN, "cannot reach postgres://app:pw@db/shop",
                new IOException("refused; token=abc"), null);
        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);
        assertTrue(line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN  Pipeline - "
                + "cannot reach postgres://app:\\*\\*\\*@db/shop\n"
                + "  caused by java.io.IOException: refused; token=\\*\\*\\*\n"), line);

        logger.setLevel(Level.DEBUG);
        String debug = new String(encoder.encode(event), StandardCharsets.UTF_8);
        assertTrue(debug.contains("\tat dev.hyperterse.telemetry.LogConfiguratorTest"), debug);
    }

    @Test
    void isFoundByLogbackAndStepsAsideForAConfigurationFile() {
        assertTrue(ServiceLoader.load(Configurator.class).stream()
                .anyMatch(p -> p.type() == LogConfigurator.class));
        // the tests' logback-test.xml is on the class path: logback reads it, as it would a
        // -Dlogback.configurationFile
        LoggerContext context = new LoggerContext();
        LogConfigurator configurator = new LogConfigurator();
        configurator.setContext(context);
        assertEquals(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY, configurator.configure(context));
        assertFalse(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext());
    }
}
