package dev.hyperterse.hardening;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.server.ServeOptions;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real server for hardening tests, with its event loop and its log watched: Vert.x reports any
 * event-loop task over one second (its own limit is two; a second still leaves room for a cold
 * JVM on a shared two-core machine), and {@link #close()} fails the test when that happened or
 * when the server logged an internal error (an unexpected exception reaching the endpoint).
 */
final class WatchedServer implements AutoCloseable {
    /** Tools every hardening project has besides the quickstart's: one input of each type, echoed back. */
    static final String ECHO_TOOL = "description: 'Echo one input of each type back as a row'\n"
            + "use: shop\n"
            + "statement: |\n"
            + "  SELECT {{ inputs.s }} AS s, {{ inputs.i }} AS i, {{ inputs.f }} AS f, {{ inputs.b }} AS b,"
            + " {{ inputs.d }} AS d\n"
            + "inputs:\n"
            + "  s: { type: string, optional: true }\n"
            + "  i: { type: int, optional: true }\n"
            + "  f: { type: float, optional: true }\n"
            + "  b: { type: boolean, optional: true }\n"
            + "  d: { type: datetime, optional: true }\n";

    private final RunningServer server;
    private final RawHttp http;
    private final ListAppender<ILoggingEvent> log;
    private final Level rootLevelBefore;

    private WatchedServer(RunningServer server, ListAppender<ILoggingEvent> log, Level rootLevelBefore) {
        this.server = server;
        this.http = new RawHttp(server.baseUrl());
        this.log = log;
        this.rootLevelBefore = rootLevelBefore;
    }

    /** The quickstart project plus the echo tool, served from a copy in {@code scratch}. */
    static WatchedServer quickstart(Path scratch) throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(project, "echo", ECHO_TOOL);
        return watch(project);
    }

    /**
     * The quickstart and echo tool plus script tools: {@code hello}, a TypeScript handler, and
     * {@code get-customer-mapped}, the point query with an input and an output mapper.
     */
    static WatchedServer quickstartWithScripts(Path scratch) throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(project, "echo", ECHO_TOOL);
        RunningServer.writeTool(project, "hello", "inputs:\n  name: { type: string }\n");
        java.nio.file.Files.writeString(project.resolve("app/tools/hello/handler.ts"),
                "export default ({ inputs }: { inputs: { name: string } }) => ({ greeting: `hello ${inputs.name}` });\n");
        RunningServer.writeTool(project, "get-customer-mapped", "use: shop\ninputs:\n  customer_id: { type: int }\n"
                + "statement: SELECT id, name FROM customers WHERE id = {{ inputs.customer_id }}\n");
        java.nio.file.Files.writeString(project.resolve("app/tools/get-customer-mapped/input.ts"),
                "export default ({ inputs }: { inputs: Record<string, unknown> }) => inputs;\n");
        java.nio.file.Files.writeString(project.resolve("app/tools/get-customer-mapped/output.ts"),
                "export default ({ results }: { results: Array<{ name: string }> }) => results.map(r => ({ who: r.name }));\n");
        return watch(project);
    }

    /** Any project, watched the same way. */
    static WatchedServer watch(Path project) throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        root().addAppender(log);
        // the checks read INFO lines (failed calls) and WARN lines (blocked threads) whatever level
        // an earlier test in this process left the root logger at
        Level before = root().getLevel();
        root().setLevel(Level.INFO);
        try {
            RunningServer server = RunningServer.start(project, Map.of(), Connectors.builtIn(), s -> s, ServeOptions.DEFAULTS,
                    new VertxOptions()
                            .setBlockedThreadCheckInterval(100).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
                            .setMaxEventLoopExecuteTime(1000).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                            .setWarningExceptionTime(1000).setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS));
            return new WatchedServer(server, log, before);
        } catch (Exception e) {
            root().detachAppender(log);
            root().setLevel(before);
            throw e;
        }
    }

    RawHttp http() {
        return http;
    }

    String baseUrl() {
        return server.baseUrl();
    }

    int port() {
        return server.port();
    }

    /** The server still answers: {@code /heartbeat}, and a real call of a database tool. */
    void assertServing() throws Exception {
        HttpResponse<String> heartbeat = http.send("GET", "/heartbeat");
        assertEquals(200, heartbeat.statusCode(), "heartbeat");
        HttpResponse<String> call = http.mcp(RawHttp.execute(7, "get-customer", new JsonObject().put("customer_id", 1)));
        assertEquals(200, call.statusCode(), call.body());
        JsonObject result = new JsonObject(call.body()).getJsonObject("result");
        assertTrue(result != null, call.body());
        JsonArray rows = new JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text"));
        assertEquals("Ada Lovelace", rows.getJsonObject(0).getString("name"));
    }

    /** Every log event so far. */
    List<ILoggingEvent> events() {
        return List.copyOf(log.list);
    }

    /** Log lines so far that show a problem of the server rather than of a caller. */
    List<String> problems() {
        return log.list.stream()
                .filter(e -> {
                    String m = e.getFormattedMessage();
                    return m.contains("has been blocked")
                            || m.contains("unexpected failure") || m.contains("failed unexpectedly")
                            || (e.getLevel().isGreaterOrEqual(Level.ERROR));
                })
                .map(e -> e.getLevel() + " " + e.getLoggerName() + " - " + e.getFormattedMessage())
                .collect(Collectors.toList());
    }

    @Override
    public void close() throws Exception {
        try {
            server.close();
        } finally {
            root().detachAppender(log);
            root().setLevel(rootLevelBefore);
        }
        assertEquals(List.of(), problems(), "no blocked event loop, no internal errors");
    }

    private static ch.qos.logback.classic.Logger root() {
        return (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    }
}
