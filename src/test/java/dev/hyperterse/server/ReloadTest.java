package dev.hyperterse.server;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.testing.DelayConnectors;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hot reload: a watched project changes under concurrent calls and not one call fails; a broken
 * edit keeps the old version serving and logs every problem with file:line; a call in flight
 * finishes on the snapshot it started on, which is closed only afterwards; sessions survive and
 * are told {@code notifications/tools/list_changed} when the tools changed.
 */
class ReloadTest {
    static final String SLOW_TOOL = DelayConnectors.SLOW_TOOL;

    @TempDir
    Path scratch;
    Path project;
    DelayConnectors delay;
    Connectors connectors;
    ListAppender<ILoggingEvent> logs;

    @BeforeEach
    void setUp() throws IOException {
        project = DelayConnectors.quickstartWithSlowTool(scratch);
        delay = new DelayConnectors();
        connectors = RunningServer.withDelay(delay);
        logs = new ListAppender<>();
        logs.start();
        ((Logger) LoggerFactory.getLogger(Reloader.class)).addAppender(logs);
    }

    @AfterEach
    void tearDown() {
        ((Logger) LoggerFactory.getLogger(Reloader.class)).detachAppender(logs);
    }

    static final String PROBE_TOKEN = "reload-probe";

    RunningServer start(Duration watch) throws Exception {
        // the token lets /ready show the generation
        return RunningServer.start(project, Map.of(), connectors,
                s -> s.timeouts(t -> t.shutdownTimeout(Duration.ofSeconds(10))).metricsToken(PROBE_TOKEN),
                ServeOptions.DEFAULTS.withReloads(RunningServer.recompile(project, Map.of(), connectors), watch));
    }

    @Test
    void editsUnderLoadFailNoCallAndABrokenEditKeepsServing() throws Exception {
        try (RunningServer server = start(Duration.ofMillis(100))) {
            RawHttp http = new RawHttp(server.baseUrl());
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger calls = new AtomicInteger();
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int n = i;
                Thread t = new Thread(() -> {
                    int id = 0;
                    while (running.get()) {
                        JsonObject call = n % 2 == 0
                                ? RawHttp.execute(++id, "get-customer", new JsonObject().put("customer_id", 1))
                                : RawHttp.execute(++id, "slow", new JsonObject().put("ms", 40));
                        try {
                            HttpResponse<String> r = http.mcp(call);
                            if (r.statusCode() != 200 || !new JsonObject(r.body()).containsKey("result")) {
                                failures.add(r.statusCode() + " " + r.body());
                            }
                        } catch (Exception e) {
                            failures.add(e.toString());
                        }
                        calls.incrementAndGet();
                    }
                }, "client-" + i);
                t.start();
                clients.add(t);
            }
            try {
                Thread.sleep(300);
                Path config = project.resolve("app/tools/get-customer/config.terse");
                Files.writeString(config, Files.readString(config).replace("description: '", "description: 'Edited. "));
                awaitGeneration(http, 2);
                assertTrue(server.server().project().tools().get("get-customer").description().startsWith("Edited. "));

                RunningServer.writeTool(project, "product-count", "use: shop\nstatement: SELECT count(*) AS n FROM products\n");
                awaitGeneration(http, 3);
                HttpResponse<String> added = http.mcp(RawHttp.execute(1, "product-count", new JsonObject()));
                assertTrue(added.body().contains("\\\"n\\\""), added.body());

                RunningServer.writeTool(project, "broken", "use: shop\nstatment: SELECT 1\n");
                Files.writeString(project.resolve("app/tools/slow/config.terse"), SLOW_TOOL + "  extra:\n    type: nope\n");
                await(() -> logged("reload failed"), "the failed reload is logged");
                await(() -> logged("tools/broken/config.terse:2: unknown key 'statment'"), "with file:line");
                await(() -> logged("tools/slow/config.terse:8: 'inputs.extra.type' must be one of"), "every problem is logged");
                Thread.sleep(400);
                assertEquals(3, generation(http), "the old version keeps serving");
                assertEquals(200, http.send("GET", "/ready").statusCode());

                Files.delete(project.resolve("app/tools/broken/config.terse"));
                Files.delete(project.resolve("app/tools/broken"));
                RunningServer.writeTool(project, "slow", SLOW_TOOL);
                awaitGeneration(http, 4);
                Thread.sleep(300);
            } finally {
                running.set(false);
                for (Thread t : clients) {
                    t.join(10_000);
                }
            }
            System.out.println("reload under load: " + calls.get() + " calls, " + failures.size() + " failed, "
                    + (generation(http) - 1) + " reloads applied, 1 refused");
            assertEquals(List.of(), failures, "no call fails while the project reloads");
            assertTrue(calls.get() > 40, "the clients kept calling: " + calls.get());
            await(() -> delay.closed.get() == delay.opened.get() - 1, "every replaced snapshot is closed");
            assertEquals(0, delay.cutOff.get(), "no call was cut off by closing its snapshot");
        }
    }

    @Test
    void aCallInFlightFinishesOnTheSnapshotItStartedOn() throws Exception {
        try (RunningServer server = start(null)) {
            RawHttp http = new RawHttp(server.baseUrl());
            CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> {
                try {
                    return http.mcp(RawHttp.execute(1, "slow", new JsonObject().put("ms", 1500)));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await(() -> server.server().project() != null && inFlight(server) == 1, "the call is running");
            RunningServer.writeTool(project, "slow", SLOW_TOOL.replace("Waits", "Waits a while"));
            server.server().reload().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals("Waits a while", server.server().project().tools().get("slow").description(),
                    "the new version serves");
            assertFalse(slow.isDone(), "the reload did not wait for the call");
            assertEquals(0, delay.closed.get(), "the old snapshot stays open while its call runs");

            HttpResponse<String> answer = slow.get(10, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode());
            assertTrue(answer.body().contains("slept\\\":1500"), answer.body());
            await(() -> delay.closed.get() == 1, "then the old snapshot is closed");
            assertEquals(0, delay.cutOff.get());
        }
    }

    @Test
    void sessionsSurviveAndAreToldWhenTheToolsChanged() throws Exception {
        try (RunningServer server = start(null)) {
            RawHttp http = new RawHttp(server.baseUrl());
            HttpResponse<String> init = http.mcp(RawHttp.initialize("2025-11-25"));
            assertEquals(Boolean.TRUE, new JsonObject(init.body()).getJsonObject("result").getJsonObject("capabilities")
                    .getJsonObject("tools").getBoolean("listChanged"), "a reloading server declares listChanged");
            String session = init.headers().firstValue("mcp-session-id").orElseThrow();
            String[] headers = {"Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25"};
            assertEquals(202, http.mcp(RawHttp.notification("notifications/initialized", null), headers).statusCode());
            try (SseStream stream = http.listen(session, null)) {
                assertEquals(200, stream.status());
                // same tools: a reload that changes nothing a client sees sends nothing
                Files.writeString(project.resolve(".hyperterse"), Files.readString(project.resolve(".hyperterse"))
                        + "\n# a comment\n");
                server.server().reload().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertTrue(stream.silentFor(Duration.ofMillis(500)) || isPriming(stream, Duration.ofMillis(500)),
                        "no list_changed without a change");

                RunningServer.writeTool(project, "product-count", "use: shop\nstatement: SELECT count(*) AS n FROM products\n");
                server.server().reload().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                SseStream.Event event = stream.nextMessage(Duration.ofSeconds(5));
                assertEquals("notifications/tools/list_changed", event.json().getString("method"));
            }
            HttpResponse<String> after = http.mcp(RawHttp.execute(2, "product-count", new JsonObject()), headers);
            assertEquals(200, after.statusCode(), "the session survived the reload: " + after.body());
            assertTrue(after.body().contains("result"), after.body());
        }
    }

    /**
     * A reload that brings a statement its database does not prepare is applied as a start is:
     * that tool answers why and /ready lists it; with strict statements the reload is refused.
     */
    @Test
    void aReloadWithAStatementThatDoesNotPrepareServesTheRestUnlessStrict() throws Exception {
        try (RunningServer server = start(null)) {
            RawHttp http = new RawHttp(server.baseUrl());
            RunningServer.writeTool(project, "broken", "use: shop\nstatement: SELECT nope FROM missing_table\n");
            server.server().reload().toCompletionStage().toCompletableFuture().get();
            assertEquals(2, generation(http));
            JsonObject ready = new JsonObject(http.send("GET", "/ready", "Authorization", "Bearer " + PROBE_TOKEN).body());
            assertTrue(ready.getJsonArray("unavailable").getJsonObject(0).getString("error")
                    .startsWith("tool 'broken': the statement does not prepare"), ready.encode());
            assertTrue(http.mcp(RawHttp.execute(1, "broken", new JsonObject())).body().contains("is unavailable"));
            assertTrue(http.mcp(RawHttp.execute(2, "get-customer", new JsonObject().put("customer_id", 1))).body()
                    .contains("result"));
        }
        try (RunningServer strict = RunningServer.start(project, Map.of(), connectors,
                s -> s.metricsToken(PROBE_TOKEN), ServeOptions.DEFAULTS.withStrictStatements(true)
                        .withReloads(RunningServer.recompile(project, Map.of(), connectors), null))) {
            fail("a strict start refuses the project: " + strict.baseUrl());
        } catch (java.util.concurrent.ExecutionException refused) {
            assertTrue(refused.getCause().getMessage().contains("missing_table"), refused.getCause().getMessage());
        }
        Files.delete(project.resolve("app/tools/broken/config.terse"));
        try (RunningServer strict = RunningServer.start(project, Map.of(), connectors,
                s -> s.metricsToken(PROBE_TOKEN), ServeOptions.DEFAULTS.withStrictStatements(true)
                        .withReloads(RunningServer.recompile(project, Map.of(), connectors), null))) {
            RawHttp http = new RawHttp(strict.baseUrl());
            RunningServer.writeTool(project, "broken", "use: shop\nstatement: SELECT nope FROM missing_table\n");
            assertTrue(strict.server().reload().toCompletionStage().toCompletableFuture()
                    .handle((ok, e) -> e != null).get(), "the strict reload is refused");
            assertEquals(1, generation(http), "the previous version keeps serving");
        }
    }

    @Test
    void aServerWithoutReloadsDeclaresNoListChanged() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), connectors, s -> s, ServeOptions.DEFAULTS)) {
            HttpResponse<String> init = new RawHttp(server.baseUrl()).mcp(RawHttp.initialize("2025-11-25"));
            assertEquals(Boolean.FALSE, new JsonObject(init.body()).getJsonObject("result").getJsonObject("capabilities")
                    .getJsonObject("tools").getBoolean("listChanged"));
            assertTrue(server.server().reload().failed(), "nothing to reload from");
        }
    }

    // ---- helpers ----

    private static boolean isPriming(SseStream stream, Duration timeout) throws InterruptedException {
        SseStream.Event e = stream.next(timeout);
        return e != null && e.priming() && stream.silentFor(timeout);
    }

    private boolean logged(String text) {
        return logs.list.stream().anyMatch(e -> e.getFormattedMessage().contains(text));
    }

    private static int inFlight(RunningServer server) {
        return server.server().inFlight();
    }

    static long generation(RawHttp http) throws Exception {
        return new JsonObject(http.send("GET", "/ready", "Authorization", "Bearer " + PROBE_TOKEN).body())
                .getLong("generation");
    }

    static void awaitGeneration(RawHttp http, long expected) throws Exception {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            if (generation(http) >= expected) {
                assertEquals(expected, generation(http));
                return;
            }
            Thread.sleep(50);
        }
        fail("generation " + expected + " never came; now " + generation(http));
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(20);
        }
        fail("timed out waiting: " + what);
    }
}
