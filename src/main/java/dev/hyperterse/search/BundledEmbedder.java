package dev.hyperterse.search;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An embedding model the server was built with ({@code mvn -Psemantic package}: all-MiniLM-L6-v2 and
 * bge-small-en-v1.5, both quantized), run by ONNX Runtime on the CPU through LangChain4j's in-process
 * artifacts. Reached by reflection so that the usual build, which leaves the models and ONNX Runtime
 * out, compiles and runs without them. One instance per model and JVM, loaded on the first
 * {@link #embed} (about a second each); where the build holds both, {@link #instance()} reads a text
 * by both ({@link JointEmbedder}).
 */
final class BundledEmbedder implements TextEmbedder {

    /** A model the build may hold: its class, its ONNX file (whose size tells one release from another) and its name. */
    record Known(String className, String file, String name) {}

    /** The models a build may hold, in the order their vectors are read: all-MiniLM-L6-v2 first. */
    static final List<Known> KNOWN = List.of(
            new Known("dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel",
                    "all-minilm-l6-v2-q.onnx", "all-MiniLM-L6-v2-q"),
            new Known("dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel",
                    "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q"));

    private static final Optional<TextEmbedder> INSTANCE = find();

    private final Class<?> modelClass;
    private final String model;
    private volatile Loaded loaded;
    /** Why the model could not load, once it could not: it is not tried again (a class whose
     *  initialization failed only says so the second time, not why). */
    private volatile IllegalStateException failed;

    /** The model instance and the methods that reach a vector: embed(String).content().vector(). */
    private record Loaded(Object model, Method embed, Method content, Method vector) {}

    BundledEmbedder(Class<?> modelClass, String model) {
        this.modelClass = modelClass;
        this.model = model;
    }

    /** The build's model, both read together where it holds two; empty when it holds none. */
    static Optional<TextEmbedder> instance() {
        return INSTANCE;
    }

    private static Optional<TextEmbedder> find() {
        List<TextEmbedder> found = new ArrayList<>();
        for (Known known : KNOWN) {
            find(known).ifPresent(found::add);
        }
        return found.isEmpty() ? Optional.empty()
                : Optional.of(found.size() == 1 ? found.get(0) : new JointEmbedder(found));
    }

    private static Optional<TextEmbedder> find(Known known) {
        ClassLoader loader = BundledEmbedder.class.getClassLoader();
        Class<?> modelClass;
        try {
            modelClass = Class.forName(known.className(), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
        // the model file's size tells one release of the model from another in the vector cache
        URL file = modelClass.getClassLoader().getResource(known.file());
        long size = -1;
        if (file != null) {
            try {
                size = file.openConnection().getContentLengthLong();
            } catch (java.io.IOException e) {
                size = -1;
            }
        }
        return Optional.of(new BundledEmbedder(modelClass, known.name() + "-" + size));
    }

    @Override
    public String model() {
        return model;
    }

    @Override
    public float[] embed(String text) {
        Loaded l = loaded();
        try {
            Object response = l.embed.invoke(l.model, text);
            return (float[]) l.vector.invoke(l.content.invoke(response));
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("embedding model: " + e.getCause(), e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("embedding model: " + e, e);
        }
    }

    @Override
    public void load() {
        loaded();
    }

    private Loaded loaded() {
        Loaded l = loaded;
        if (l != null) {
            return l;
        }
        synchronized (this) {
            if (failed != null) {
                throw failed;
            }
            if (loaded == null) {
                // the model's tokenizer (DJL's) would otherwise download its native library where the
                // jar has none for this platform, and report its use from a cloud host: this server
                // reaches no network for search (set either property to decide otherwise)
                if (System.getProperty("ai.djl.offline") == null) {
                    System.setProperty("ai.djl.offline", "true");
                }
                if (System.getProperty("OPT_OUT_TRACKING") == null) {
                    System.setProperty("OPT_OUT_TRACKING", "true");
                }
                try {
                    Object instance = modelClass.getConstructor().newInstance();
                    Method embed = modelClass.getMethod("embed", String.class);
                    Method content = embed.getReturnType().getMethod("content");
                    // content() is generic: its erased type is Object, the value an Embedding
                    Method vector = Class.forName("dev.langchain4j.data.embedding.Embedding", true,
                            modelClass.getClassLoader()).getMethod("vector");
                    loaded = new Loaded(instance, embed, content, vector);
                } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                    // a native library that does not load surfaces deep down, as the cause of the
                    // class's failed initialization
                    Throwable root = e;
                    while (root.getCause() != null && root.getCause() != root) {
                        root = root.getCause();
                    }
                    failed = new IllegalStateException("embedding model " + modelClass.getName() + " could not load: "
                            + root, e);
                    throw failed;
                }
            }
            return loaded;
        }
    }
}
