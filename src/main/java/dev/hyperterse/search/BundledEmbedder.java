package dev.hyperterse.search;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An embedding model of the semantic ranking's add-on, {@value #ADD_ON} (all-MiniLM-L6-v2 and
 * bge-small-en-v1.5, both quantized), run by ONNX Runtime on the CPU through LangChain4j's in-process
 * artifacts. The add-on is read from beside the server's jar in a class loader of its own, so that
 * its libraries (Jackson's databind among them, which Vert.x would otherwise take up for all JSON)
 * stay out of the server's class path; where the models are on the server's own class path (the
 * tests'), they are used from there. Reached by reflection, so that a server without them runs (and
 * ranks as {@code static}). One instance per model and JVM, loaded on the first {@link #embed}
 * (about a second each); where the add-on holds both, {@link #instance()} reads a text by both
 * ({@link JointEmbedder}).
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

    /** The add-on's file name, beside the server's jar. */
    static final String ADD_ON = "hyperterse-semantic.jar";

    private static final Path SERVER_JAR = dev.hyperterse.model.AddOns.serverJar();
    /** Where the models are looked for: the server's class loader, or one over the add-on beside its jar. */
    private static final ClassLoader LOADER = addOnLoader(BundledEmbedder.class.getClassLoader(), SERVER_JAR);
    private static final Optional<TextEmbedder> INSTANCE = find(LOADER);
    /** Why there is no model, decided with {@link #INSTANCE}; null when there is one. */
    private static final String MISSING = INSTANCE.isPresent() ? null : missing(SERVER_JAR);

    private final Class<?> modelClass;
    private final Known known;
    private final String model;
    private volatile Loaded loaded;
    /** Why the model could not load, once it could not: it is not tried again (a class whose
     *  initialization failed only says so the second time, not why). */
    private volatile IllegalStateException failed;
    /** Why the model runs in LangChain4j's own session rather than its own, once loaded; null when it does not. */
    private volatile String degraded;

    /** A text's vector, through the reflective calls that reach it. */
    private interface Reach {
        float[] vector(String text) throws ReflectiveOperationException;
    }

    /** A text's vector and its tokens' vectors, through the reflective calls that reach them. */
    private interface TokenReach {
        TokenVectors vectors(String text) throws ReflectiveOperationException;
    }

    /**
     * What reaches a vector: with its own session, the encoder's {@code embed(String)} and its result's
     * {@code embedding} field; else LangChain4j's model instance and embed(String).content().vector().
     * {@code tokens} reaches the token vectors too (with its own session; null: not reached).
     */
    private record Loaded(Reach reach, TokenReach tokens, boolean ownSession) {}

    BundledEmbedder(Class<?> modelClass, Known known, String model) {
        this.modelClass = modelClass;
        this.known = known;
        this.model = model;
    }

    /** The build's model, both read together where it holds two; empty when it holds none. */
    static Optional<TextEmbedder> instance() {
        return INSTANCE;
    }

    /** Null where {@link #instance()} has the models, else why not (see {@link #missing(Path)}). */
    static String missing() {
        return MISSING;
    }

    /**
     * Where the models come from an add-on of another release than the server's, what to say of it,
     * else null. Reads the add-on's manifest once, at the first call: make that off the event loop.
     */
    static String otherRelease() {
        return Release.OTHER;
    }

    /** {@link #otherRelease()}, read once, at its first call. */
    private static final class Release {
        // no models, or models on the server's own class path (built with it): nothing to compare
        static final String OTHER = INSTANCE.isEmpty() || LOADER == BundledEmbedder.class.getClassLoader() ? null
                : otherRelease(SERVER_JAR.resolveSibling(ADD_ON), dev.hyperterse.model.AddOns.serverVersion());
    }

    /** What to say of the add-on {@code addOn} when it names another release than {@code serverVersion}, else null. */
    static String otherRelease(Path addOn, String serverVersion) {
        String version = dev.hyperterse.model.AddOns.otherVersion(addOn, serverVersion);
        return version == null ? null : addOn.getFileName() + " is version " + version + ", this server "
                + serverVersion + ": take both from the same release (the ranking's learned order names the models"
                + " it was learned with, and falls back to a plainer ranking with others)";
    }

    /**
     * Why the server has no model: the add-on it needs and where it belongs (the folder of
     * {@code serverJar}, or the class path when that is null).
     */
    static String missing(Path serverJar) {
        return "the add-on " + ADD_ON + " (its models and ONNX Runtime, built with the server as target/" + ADD_ON
                + " and held by the image) " + dev.hyperterse.model.AddOns.where(serverJar, ADD_ON, KNOWN.get(0).className());
    }

    /**
     * The class loader the models are looked for in: {@code own} where it reaches them (they are on
     * the server's class path), else one of its own over the add-on beside {@code serverJar} (its
     * parent {@code own}, so the add-on uses the server's logging and JSON core), else {@code own},
     * which finds none.
     */
    static ClassLoader addOnLoader(ClassLoader own, Path serverJar) {
        try {
            Class.forName(KNOWN.get(0).className(), false, own);
            return own;
        } catch (ClassNotFoundException | LinkageError e) {
            // not on the server's class path: the add-on beside its jar, if any
        }
        Path addOn = serverJar == null ? null : serverJar.resolveSibling(ADD_ON);
        if (addOn == null || !Files.isRegularFile(addOn)) {
            return own;
        }
        try {
            return new URLClassLoader("hyperterse-semantic", new URL[] {addOn.toUri().toURL()}, own);
        } catch (java.net.MalformedURLException e) {
            return own;
        }
    }

    /** The models {@code loader} reaches, both read together where it reaches two; empty when none. */
    static Optional<TextEmbedder> find(ClassLoader loader) {
        List<TextEmbedder> found = new ArrayList<>();
        for (Known known : KNOWN) {
            find(known, loader).ifPresent(found::add);
        }
        return found.isEmpty() ? Optional.empty()
                : Optional.of(found.size() == 1 ? found.get(0) : new JointEmbedder(found));
    }

    private static Optional<TextEmbedder> find(Known known, ClassLoader loader) {
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
        return call(() -> l.reach().vector(text));
    }

    /** A reflective call into the model. */
    private interface Call<T> {
        T run() throws ReflectiveOperationException;
    }

    /** {@code call}, inside {@link NativeCalls}, its failures as the model's. */
    private static <T> T call(Call<T> call) {
        NativeCalls.PROCESS.enter();
        try {
            return call.run();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("embedding model: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("embedding model: " + e, e);
        } finally {
            NativeCalls.PROCESS.exit();
        }
    }

    /**
     * The calls into ONNX Runtime and the tokenizer's native library, against the process's exit: the
     * libraries' static state is torn down as the process exits, and a thread still inside one then (a
     * model loading, or a catalog being embedded, while the server stops) would crash the JVM on its way
     * out. A shutdown hook, registered with the first load, lets no new call start and waits for those
     * under way (a model's load takes about a second, a text's embedding milliseconds), at most ten
     * seconds.
     */
    static final class NativeCalls {
        /** This process's. */
        static final NativeCalls PROCESS = new NativeCalls();
        private static final java.util.concurrent.atomic.AtomicBoolean HOOKED =
                new java.util.concurrent.atomic.AtomicBoolean();
        private final java.util.concurrent.locks.ReentrantReadWriteLock lock =
                new java.util.concurrent.locks.ReentrantReadWriteLock();
        private volatile boolean closing;

        /** Before a native call: fails once the process is stopping (the caller then ranks without the model). */
        void enter() {
            // never waits: the read lock is refused only while the exit holds the write lock, for good
            if (!closing && lock.readLock().tryLock()) {
                if (!closing) {
                    return;
                }
                lock.readLock().unlock();
            }
            throw new TextEmbedder.Stopping();
        }

        /** After a native call. */
        void exit() {
            lock.readLock().unlock();
        }

        /** No new call starts; waits for those under way, {@code millis} at most. Whether they all ended. */
        boolean close(long millis) {
            closing = true;
            try {
                return lock.writeLock().tryLock(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /** Registers the process's shutdown hook, once per JVM. */
        static void hook() {
            if (HOOKED.compareAndSet(false, true)) {
                try {
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> PROCESS.close(10_000), "hyperterse-models-exit"));
                } catch (IllegalStateException shutdownInProgress) {
                    PROCESS.closing = true;
                }
            }
            if (PROCESS.closing) {
                throw new TextEmbedder.Stopping();
            }
        }

        /** Whether the process is stopping (no new native call starts). */
        boolean closing() {
            return closing;
        }
    }

    @Override
    public TokenVectors embedTokens(String text) {
        Loaded l = loaded();
        if (l.tokens() == null) {
            return null;
        }
        return call(() -> l.tokens().vectors(text));
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

    @Override
    public String degraded() {
        loaded();
        return degraded;
    }

    /**
     * The model in an ONNX Runtime session of its own, run by the calling thread alone and without
     * spinning: LangChain4j's model classes open theirs with ONNX Runtime's defaults, a thread per core
     * that spins while it waits, which for one short text at a time (a request) burns two and a half
     * times the CPU for no shorter wait (bench/RESULTS.md). The same encoder (tokenizer, pooling,
     * normalization) and the same vectors, reached through members LangChain4j keeps to its package.
     * Null, and {@link #degraded} says why, when they or the model's files are not there as this
     * release of LangChain4j has them, or the encoder does not embed a first text: the model class's
     * own instance serves then. Throws only what loading the model would throw anyway (a native
     * library that does not load).
     */
    private Loaded inOwnSession() throws ReflectiveOperationException {
        ClassLoader loader = modelClass.getClassLoader();
        if (loader.getResource(known.file()) == null || loader.getResource(known.tokenizer()) == null) {
            degraded = "no " + known.file() + " or " + known.tokenizer() + " beside " + modelClass.getName();
            return null;
        }
        Class<?> environmentClass;
        Class<?> optionsClass;
        Method getEnvironment;
        Method createSession;
        Method[] configure;
        java.lang.reflect.Constructor<?> newEncoder;
        Object pooling;
        Method embed;
        java.lang.reflect.Field embedding;
        try {
            environmentClass = Class.forName("ai.onnxruntime.OrtEnvironment", false, loader);
            Class<?> sessionClass = Class.forName("ai.onnxruntime.OrtSession", false, loader);
            optionsClass = Class.forName("ai.onnxruntime.OrtSession$SessionOptions", false, loader);
            getEnvironment = environmentClass.getMethod("getEnvironment");
            createSession = environmentClass.getMethod("createSession", byte[].class, optionsClass);
            configure = new Method[] {optionsClass.getMethod("setIntraOpNumThreads", int.class),
                    optionsClass.getMethod("setInterOpNumThreads", int.class),
                    optionsClass.getMethod("addConfigEntry", String.class, String.class)};
            Class<?> poolingClass = Class.forName("dev.langchain4j.model.embedding.onnx.PoolingMode", true, loader);
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object mode = Enum.valueOf((Class) poolingClass, known.pooling());
            pooling = mode;
            Class<?> encoderClass = Class.forName("dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder", false, loader);
            newEncoder = encoderClass.getConstructor(environmentClass, sessionClass, java.io.InputStream.class, poolingClass);
            embed = encoderClass.getDeclaredMethod("embed", String.class);
            embedding = embed.getReturnType().getDeclaredField("embedding");
            if (embedding.getType() != float[].class) {
                throw new NoSuchFieldException("embedding is a " + embedding.getType().getName() + ", not a float[]");
            }
            embed.setAccessible(true);
            embedding.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            degraded = "LangChain4j's encoder could not be reached (" + e + ")";
            return null;
        }
        Object environment = getEnvironment.invoke(null);
        holdEnvironment(loader);
        byte[] bytes;
        try (java.io.InputStream in = loader.getResourceAsStream(known.file())) {
            bytes = in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("could not read " + known.file() + ": " + e.getMessage(), e);
        }
        Object session;
        try (AutoCloseable options = (AutoCloseable) optionsClass.getConstructor().newInstance()) {
            configure[0].invoke(options, 1);
            configure[1].invoke(options, 1);
            configure[2].invoke(options, "session.intra_op.allow_spinning", "0");
            // the session keeps what it needs of its options: they are released once it exists
            session = createSession.invoke(environment, bytes, options);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("could not release the session's options: " + e, e);
        }
        try (java.io.InputStream tokenizer = loader.getResourceAsStream(known.tokenizer())) {
            Object encoder = newEncoder.newInstance(environment, session, tokenizer, pooling);
            Reach reach = text -> (float[]) embedding.get(embed.invoke(encoder, text));
            TokenReach tokens = tokenReach(encoder, reach);
            Loaded own = new Loaded(reach, tokens, true);
            // a first text through the whole path: an encoder that differs from this release's fails here, not
            // at the first request
            float[] first = own.reach().vector("a first text");
            if (tokens != null && !sameVector(first, tokens.vectors("a first text").vector())) {
                degraded = "its token vectors come with another vector of a text than its own";
                own = new Loaded(reach, null, true);
            }
            return own;
        } catch (ReflectiveOperationException | RuntimeException | java.io.IOException e) {
            close(session);
            if (e instanceof InvocationTargetException t && t.getCause() instanceof LinkageError linkage) {
                // the tokenizer's native library: the model class's own instance would fail the same way
                throw linkage;
            }
            degraded = "its own session could not embed a first text (" + (e instanceof InvocationTargetException t
                    ? t.getCause() : e) + ")";
            return null;
        }
    }

    /**
     * The encoder's token vectors, from the same run as the text's vector: LangChain4j's encoder splits a
     * text's tokens into pieces the model takes ({@code tokenize}, {@code partition}), runs each
     * ({@code encode}) and pools its output ({@code toEmbedding}), then averages the pieces' vectors and
     * normalizes. For a text of one piece (a request, a tool's lead), the same run gives the token vectors;
     * a longer text's vector is {@code reach}'s, its token vectors its first piece's. Null when this
     * release of LangChain4j has no such members (the ranking's order then reads no token vectors).
     */
    private TokenReach tokenReach(Object encoder, Reach reach) {
        try {
            Class<?> encoderClass = encoder.getClass();
            java.lang.reflect.Field tokenizerField = encoderClass.getDeclaredField("tokenizer");
            tokenizerField.setAccessible(true);
            Object tokenizer = tokenizerField.get(encoder);
            Method tokenize = tokenizer.getClass().getMethod("tokenize", String.class);
            Method partition = encoderClass.getDeclaredMethod("partition", List.class, int.class);
            Method encode = encoderClass.getDeclaredMethod("encode", List.class);
            Method toEmbedding = encoderClass.getDeclaredMethod("toEmbedding", encode.getReturnType());
            Method get = encode.getReturnType().getMethod("get", int.class);
            Method value = get.getReturnType().getMethod("getValue");
            for (Method m : new Method[] {partition, encode, toEmbedding}) {
                m.setAccessible(true);
            }
            return text -> {
                @SuppressWarnings("unchecked")
                List<List<String>> pieces = (List<List<String>>) partition.invoke(null, tokenize.invoke(tokenizer, text),
                        MAX_PIECE);
                if (pieces.isEmpty()) {
                    throw new IllegalArgumentException("no tokens in \"" + text + "\"");
                }
                try (AutoCloseable result = (AutoCloseable) encode.invoke(encoder, pieces.get(0))) {
                    float[] vector = pieces.size() == 1 ? SemanticRanking.unit((float[]) toEmbedding.invoke(encoder, result))
                            : reach.vector(text);
                    float[][] rows = ((float[][][]) value.invoke(get.invoke(result, 0)))[0];
                    return new TokenVectors(vector, new float[][] {tokenRows(rows)});
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException("could not release a model's output: " + e, e);
                }
            };
        } catch (ReflectiveOperationException | RuntimeException e) {
            degraded = "its token vectors could not be reached (" + e + ")";
            return null;
        }
    }

    /** The longest piece of a text LangChain4j's encoder runs at once, in tokens (its markers aside). */
    private static final int MAX_PIECE = 510;

    /**
     * The model's output rows for a piece's tokens, its first and last (the markers of where a text starts and
     * ends) left out, each unit length, one after another.
     */
    static float[] tokenRows(float[][] rows) {
        int n = Math.max(0, rows.length - 2);
        int width = rows.length == 0 ? 0 : rows[0].length;
        float[] out = new float[n * width];
        for (int i = 0; i < n; i++) {
            System.arraycopy(SemanticRanking.unit(rows[i + 1]), 0, out, i * width, width);
        }
        return out;
    }

    /** Whether two vectors of a text agree to within rounding. */
    private static boolean sameVector(float[] a, float[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (Math.abs(a[i] - b[i]) > 1e-4f) {
                return false;
            }
        }
        return true;
    }

    /**
     * ONNX Runtime's Java side releases its native environment from a shutdown hook of its own, which the
     * JVM runs beside the server's graceful stop: a search still embedding its query then (the server
     * serves on while it drains) would run in a released environment and crash the process, losing the
     * calls it was finishing. The native environment is counted: taking it once more, here, keeps it
     * until the process ends, and {@link NativeCalls} has no call left inside it by then. Once per JVM;
     * where this release of ONNX Runtime has no such members, left as it is.
     */
    static boolean holdEnvironment(ClassLoader loader) {
        if (!HELD.compareAndSet(false, true)) {
            return true;
        }
        try {
            Class<?> environmentClass = Class.forName("ai.onnxruntime.OrtEnvironment", false, loader);
            java.lang.reflect.Field api = Class.forName("ai.onnxruntime.OnnxRuntime", false, loader)
                    .getDeclaredField("ortApiHandle");
            api.setAccessible(true);
            Class<?> levelClass = Class.forName("ai.onnxruntime.OrtLoggingLevel", true, loader);
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object warning = Enum.valueOf((Class) levelClass, "ORT_LOGGING_LEVEL_WARNING");
            int level = (int) levelClass.getMethod("getValue").invoke(warning);
            Method create = environmentClass.getDeclaredMethod("createHandle", long.class, int.class, String.class);
            create.setAccessible(true);
            create.invoke(null, api.getLong(null), level, "ort-java");
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another release: its own hook's race stays, narrowed by NativeCalls
            return false;
        }
    }

    private static final java.util.concurrent.atomic.AtomicBoolean HELD = new java.util.concurrent.atomic.AtomicBoolean();

    /** Closes an ONNX Runtime session that will not be used; a failure to close it leaves it as it is. */
    private static void close(Object session) {
        if (session instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // nothing more to release
            }
        }
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
                // DJL's tokenizer finds its native library and that library's version through the thread's
                // context class loader: the add-on's own while the models load
                NativeCalls.hook();
                NativeCalls.PROCESS.enter();
                Thread thread = Thread.currentThread();
                ClassLoader context = thread.getContextClassLoader();
                thread.setContextClassLoader(modelClass.getClassLoader());
                try {
                    Loaded own = inOwnSession();
                    if (own != null) {
                        loaded = own;
                        return own;
                    }
                    degraded = model + " runs in LangChain4j's session, a spinning thread per core (more CPU per"
                            + " request, the same vectors): " + degraded;
                    Object instance = modelClass.getConstructor().newInstance();
                    Method embed = modelClass.getMethod("embed", String.class);
                    Method content = embed.getReturnType().getMethod("content");
                    // content() is generic: its erased type is Object, the value an Embedding
                    Method vector = Class.forName("dev.langchain4j.data.embedding.Embedding", true,
                            modelClass.getClassLoader()).getMethod("vector");
                    loaded = new Loaded(text -> (float[]) vector.invoke(content.invoke(embed.invoke(instance, text))),
                            null, false);
                    // LangChain4j's instance made the environment: held as in a session of our own
                    holdEnvironment(modelClass.getClassLoader());
                } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                    // a native library that does not load surfaces deep down, as the cause of the
                    // class's failed initialization
                    Throwable root = e;
                    while (root.getCause() != null && root.getCause() != root) {
                        root = root.getCause();
                    }
                    // and, where its own session was tried first, why that did not serve
                    failed = new IllegalStateException("embedding model " + modelClass.getName() + " could not load: "
                            + root + (degraded != null ? "; before that, " + degraded : ""), e);
                    throw failed;
                } finally {
                    NativeCalls.PROCESS.exit();
                    thread.setContextClassLoader(context);
                }
            }
            return loaded;
        }
    }
}
