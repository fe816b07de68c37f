package dev.hyperterse.search;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BundledEmbedderTest {

    /** A model whose class cannot initialize here, as one whose native library has no build for the platform. */
    public static final class ModelWithoutItsNativeLibrary {
        static {
            if (Boolean.parseBoolean("true")) {
                throw new UnsatisfiedLinkError("no onnxruntime for this platform");
            }
        }

        public ModelWithoutItsNativeLibrary() {
        }
    }

    @Test
    void aModelThatCannotLoadSaysWhyEveryTimeAndIsNotTriedAgain() {
        BundledEmbedder embedder = new BundledEmbedder(ModelWithoutItsNativeLibrary.class,
                new BundledEmbedder.Known(ModelWithoutItsNativeLibrary.class.getName(), "no-such-model.onnx",
                        "no-such-tokenizer.json", "MEAN", "test"), "test");
        IllegalStateException first = assertThrows(IllegalStateException.class, embedder::load);
        assertTrue(first.getMessage().contains("java.lang.UnsatisfiedLinkError: no onnxruntime for this platform"),
                first.getMessage());
        // the JVM would now say only "Could not initialize class": the first reason stands
        assertSame(first, assertThrows(IllegalStateException.class, () -> embedder.embed("a query")));
        assertSame(first, assertThrows(IllegalStateException.class, embedder::load));
    }
}
