package dev.hyperterse.search;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** Where the add-on is not on the class path (a jar copied alone), there is no model, and the reason names the file and folder. */
    @Test
    void withoutTheAddOnThereIsNoModelAndTheReasonSaysWhereItBelongs() throws Exception {
        // the platform's classes only: what a server whose add-on is missing reaches of the models
        try (java.net.URLClassLoader alone = new java.net.URLClassLoader(new java.net.URL[0],
                ClassLoader.getPlatformClassLoader())) {
            assertTrue(BundledEmbedder.find(alone).isEmpty());
        }
        // the test class path holds the add-on's parts, as a server whose add-on lies beside its jar does
        assertEquals(2, BundledEmbedder.find(BundledEmbedder.class.getClassLoader()).orElseThrow().models().size());
        assertEquals("the add-on hyperterse-semantic.jar (its models and ONNX Runtime, built with the server as"
                        + " target/hyperterse-semantic.jar and held by the image) beside hyperterse.jar in "
                        + java.nio.file.Path.of("/opt/hyperterse"),
                BundledEmbedder.missing(java.nio.file.Path.of("/opt/hyperterse", "hyperterse.jar")));
        assertTrue(BundledEmbedder.missing(null).endsWith(" on the class path"));
    }
}
