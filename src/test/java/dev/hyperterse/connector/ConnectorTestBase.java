package dev.hyperterse.connector;

import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.testing.LogCapture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.testing.Futures.await;
import static dev.hyperterse.testing.Futures.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * What the tests of a connector against a real server share: one Vert.x for the class, with the
 * log watched so that the class fails if the event loop was ever blocked; connectors a test opens
 * through {@link #connectTo}, closed after it; and calls that fail the test unless they succeed
 * (or fail with a {@link ConnectorException}). A subclass's {@code @BeforeAll} runs once
 * {@link #vertx} exists, its {@code @AfterAll} before Vert.x closes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ConnectorTestBase {
    protected static final Duration TIMEOUT = Duration.ofSeconds(20);

    protected Vertx vertx;
    private LogCapture log;
    private final List<Connector> extra = new ArrayList<>();
    private final String adapterName;

    /** @param adapterName the name of the adapter the tests connect through, defined in {@code app/adapters/<name>.terse} */
    protected ConnectorTestBase(String adapterName) {
        this.adapterName = adapterName;
    }

    protected abstract ConnectorFactory factory();

    /** The adapter a test connects through, at {@code url} with these options. */
    protected AdapterDef adapter(String url, Map<String, String> options) {
        return new AdapterDef(adapterName, factory().type(), url, options,
                SourceLocation.of(Path.of("app/adapters/" + adapterName + ".terse")));
    }

    @BeforeAll
    void startVertx() {
        log = LogCapture.root();
        vertx = Vertx.vertx();
    }

    @AfterEach
    void closeExtra() {
        extra.forEach(c -> await(c.close()));
        extra.clear();
    }

    @AfterAll
    void closeVertx() {
        try {
            await(vertx.close());
        } finally {
            log.close();
        }
        assertEquals(List.of(), log.messagesContaining("has been blocked"), "the event loop must never block");
    }

    /** A connector the caller closes. */
    protected Connector open(String url, Map<String, String> options) {
        return await(factory().connect(vertx, adapter(url, options), Path.of(".")));
    }

    /** A further connector, closed after the test. */
    protected Connector connectTo(String url, Map<String, String> options) {
        Connector c = open(url, options);
        extra.add(c);
        return c;
    }

    /** The message of the ConnectorException connecting fails with. */
    protected String connectFailure(String url, Map<String, String> options) {
        Throwable e = failure(factory().connect(vertx, adapter(url, options), Path.of(".")));
        assertInstanceOf(ConnectorException.class, e);
        return e.getMessage();
    }

    protected CompiledStatement compile(String template) {
        try {
            return factory().compile(template, Map.of());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    protected Future<QueryResult> execute(Connector c, String template, int rowLimit, Duration timeout, Object... values) {
        return c.execute(compile(template), Arrays.asList(values), QueryOptions.of(rowLimit, timeout));
    }

    /** The rows of a call that must succeed and not be cut. */
    protected JsonArray rows(Connector c, String template, Object... values) {
        QueryResult result = await(execute(c, template, 1000, TIMEOUT, values));
        assertFalse(result.truncated());
        return result.rows();
    }

    /** The message of the ConnectorException a call fails with. */
    protected static String error(Future<?> future) {
        Throwable e = failure(future);
        assertInstanceOf(ConnectorException.class, e, () -> "a ConnectorException, got " + e);
        return e.getMessage();
    }
}
