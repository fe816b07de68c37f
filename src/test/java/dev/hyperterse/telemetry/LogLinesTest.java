package dev.hyperterse.telemetry;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both log formats: fields, key-value pairs, redaction, and stack traces only at debug. */
class LogLinesTest {
    LoggerContext context;
    Logger logger;

    @BeforeEach
    void setUp() {
        context = new LoggerContext();
        logger = context.getLogger("dev.hyperterse.pipeline.Pipeline");
        logger.setLevel(Level.INFO);
    }

    private LoggingEvent failedCall(Throwable cause) {
        LoggingEvent event = new LoggingEvent("fqcn", logger, Level.WARN, "call failed", cause, null);
        event.addKeyValuePair(new KeyValuePair("tool", "get-customer"));
        event.addKeyValuePair(new KeyValuePair("stage", "execution"));
        event.addKeyValuePair(new KeyValuePair("reason", "execution failed: cannot connect to postgres://app:s3cret@db/shop"));
        event.addKeyValuePair(new KeyValuePair("api_key", "k-123"));
        return event;
    }

    @Test
    void jsonLinesCarryTheFieldsRedacted() {
        JsonLineLayout layout = new JsonLineLayout();
        layout.setContext(context);
        layout.start();
        String line = layout.doLayout(failedCall(new IOException("refused; password=hunter2")));
        assertTrue(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, "one line: " + line);
        JsonObject json = new JsonObject(line);
        assertEquals("WARN", json.getString("level"));
        assertEquals("dev.hyperterse.pipeline.Pipeline", json.getString("logger"));
        assertEquals("call failed", json.getString("message"));
        assertEquals("get-customer", json.getString("tool"));
        assertEquals("execution", json.getString("stage"));
        assertEquals("execution failed: cannot connect to postgres://app:***@db/shop", json.getString("reason"));
        assertEquals("***", json.getString("api_key"));
        assertEquals("java.io.IOException: refused; password=***", json.getString("error"));
        assertNull(json.getValue("stack"), "no stack trace above debug");
        assertTrue(json.getString("time").endsWith("Z"));
        assertFalse(line.contains("hunter2") || line.contains("s3cret") || line.contains("k-123"), line);

        logger.setLevel(Level.DEBUG);
        JsonObject debug = new JsonObject(layout.doLayout(failedCall(new IOException("boom"))));
        assertTrue(debug.getString("stack").contains("at dev.hyperterse.telemetry.LogLinesTest"), debug.encode());
    }

    @Test
    void textLinesShowPairsAndAStackTraceOnlyAtDebug() {
        PatternLayout layout = textLayout();

        String line = layout.doLayout(failedCall(new IOException("refused; token=abc")));
        assertEquals("WARN Pipeline - call failed tool=\"get-customer\" stage=\"execution\" "
                + "reason=\"execution failed: cannot connect to postgres://app:***@db/shop\" api_key=\"***\"\n"
                + "  caused by java.io.IOException: refused; token=***\n", line);

        logger.setLevel(Level.DEBUG);
        String debug = layout.doLayout(failedCall(new IOException("boom")));
        assertTrue(debug.contains("java.io.IOException: boom") && debug.contains("\tat dev.hyperterse"), debug);
        assertEquals("INFO Pipeline - plain\n", layout.doLayout(
                new LoggingEvent("fqcn", logger, Level.INFO, "plain", null, null)));
    }

    @Test
    void aValueCannotEndItsTextLineOrStartAForgedOne() {
        Map<String, String> rules = new HashMap<>();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        context.putObject(ch.qos.logback.core.CoreConstants.PATTERN_RULE_REGISTRY, rules);
        rules.put("safeMsg", SafeMessageConverter.class.getName());
        layout.setPattern("%level %logger{0} - %safeMsg%n");
        layout.start();
        // a failed call's reason quotes the caller's input as it was sent
        LoggingEvent event = new LoggingEvent("fqcn", logger, Level.INFO, "call failed", null, null);
        event.addKeyValuePair(new KeyValuePair("reason", "expected int, got \"a\n00:00:00.000 ERROR Fake - forged\r\u001b[31m\t\u2028\""));
        String line = layout.doLayout(event);
        assertEquals("INFO Pipeline - call failed reason=\"expected int, got \\\"a\\n00:00:00.000 ERROR Fake - forged"
                + "\\r\\u001b[31m\\t\\u2028\\\"\"\n", line);
        // a backslash before a quote cannot end the value early and add a pair of the caller's making
        LoggingEvent pair = new LoggingEvent("fqcn", logger, Level.INFO, "call failed", null, null);
        pair.addKeyValuePair(new KeyValuePair("reason", "x\\\" tool=\"admin"));
        assertEquals("INFO Pipeline - call failed reason=\"x\\\\\\\" tool=\\\"admin\"\n", layout.doLayout(pair));
        // nor can a caller's text in the message itself start a line: the next line is indented
        LoggingEvent message = new LoggingEvent("fqcn", logger, Level.DEBUG, "notification {}", null,
                new Object[] {"x\r\n00:00:00.000 ERROR Fake - forged\u001b[2J"});
        assertEquals("DEBUG Pipeline - notification x\n  | 00:00:00.000 ERROR Fake - forged\\u001b[2J\n",
                layout.doLayout(message));
    }

    /**
     * Above debug an exception is one "caused by" line: its message may quote what a caller sent
     * (a decoder's complaint quotes the input), so a line break in it must not start a line that
     * reads as a log line of its own, as in a message.
     */
    @Test
    void anExceptionMessageCannotStartAForgedLine() {
        PatternLayout layout = textLayout();
        LoggingEvent event = new LoggingEvent("fqcn", logger, Level.ERROR, "Unhandled exception",
                new IllegalArgumentException("bad input 'a\r\n00:00:00.000 ERROR Fake - forged\u001b[2J'"), null);
        assertEquals("ERROR Pipeline - Unhandled exception\n"
                + "  caused by java.lang.IllegalArgumentException: bad input 'a\n  | 00:00:00.000 ERROR Fake - forged"
                + "\\u001b[2J'\n", layout.doLayout(event));
    }

    @Test
    void longMessagesValuesAndErrorsAreCutBeforeTheyAreRedacted() {
        JsonLineLayout layout = new JsonLineLayout();
        layout.setContext(context);
        layout.start();
        String value = "a b" + "a".repeat(1_000_000);
        LoggingEvent event = new LoggingEvent("fqcn", logger, Level.WARN, "call failed: " + value,
                new IOException("password=" + "a".repeat(1_000_000)), null);
        event.addKeyValuePair(new KeyValuePair("reason", value));
        String line = layout.doLayout(event);
        assertTrue(line.length() < 3 * (dev.hyperterse.model.Redaction.MAX_CHARS + 100), "length " + line.length());
        JsonObject json = new JsonObject(line);
        assertTrue(json.getString("message").endsWith("… (truncated, " + (value.length() + 13) + " chars)"));
        assertTrue(json.getString("reason").endsWith("… (truncated, " + value.length() + " chars)"));
        assertEquals("java.io.IOException: password=***… (truncated, 1000009 chars)",
                json.getString("error"));
    }

    /** The packaged text layout writes what logback's pattern layout writes from {@link LogConfigurator#PATTERN}. */
    @Test
    void theTextLineIsThePatternsLine() {
        Map<String, String> rules = new HashMap<>();
        context.putObject(ch.qos.logback.core.CoreConstants.PATTERN_RULE_REGISTRY, rules);
        rules.put("safeMsg", SafeMessageConverter.class.getName());
        rules.put("debugEx", DebugThrowableConverter.class.getName());
        PatternLayout pattern = new PatternLayout();
        pattern.setContext(context);
        pattern.setPattern(LogConfigurator.PATTERN);
        pattern.start();
        TextLineLayout text = new TextLineLayout();
        text.setContext(context);
        assertEquals("", text.doLayout(failedCall(null)), "not started");
        text.start();

        Logger plain = context.getLogger("NoPackage");
        java.util.List<LoggingEvent> events = new java.util.ArrayList<>();
        for (Level level : new Level[] {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR}) {
            events.add(new LoggingEvent("fqcn", logger, level, "at {} with {}", null, new Object[] {level, "x\ny"}));
            events.add(new LoggingEvent("fqcn", plain, level, null, null, null));
        }
        events.add(failedCall(new IOException("refused; token=abc")));
        events.add(failedCall(null));
        events.add(new LoggingEvent("fqcn", logger, Level.ERROR, "nested", new IllegalStateException("outer",
                new IOException("inner\r\nforged")), null));
        LoggingEvent old = new LoggingEvent("fqcn", logger, Level.INFO, "long ago", null, null);
        old.setTimeStamp(0);
        events.add(old);
        for (Level at : new Level[] {Level.INFO, Level.DEBUG}) {
            logger.setLevel(at);
            for (LoggingEvent event : events) {
                assertEquals(pattern.doLayout(event), text.doLayout(event), event.getMessage());
            }
        }
    }

    /** The text format's layout: messages through SafeMessageConverter, exceptions through DebugThrowableConverter. */
    private PatternLayout textLayout() {
        Map<String, String> rules = new HashMap<>();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        context.putObject(ch.qos.logback.core.CoreConstants.PATTERN_RULE_REGISTRY, rules);
        rules.put("safeMsg", SafeMessageConverter.class.getName());
        rules.put("debugEx", DebugThrowableConverter.class.getName());
        layout.setPattern("%level %logger{0} - %safeMsg%n%debugEx");
        layout.start();
        return layout;
    }
}
