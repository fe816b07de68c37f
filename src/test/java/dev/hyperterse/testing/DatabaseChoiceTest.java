package dev.hyperterse.testing;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The once-per-run decision of where each test database comes from, with every probe injected. */
class DatabaseChoiceTest {
    private static final DatabaseChoice.Service PG = TestDatabases.POSTGRES;
    private static final Predicate<String> NOT_ASKED_ANSWERS = url -> fail("asked whether " + url + " answers");
    private static final BooleanSupplier NOT_ASKED_DOCKER = () -> fail("asked for a Docker engine");
    private static final Function<DatabaseChoice.Service, String> NOT_STARTED =
            s -> fail("started a container for " + s.title());

    @Test
    void theVariableWinsAndNothingElseIsProbed() {
        DatabaseChoice choice = DatabaseChoice.decide(PG, new DatabaseChoice.Probes(
                env("HYPERTERSE_TEST_POSTGRES_URL", " postgres://u@db:6543/x "), NOT_ASKED_ANSWERS,
                NOT_ASKED_DOCKER, NOT_STARTED));
        assertEquals(DatabaseChoice.Source.VARIABLE, choice.source());
        assertEquals("postgres://u@db:6543/x", choice.url());
    }

    @Test
    void aBlankVariableFallsThroughToTheLocalServiceWhenItAnswers() {
        DatabaseChoice choice = DatabaseChoice.decide(PG, new DatabaseChoice.Probes(
                env("HYPERTERSE_TEST_POSTGRES_URL", "  "), url -> url.equals(PG.localUrl()),
                NOT_ASKED_DOCKER, NOT_STARTED));
        assertEquals(DatabaseChoice.Source.LOCAL, choice.source());
        assertEquals(PG.localUrl(), choice.url());
        assertEquals("PostgreSQL: the local service at 127.0.0.1:5432", choice.reason());
    }

    @Test
    void aContainerIsStartedOnlyWhenNothingAnswersAndAnEngineIsPresent() {
        AtomicInteger started = new AtomicInteger();
        DatabaseChoice choice = DatabaseChoice.decide(TestDatabases.REDIS, new DatabaseChoice.Probes(
                env(), url -> false, () -> true, service -> {
                    started.incrementAndGet();
                    assertEquals("redis:7", service.image());
                    return "redis://localhost:32768";
                }));
        assertEquals(DatabaseChoice.Source.CONTAINER, choice.source());
        assertEquals("redis://localhost:32768", choice.url());
        assertEquals(1, started.get());
        assertEquals("Redis: container redis:7 at localhost:32768", choice.reason());
    }

    @Test
    void withoutAServerOrAnEngineTheTestsAreSkippedWithOneLineSayingHowToProvideOne() {
        DatabaseChoice choice = DatabaseChoice.decide(TestDatabases.MYSQL,
                new DatabaseChoice.Probes(env(), url -> false, () -> false, NOT_STARTED));
        assertEquals(DatabaseChoice.Source.NONE, choice.source());
        assertFalse(choice.available());
        assertNull(choice.url());
        assertEquals("MariaDB tests skipped: nothing answers at 127.0.0.1:3306, HYPERTERSE_TEST_MYSQL_URL is not set"
                + " and no Docker engine was found; start MariaDB there, set HYPERTERSE_TEST_MYSQL_URL to a server's"
                + " URL, or start Docker (the tests then run mariadb:11)", choice.reason());
        assertFalse(choice.reason().contains("\n"));

        TestDatabases.Decided decided = TestDatabases.Decided.of(TestDatabases.MYSQL,
                new DatabaseChoice.Probes(env(), url -> false, () -> false, NOT_STARTED));
        TestAbortedException skipped = assertThrows(TestAbortedException.class, decided::urlOrSkip);
        assertTrue(skipped.getMessage().endsWith(choice.reason()), skipped.getMessage());
    }

    @Test
    void anEngineThatCannotStartTheImageFailsTheTestsInsteadOfSkippingThem() {
        RuntimeException pullFailed = new RuntimeException("pull access denied");
        TestDatabases.Decided decided = TestDatabases.Decided.of(PG, new DatabaseChoice.Probes(env(), url -> false,
                () -> true, service -> {
                    throw pullFailed;
                }));
        IllegalStateException e = assertThrows(IllegalStateException.class, decided::urlOrSkip);
        assertSame(pullFailed, e.getCause());
        assertTrue(e.getMessage().contains("postgres:16 did not start"), e.getMessage());
        assertTrue(e.getMessage().contains("HYPERTERSE_TEST_POSTGRES_URL"), e.getMessage());
    }

    @Test
    void theAnswersProbeConnectsForReal() throws Exception {
        int port;
        try (ServerSocket listening = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = listening.getLocalPort();
            assertTrue(TestDatabases.answers("redis://127.0.0.1:" + port));
        }
        assertFalse(TestDatabases.answers("redis://127.0.0.1:" + port), "closed port " + port);
    }

    private static Function<String, String> env(String... pairs) {
        Map<String, String> map = new java.util.HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map::get;
    }

    @Test
    void mongoDbUsesTheVariableElseAContainerElseTheInProcessServer() {
        assertEquals("mongodb://db.example:27017", TestDatabases.decideMongo(
                name -> name.equals("HYPERTERSE_TEST_MONGODB_URL") ? " mongodb://db.example:27017 " : null,
                NOT_ASKED_DOCKER, () -> fail("started a container")));
        assertEquals("mongodb://localhost:32768", TestDatabases.decideMongo(name -> null, () -> true,
                () -> "mongodb://localhost:32768"));
        assertEquals(null, TestDatabases.decideMongo(name -> null, () -> false, () -> fail("started a container")));
    }
}
