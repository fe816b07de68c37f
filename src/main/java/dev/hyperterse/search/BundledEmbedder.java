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

    /**
     * A model the build may hold: its class, its ONNX file (whose size tells one release from another),
     * its tokenizer's file, how it pools its token vectors (LangChain4j's {@code PoolingMode}) and its name.
     */
    record Known(String className, String file, String tokenizer, String pooling, String name) {}

    /** The models a build may hold, in the order their vectors are read: all-MiniLM-L6-v2 first. */
    static final List<Known> KNOWN = List.of(
            new Known("dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel",
                    "all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json", "MEAN", "all-MiniLM-L6-v2-q"),
            new Known("dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel",
                    "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json", "CLS", "bge-small-en-v1.5-q"));

    private static final Optional<TextEmbedder> INSTANCE = find();

    private final Class<?> modelClass;
    private final Known known;
    private final String model;
    private volatile Loaded loaded;
    /** Why the model could not load, once it could not: it is not tried again (a class whose
     *  initialization failed only says so the second time, not why). */
    private volatile IllegalStateException failed;

    /**
     * What reaches a vector: with its own session, the encoder and its {@code embed(String)}, whose result's
     * {@code embedding} field ({@code content} here) is the vector; else LangChain4j's model instance and
     * embed(String).content().vector().
     */
    private record Loaded(Object model, Method embed, java.lang.reflect.AccessibleObject content, Method vector,
                          boolean ownSession) {
        float[] vector(String text) throws ReflectiveOperationException {
            Object response = embed.invoke(model, text);
            return ownSession ? (float[]) ((java.lang.reflect.Field) content).get(response)
                    : (float[]) vector.invoke(((Method) content).invoke(response));
        }
    }

    BundledEmbedder(Class<?> modelClass, Known known, String model) {
        this.modelClass = modelClass;
        this.known = known;
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
        return Optional.of(new BundledEmbedder(modelClass, known, known.name() + "-" + size));
    }

    @Override
    public String model() {
        return model;
    }

    @Override
    public float[] embed(String text) {
        Loaded l = loaded();
        try {
            return l.vector(text);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("embedding model: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("embedding model: " + e, e);
        }
    }

    @Override
    public void load() {
        loaded();
    }

    /**
     * Whether the model runs in a session of its own (one thread, no spinning), as it does unless
     * LangChain4j's encoder could not be reached; loads the model.
     */
    boolean runsInItsOwnSession() {
        return loaded().ownSession();
    }

    /**
     * The model in an ONNX Runtime session of its own, run by the calling thread alone and without
     * spinning: LangChain4j's model classes open theirs with ONNX Runtime's defaults, a thread per core
     * that spins while it waits, which for one short text at a time (a request) burns two and a half
     * times the CPU for no shorter wait (bench/RESULTS.md). The same encoder (tokenizer, pooling,
     * normalization) and the same vectors, reached through members LangChain4j keeps to its package:
     * null when they or the model's files are not there (another release), and the model class's own
     * instance serves.
     */
    private Loaded inOwnSession() throws ReflectiveOperationException {
        ClassLoader loader = modelClass.getClassLoader();
        if (loader.getResource(known.file()) == null || loader.getResource(known.tokenizer()) == null) {
            return null;
        }
        Class<?> environmentClass;
        Class<?> sessionClass;
        Class<?> optionsClass;
        Class<?> poolingClass;
        java.lang.reflect.Constructor<?> newEncoder;
        Method embed;
        java.lang.reflect.Field embedding;
        try {
            environmentClass = Class.forName("ai.onnxruntime.OrtEnvironment", false, loader);
            sessionClass = Class.forName("ai.onnxruntime.OrtSession", false, loader);
            optionsClass = Class.forName("ai.onnxruntime.OrtSession$SessionOptions", false, loader);
            poolingClass = Class.forName("dev.langchain4j.model.embedding.onnx.PoolingMode", true, loader);
            Class<?> encoderClass = Class.forName("dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder", false, loader);
            newEncoder = encoderClass.getConstructor(environmentClass, sessionClass, java.io.InputStream.class, poolingClass);
            embed = encoderClass.getDeclaredMethod("embed", String.class);
            embedding = Class.forName("dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder$EmbeddingAndTokenCount",
                    true, loader).getDeclaredField("embedding");
            embed.setAccessible(true);
            embedding.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
        Object environment = environmentClass.getMethod("getEnvironment").invoke(null);
        Object options = optionsClass.getConstructor().newInstance();
        optionsClass.getMethod("setIntraOpNumThreads", int.class).invoke(options, 1);
        optionsClass.getMethod("setInterOpNumThreads", int.class).invoke(options, 1);
        optionsClass.getMethod("addConfigEntry", String.class, String.class)
                .invoke(options, "session.intra_op.allow_spinning", "0");
        byte[] bytes;
        try (java.io.InputStream in = loader.getResourceAsStream(known.file())) {
            if (in == null) {
                throw new IllegalStateException("no " + known.file() + " beside " + modelClass.getName());
            }
            bytes = in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("could not read " + known.file() + ": " + e.getMessage(), e);
        }
        Object session = environmentClass.getMethod("createSession", byte[].class, optionsClass)
                .invoke(environment, bytes, options);
        Object encoder;
        try (java.io.InputStream tokenizer = loader.getResourceAsStream(known.tokenizer())) {
            if (tokenizer == null) {
                throw new IllegalStateException("no " + known.tokenizer() + " beside " + modelClass.getName());
            }
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object pooling = Enum.valueOf((Class) poolingClass, known.pooling());
            encoder = newEncoder.newInstance(environment, session, tokenizer, pooling);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("could not read " + known.tokenizer() + ": " + e.getMessage(), e);
        }
        return new Loaded(encoder, embed, embedding, null, true);
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
                    Loaded own = inOwnSession();
                    if (own != null) {
                        loaded = own;
                        return own;
                    }
                    Object instance = modelClass.getConstructor().newInstance();
                    Method embed = modelClass.getMethod("embed", String.class);
                    Method content = embed.getReturnType().getMethod("content");
                    // content() is generic: its erased type is Object, the value an Embedding
                    Method vector = Class.forName("dev.langchain4j.data.embedding.Embedding", true,
                            modelClass.getClassLoader()).getMethod("vector");
                    loaded = new Loaded(instance, embed, content, vector, false);
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
