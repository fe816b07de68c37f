package dev.hyperterse.search;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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

    /** An add-on of another release than the server is named with both versions; the same release, or none to compare, says nothing. */
    @Test
    void anAddOnOfAnotherReleaseIsNamedWithBothVersions(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path addOn = dir.resolve(BundledEmbedder.ADD_ON);
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.IMPLEMENTATION_VERSION, "0.9.0");
        try (var jar = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(addOn), manifest)) {
            jar.flush();
        }
        String why = BundledEmbedder.otherRelease(addOn, "1.0.0");
        assertEquals("hyperterse-semantic.jar is version 0.9.0, this server 1.0.0: take both from the same release"
                + " (the ranking's learned order names the models it was learned with, and falls back to a plainer"
                + " ranking with others)", why);
        org.junit.jupiter.api.Assertions.assertNull(BundledEmbedder.otherRelease(addOn, "0.9.0"));
        org.junit.jupiter.api.Assertions.assertNull(BundledEmbedder.otherRelease(addOn, null),
                "a server run from its classes has no release to compare");
        java.nio.file.Files.writeString(addOn, "not a jar");
        org.junit.jupiter.api.Assertions.assertNull(BundledEmbedder.otherRelease(addOn, "1.0.0"),
                "an add-on that cannot be read is reported where the models load, not here");
        // in this build the models are on the class path: nothing to compare
        org.junit.jupiter.api.Assertions.assertNull(BundledEmbedder.otherRelease());
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

    /**
     * The loader the models are looked for in: the server's own where it reaches them (the tests'
     * class path), else one over the add-on beside the server's jar (PackagedJarIT runs that), else
     * the server's own, which finds none; a file there that holds no model is named as such.
     */
    @Test
    void theModelsAreLookedForOnTheClassPathThenInTheAddOnBesideTheJar(@org.junit.jupiter.api.io.TempDir
                                                                       java.nio.file.Path dir) throws Exception {
        ClassLoader own = BundledEmbedder.class.getClassLoader();
        assertSame(own, BundledEmbedder.addOnLoader(own, dir.resolve("hyperterse.jar")));
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        assertSame(platform, BundledEmbedder.addOnLoader(platform, null));
        assertSame(platform, BundledEmbedder.addOnLoader(platform, dir.resolve("hyperterse.jar")));
        // an add-on file beside the jar that holds no model: a loader over it finds none, and the reason says so
        java.nio.file.Path addOn = dir.resolve("hyperterse-semantic.jar");
        try (java.util.jar.JarOutputStream jar = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(addOn))) {
            jar.putNextEntry(new java.util.jar.JarEntry("README.txt"));
            jar.write("not the add-on".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        ClassLoader over = BundledEmbedder.addOnLoader(platform, dir.resolve("hyperterse.jar"));
        assertTrue(over instanceof java.net.URLClassLoader && over.getParent() == platform, String.valueOf(over));
        assertTrue(BundledEmbedder.find(over).isEmpty());
        ((java.net.URLClassLoader) over).close();
        assertTrue(BundledEmbedder.missing(dir.resolve("hyperterse.jar")).endsWith(" beside hyperterse.jar in " + dir
                + ", where the file there holds no " + BundledEmbedder.KNOWN.get(0).className()));
    }

    /**
     * The process's exit waits for the native calls under way (a model loading while the server stops)
     * and lets no new one start, so no thread is inside ONNX Runtime as its static state is torn down.
     */
    @Test
    void theExitWaitsForNativeCallsUnderWayAndStartsNoNewOne() throws Exception {
        BundledEmbedder.NativeCalls calls = new BundledEmbedder.NativeCalls();
        calls.enter();
        calls.exit();
        java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Thread loading = new Thread(() -> {
            calls.enter();
            try {
                inside.countDown();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                calls.exit();
            }
        });
        loading.start();
        assertTrue(inside.await(10, java.util.concurrent.TimeUnit.SECONDS));
        // a call under way: the exit waits for it, here in vain for 100 ms
        assertTrue(!calls.close(100));
        IllegalStateException refused = assertThrows(TextEmbedder.Stopping.class, calls::enter);
        assertEquals("embedding model: the process is stopping", refused.getMessage());
        release.countDown();
        loading.join(10_000);
        assertTrue(calls.close(10_000), "the exit goes on once the call under way ended");
        assertThrows(IllegalStateException.class, calls::enter);
    }

    /**
     * The members the hold on ONNX Runtime's native environment reaches are there in the release the
     * add-on holds (an upgrade that drops them would silently leave the environment to its own exit hook).
     */
    @Test
    void theHoldOnOnnxRuntimesEnvironmentReachesItsMembers() throws Exception {
        ClassLoader loader = BundledEmbedder.class.getClassLoader();
        Class<?> environment = Class.forName("ai.onnxruntime.OrtEnvironment", false, loader);
        assertEquals(long.class, environment.getDeclaredMethod("createHandle", long.class, int.class, String.class)
                .getReturnType());
        assertEquals(long.class, Class.forName("ai.onnxruntime.OnnxRuntime", false, loader)
                .getDeclaredField("ortApiHandle").getType());
        TextEmbedder.bundled().orElseThrow().load();
        assertTrue(BundledEmbedder.holdEnvironment(loader), "taken with the models' load");
    }

    /**
     * Each model's token vectors come from the same run as the text's vector, which is the one {@code embed}
     * gives; a token each, its markers left out, unit length; a long text gives its own vector and the token
     * vectors of as much of it as the model reads at once.
     */
    @Test
    void theModelsTokenVectorsComeWithTheTextsOwnVector() {
        TextEmbedder models = TextEmbedder.bundled().orElseThrow();
        for (TextEmbedder model : ((JointEmbedder) models).parts()) {
            String text = "make a new branch";
            TextEmbedder.TokenVectors vectors = model.embedTokens(text);
            assertNotNull(vectors, model.model() + ": " + model.degraded());
            float[] own = model.embed(text);
            assertEquals(own.length, vectors.vector().length);
            for (int d = 0; d < own.length; d++) {
                assertEquals(own[d], vectors.vector()[d], 1e-5, model.model());
            }
            assertEquals(4, vectors.count(0), "make, a, new, branch");
            for (int t = 0; t < 4; t++) {
                double norm = SemanticRanking.dotFrom(vectors.tokens()[0], t * own.length, vectors.tokens()[0],
                        t * own.length, own.length);
                assertEquals(1, norm, 1e-4);
            }
            String longText = "branch ".repeat(600);
            TextEmbedder.TokenVectors piece = model.embedTokens(longText);
            // all-MiniLM-L6-v2's tokenizer cuts a piece at 128 tokens, markers included; bge-small-en-v1.5's at 512
            assertEquals(model.model().startsWith("all-MiniLM") ? 126 : 510, piece.count(0), model.model());
            float[] whole = model.embed(longText);
            for (int d = 0; d < whole.length; d++) {
                assertEquals(whole[d], piece.vector()[d], 1e-5);
            }
        }
        TextEmbedder.TokenVectors both = models.embedTokens("make a new branch");
        float[] joint = models.embed("make a new branch");
        for (int d = 0; d < joint.length; d++) {
            assertEquals(joint[d], both.vector()[d], 1e-5);
        }
    }
}
