package dev.hyperterse.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.hyperterse.testing.LogCapture;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SemanticSearchTest {

    @Test
    void theLogSaysWhyTheModelCouldNotRunWhereverTheMessageIs() {
        assertEquals("Failed to load onnx-runtime library",
                SemanticSearch.why(new IllegalStateException("Failed to load onnx-runtime library")));
        // a native library that does not load: an error, under an exception with no message
        assertEquals("java.lang.UnsatisfiedLinkError: no onnxruntime in java.library.path",
                SemanticSearch.why(new RuntimeException(null,
                        new UnsatisfiedLinkError("no onnxruntime in java.library.path"))));
        // a model class whose initialization failed: no message of its own
        assertEquals("java.lang.UnsatisfiedLinkError: no onnxruntime in java.library.path", SemanticSearch.why(
                new ExceptionInInitializerError(new UnsatisfiedLinkError("no onnxruntime in java.library.path"))));
        assertEquals("java.lang.NoClassDefFoundError", SemanticSearch.why(new NoClassDefFoundError()));
    }

    @Test
    void aReasonFromTheJarIsWarnedOfOncePerJvmNotAtEveryIndexBuild() {
        String why = "learned with static table A, not B (" + System.nanoTime() + ")";
        try (LogCapture log = LogCapture.of(SemanticSearch.class).atLevel(Level.DEBUG)) {
            for (int build = 0; build < 3; build++) {
                SemanticSearch.warnOnce("search: not the learned order: ", why);
            }
            SemanticSearch.warnOnce("search: not the learned order: ", why + " and more");
            List<ILoggingEvent> events = log.events();
            assertEquals(List.of(Level.WARN, Level.DEBUG, Level.DEBUG, Level.WARN),
                    events.stream().map(ILoggingEvent::getLevel).toList());
            assertEquals("search: not the learned order: " + why, events.get(0).getFormattedMessage());
            assertEquals("search: not the learned order: " + why + " (as before)", events.get(1).getFormattedMessage());
        }
    }
}
