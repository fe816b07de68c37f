package dev.hyperterse.server;

import org.junit.jupiter.api.Test;

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
}
