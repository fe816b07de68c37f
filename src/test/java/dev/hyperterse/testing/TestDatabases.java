package dev.hyperterse.testing;

import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.UUID;

/**
 * Where the tests find PostgreSQL, MySQL/MariaDB and Redis (README, Testing), decided once per
 * run and service by {@link DatabaseChoice}: the server named by {@code HYPERTERSE_TEST_POSTGRES_URL},
 * {@code HYPERTERSE_TEST_MYSQL_URL} or {@code HYPERTERSE_TEST_REDIS_URL}, else the local service if
 * it answers, else a Testcontainers container when a Docker engine is present, else the tests that
 * need it are skipped (a JUnit assumption) with one line saying how to provide it. MongoDB: an
 * in-process server unless {@code HYPERTERSE_TEST_MONGODB_URL} names one. Tests work in a
 * schema, database or key prefix of their own, so runs on a shared server do not meet.
 */
public final class TestDatabases {
    static final DatabaseChoice.Service POSTGRES = new DatabaseChoice.Service("PostgreSQL",
            "HYPERTERSE_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "postgres:16");
    static final DatabaseChoice.Service MYSQL = new DatabaseChoice.Service("MariaDB",
            "HYPERTERSE_TEST_MYSQL_URL", "mysql://root@127.0.0.1:3306/test", "mariadb:11");
    static final DatabaseChoice.Service REDIS = new DatabaseChoice.Service("Redis",
            "HYPERTERSE_TEST_REDIS_URL", "redis://127.0.0.1:6379", "redis:7");

    private static final int CONNECT_TIMEOUT_MS = 1000;

    private TestDatabases() {
    }

    /** A PostgreSQL server's URL; skips the calling test when there is none. */
    public static String postgresUrl() {
        return PostgresChoice.DECIDED.urlOrSkip();
    }

    /** A MariaDB (or MySQL) server's URL; skips the calling test when there is none. */
    public static String mysqlUrl() {
        return MysqlChoice.DECIDED.urlOrSkip();
    }

    /** A Redis server's URL; skips the calling test when there is none. */
    public static String redisUrl() {
        return RedisChoice.DECIDED.urlOrSkip();
    }

    // One holder per service: each decision is made on first use, once per run, and only for the
    // services a run's tests need (a container is not started for a database no test asked for).
    private static final class PostgresChoice {
        static final Decided DECIDED = Decided.of(POSTGRES, systemProbes());
    }

    private static final class MysqlChoice {
        static final Decided DECIDED = Decided.of(MYSQL, systemProbes());
    }

    private static final class RedisChoice {
        static final Decided DECIDED = Decided.of(REDIS, systemProbes());
    }

    /** A decision, or why the Docker engine could not provide the service. */
    record Decided(DatabaseChoice.Service service, DatabaseChoice choice, RuntimeException failure) {
        static Decided of(DatabaseChoice.Service service, DatabaseChoice.Probes probes) {
            Decided decided;
            try {
                decided = new Decided(service, DatabaseChoice.decide(service, probes), null);
            } catch (RuntimeException e) {
                decided = new Decided(service, null, e);
            }
            System.err.println("[test databases] " + (decided.failure == null ? decided.choice.reason()
                    : service.title() + ": a Docker engine is present but " + service.image()
                    + " did not start: " + decided.failure));
            return decided;
        }

        String urlOrSkip() {
            if (failure != null) {
                throw new IllegalStateException(service.title() + ": a Docker engine is present but "
                        + service.image() + " did not start (set " + service.variable()
                        + " to use another server)", failure);
            }
            Assumptions.assumeTrue(choice.available(), choice.reason());
            return choice.url();
        }
    }

    static DatabaseChoice.Probes systemProbes() {
        return new DatabaseChoice.Probes(System::getenv, TestDatabases::answers,
                () -> DockerClientFactory.instance().isDockerAvailable(), TestDatabases::startContainer);
    }

    /** Whether something accepts TCP connections at the URL's address. */
    static boolean answers(String url) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host(url), port(url, 0)), CONNECT_TIMEOUT_MS);
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Starts the service's container and returns its URL, with the same database name and user
     * rights the local services have. Containers are never stopped here: Testcontainers removes
     * them when the test JVM ends, so every test class of the run shares them.
     */
    @SuppressWarnings("resource")
    static String startContainer(DatabaseChoice.Service service) {
        if (service.equals(POSTGRES)) {
            PostgreSQLContainer pg = new PostgreSQLContainer(DockerImageName.parse(service.image()))
                    .withDatabaseName("test");
            pg.start();
            return "postgres://" + pg.getUsername() + ":" + pg.getPassword() + "@" + pg.getHost() + ":"
                    + pg.getMappedPort(5432) + "/test?sslmode=disable";
        }
        if (service.equals(MYSQL)) {
            GenericContainer<?> maria = new GenericContainer<>(DockerImageName.parse(service.image()))
                    .withEnv("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "1")
                    .withEnv("MARIADB_DATABASE", "test")
                    .withExposedPorts(3306)
                    // the image's entrypoint first runs a server without networking (port: 0)
                    .waitingFor(Wait.forLogMessage(".*ready for connections.*port: 3306.*\\n", 1));
            maria.start();
            return "mysql://root@" + maria.getHost() + ":" + maria.getMappedPort(3306) + "/test";
        }
        if (service.equals(REDIS)) {
            GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse(service.image()))
                    .withExposedPorts(6379)
                    .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1));
            redis.start();
            return "redis://" + redis.getHost() + ":" + redis.getMappedPort(6379);
        }
        throw new IllegalArgumentException("no container for " + service.title());
    }

    /**
     * A real MongoDB server: the one {@code HYPERTERSE_TEST_MONGODB_URL} names, else a {@code mongo:7}
     * container when a Docker engine is present (started once per run); null otherwise, and then
     * the tests run against an in-process server ({@link MongoTestServer}), which is what CI on a
     * machine without Docker uses.
     */
    public static String mongodbUrl() {
        return MongoChoice.URL;
    }

    private static final class MongoChoice {
        static final String URL = decideMongo(System::getenv, () -> DockerClientFactory.instance().isDockerAvailable(),
                TestDatabases::startMongoContainer);
    }

    /** The MongoDB decision, with its probes injected (tested in {@code DatabaseChoiceTest}). */
    static String decideMongo(java.util.function.Function<String, String> environment,
                              java.util.function.BooleanSupplier dockerAvailable,
                              java.util.function.Supplier<String> startContainer) {
        String v = environment.apply("HYPERTERSE_TEST_MONGODB_URL");
        String url;
        String why;
        if (v != null && !v.isBlank()) {
            url = v.trim();
            why = "MongoDB: HYPERTERSE_TEST_MONGODB_URL";
        } else if (dockerAvailable.getAsBoolean()) {
            url = startContainer.get();
            why = "MongoDB: a mongo:7 container (a Docker engine is present)";
        } else {
            url = null;
            why = "MongoDB: the in-process server (mongo-java-server); set HYPERTERSE_TEST_MONGODB_URL or run a"
                    + " Docker engine to test against a real MongoDB";
        }
        System.err.println("[test databases] " + why);
        return url;
    }

    @SuppressWarnings("resource")
    private static String startMongoContainer() {
        GenericContainer<?> mongo = new GenericContainer<>(DockerImageName.parse("mongo:7"))
                .withExposedPorts(27017)
                .waitingFor(Wait.forLogMessage(".*Waiting for connections.*\\n", 1));
        mongo.start();
        return "mongodb://" + mongo.getHost() + ":" + mongo.getMappedPort(27017);
    }

    /** A name no other run uses: {@code prefix_1a2b3c4d5e6f}. */
    public static String uniqueName(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** The same URL with another database (path), keeping credentials, host and query. */
    public static String withDatabase(String url, String database) {
        int authority = url.indexOf("://") + 3;
        int at = url.lastIndexOf('@');
        int slash = url.indexOf('/', Math.max(authority, at + 1));
        int query = url.indexOf('?', Math.max(authority, at + 1));
        String head = slash < 0 ? (query < 0 ? url : url.substring(0, query)) : url.substring(0, slash);
        String tail = query < 0 ? "" : url.substring(query);
        return head + "/" + database + tail;
    }

    /** The same URL pointing at another host and port (a {@link TcpProxy}, say). */
    public static String withAddress(String url, String host, int port) {
        int[] span = addressSpan(url);
        return url.substring(0, span[0]) + host + ":" + port + url.substring(span[1]);
    }

    /** The host of a URL such as {@code postgres://u@host:5432/db}. */
    public static String host(String url) {
        String address = address(url);
        int colon = address.lastIndexOf(':');
        return colon < 0 ? address : address.substring(0, colon);
    }

    /** The port of a URL, or {@code fallback} when it names none. */
    public static int port(String url, int fallback) {
        String address = address(url);
        int colon = address.lastIndexOf(':');
        return colon < 0 ? fallback : Integer.parseInt(address.substring(colon + 1));
    }

    private static String address(String url) {
        int[] span = addressSpan(url);
        return url.substring(span[0], span[1]);
    }

    /** Where {@code host:port} starts and ends in a URL: after the scheme and any credentials, up to the path or query. */
    private static int[] addressSpan(String url) {
        int authority = url.indexOf("://") + 3;
        int at = url.lastIndexOf('@');
        int hostStart = Math.max(authority, at + 1);
        int end = hostStart;
        while (end < url.length() && url.charAt(end) != '/' && url.charAt(end) != '?') {
            end++;
        }
        return new int[] {hostStart, end};
    }
}
