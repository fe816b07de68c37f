package dev.hyperterse.testing;

import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.jackson.JacksonFactory;
import io.vertx.core.spi.JsonFactory;
import io.vertx.core.spi.json.JsonCodec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Vert.x's JSON codec as Vert.x would choose it, unchanged, that can tell a test which threads
 * encoded large values. Tests load it through {@code META-INF/services/io.vertx.core.spi.JsonFactory}
 * (it orders itself first); every call goes to the codec the other factories on the class path
 * provide (Vert.x's Jackson codec when there is none). It records only while a {@link Watch} is
 * open, and then only encodings of at least the watch's size.
 */
public final class WatchedJsonFactory implements JsonFactory {
    private static final AtomicReference<Watch> WATCH = new AtomicReference<>();
    private static final JsonCodec CODEC = new Watched(chosenWithoutThis());

    /** Starts recording the threads that encode values of {@code fromBytes} or more (one watch at a time). */
    public static Watch watch(int fromBytes) {
        Watch watch = new Watch(fromBytes);
        if (!WATCH.compareAndSet(null, watch)) {
            throw new IllegalStateException("a watch is already open");
        }
        // the first use of Vert.x's JSON support loads the factories: make sure this one is in use
        if (!(io.vertx.core.json.Json.CODEC instanceof Watched)) {
            WATCH.set(null);
            throw new IllegalStateException("Vert.x chose another JSON codec: " + io.vertx.core.json.Json.CODEC);
        }
        return watch;
    }

    @Override
    public int order() {
        return Integer.MIN_VALUE;
    }

    @Override
    public JsonCodec codec() {
        return CODEC;
    }

    /** What Vert.x would pick without this factory: the lowest order among the others, else Jackson's. */
    private static JsonCodec chosenWithoutThis() {
        List<JsonFactory> others = new ArrayList<>();
        for (JsonFactory f : ServiceLoader.load(JsonFactory.class)) {
            if (!(f instanceof WatchedJsonFactory)) {
                others.add(f);
            }
        }
        others.sort(Comparator.comparingInt(JsonFactory::order));
        return others.isEmpty() ? JacksonFactory.INSTANCE.codec() : others.get(0).codec();
    }

    /** The encodings of large values seen while open, by the kind of thread that did them. */
    public static final class Watch implements AutoCloseable {
        private final int fromBytes;
        private final List<String> onEventLoop = new CopyOnWriteArrayList<>();
        private final List<String> onWorker = new CopyOnWriteArrayList<>();
        private final List<String> elsewhere = new CopyOnWriteArrayList<>();

        private Watch(int fromBytes) {
            this.fromBytes = fromBytes;
        }

        /** "thread name: size" of each large encoding done on a Vert.x event loop. */
        public List<String> onEventLoop() {
            return List.copyOf(onEventLoop);
        }

        /** "thread name: size" of each large encoding done on a Vert.x worker thread. */
        public List<String> onWorker() {
            return List.copyOf(onWorker);
        }

        /** "thread name: size" of each large encoding done on any other thread (a test's own). */
        public List<String> elsewhere() {
            return List.copyOf(elsewhere);
        }

        private void seen(int size) {
            if (size < fromBytes) {
                return;
            }
            String what = Thread.currentThread().getName() + ": " + size;
            (Context.isOnEventLoopThread() ? onEventLoop : Context.isOnWorkerThread() ? onWorker : elsewhere).add(what);
        }

        @Override
        public void close() {
            WATCH.compareAndSet(this, null);
        }
    }

    private static final class Watched implements JsonCodec {
        private final JsonCodec codec;

        Watched(JsonCodec codec) {
            this.codec = codec;
        }

        @Override
        public <T> T fromString(String json, Class<T> type) throws DecodeException {
            return codec.fromString(json, type);
        }

        @Override
        public <T> T fromBuffer(Buffer json, Class<T> type) throws DecodeException {
            return codec.fromBuffer(json, type);
        }

        @Override
        public <T> T fromValue(Object json, Class<T> type) {
            return codec.fromValue(json, type);
        }

        @Override
        public String toString(Object object, boolean pretty) throws EncodeException {
            String encoded = codec.toString(object, pretty);
            seen(encoded.length());
            return encoded;
        }

        @Override
        public Buffer toBuffer(Object object, boolean pretty) throws EncodeException {
            Buffer encoded = codec.toBuffer(object, pretty);
            seen(encoded.length());
            return encoded;
        }

        /** Tells the open watch, if any, of an encoding of {@code length} characters or bytes. */
        private static void seen(int length) {
            Watch watch = WATCH.get();
            if (watch != null) {
                watch.seen(length);
            }
        }
    }
}
