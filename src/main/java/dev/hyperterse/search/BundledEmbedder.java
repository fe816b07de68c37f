package dev.hyperterse.search;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.Optional;

/**
 * all-MiniLM-L6-v2 (quantized), run by ONNX Runtime on the CPU through LangChain4j's in-process
 * artifact, when the server was built with it ({@code mvn -Psemantic package}). Reached by
 * reflection so that the usual build, which leaves the model and ONNX Runtime out, compiles and
 * runs without them. One model per JVM, loaded on the first {@link #embed} (about a second).
 */
final class BundledEmbedder implements TextEmbedder {

    static final String MODEL_CLASS =
            "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel";
    private static final String MODEL_FILE = "all-minilm-l6-v2-q.onnx";

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

    static Optional<TextEmbedder> instance() {
        return INSTANCE;
    }

    private static Optional<TextEmbedder> find() {
        ClassLoader loader = BundledEmbedder.class.getClassLoader();
        Class<?> modelClass;
        try {
            modelClass = Class.forName(MODEL_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
        // the model file's size tells one release of the model from another in the vector cache
        URL file = modelClass.getClassLoader().getResource(MODEL_FILE);
        long size = -1;
        if (file != null) {
            try {
                size = file.openConnection().getContentLengthLong();
            } catch (java.io.IOException e) {
                size = -1;
            }
        }
        return Optional.of(new BundledEmbedder(modelClass, "all-MiniLM-L6-v2-q-" + size));
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
