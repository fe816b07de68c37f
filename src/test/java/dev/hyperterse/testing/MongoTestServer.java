package dev.hyperterse.testing;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.net.InetSocketAddress;

/**
 * The MongoDB server the tests use: the one {@code HYPERTERSE_TEST_MONGODB_URL} names, or an
 * in-process server speaking the MongoDB wire protocol (mongo-java-server, in memory) on a free
 * loopback port. Tests work in a database of their own ({@link TestDatabases#uniqueName}).
 */
public final class MongoTestServer implements AutoCloseable {
    private final MongoServer inProcess;
    private final String url;

    private MongoTestServer(MongoServer inProcess, String url) {
        this.inProcess = inProcess;
        this.url = url;
    }

    public static MongoTestServer start() {
        String real = TestDatabases.mongodbUrl();
        if (real != null) {
            return new MongoTestServer(null, real);
        }
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        InetSocketAddress address = server.getLocalAddress();
        return new MongoTestServer(server, "mongodb://127.0.0.1:" + address.getPort());
    }

    /** {@code mongodb://host:port} (with credentials and options when a real server was named). */
    public String url() {
        return url;
    }

    /** True when the tests run against the in-process server, which implements a subset of MongoDB. */
    public boolean inProcess() {
        return inProcess != null;
    }

    @Override
    public void close() {
        if (inProcess != null) {
            inProcess.shutdownNow();
        }
    }
}
