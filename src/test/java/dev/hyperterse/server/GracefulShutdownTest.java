package dev.hyperterse.server;

import dev.hyperterse.testing.DelayConnectors;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Graceful shutdown under load: with a drain period the server first answers {@code /ready} with
 * 503 while it serves on (new connections and calls included), then ends open streams and stops
 * listening; without one new connections are refused at once, calls already running get
 * their answers (none is cut off before the deadline), and only then are pools closed; a call
 * that outlives the deadline is cut off and the shutdown does not wait for it.
 */
class GracefulShutdownTest {
    @TempDir
    Path scratch;
    Path project;
    DelayConnectors delay;

    @BeforeEach
    void setUp() throws IOException {
        project = DelayConnectors.quickstartWithSlowTool(scratch);
        delay = new DelayConnectors();
    }

    @Test
    void aDrainingServerTurnsUnreadyFirstAndServesNewAndRunningCallsUntilTheDrainEnds() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(200, http.send("GET", "/ready").statusCode(), "ready before the stop");
            CompletableFuture<HttpResponse<String>> running = CompletableFuture.supplyAsync(() -> call(http, 1500));
            ReloadTest.await(() -> server.server().inFlight() == 1, "a call is running");

            long started = System.nanoTime();
            CompletableFuture<Void> stopped = server.server().shutdown(Duration.ofSeconds(4), Duration.ofSeconds(10))
                    .toCompletionStage().toCompletableFuture();
            // each on a connection of its own: the listener still accepts while /ready says no
            HttpResponse<String> ready = new RawHttp(server.baseUrl()).send("GET", "/ready");
            assertEquals(503, ready.statusCode(), "/ready turns false at once");
            assertEquals("stopping", new JsonObject(ready.body()).getString("status"));
            HttpResponse<String> arriving = call(new RawHttp(server.baseUrl()), 50);
            assertEquals(200, arriving.statusCode(), "a call arriving during the drain is served");
            assertTrue(new JsonObject(arriving.body()).containsKey("result"), arriving.body());
            assertEquals("close", arriving.headers().firstValue("connection").orElse(null),
                    "its connection is not kept: the client's next request opens one the balancer routes elsewhere");

            HttpResponse<String> inFlight = running.get(10, TimeUnit.SECONDS);
            assertEquals(200, inFlight.statusCode());
            assertTrue(new JsonObject(inFlight.body()).containsKey("result"), "the running call finished: " + inFlight.body());
            assertFalse(stopped.isDone(), "still draining after the running call finished");

            stopped.get(20, TimeUnit.SECONDS);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMs >= 4000, "the listener closed only after the drain (" + tookMs + " ms)");
            assertThrows(ExecutionException.class, () -> CompletableFuture
                    .supplyAsync(() -> call(new RawHttp(server.baseUrl()), 0)).get(5, TimeUnit.SECONDS),
                    "after the drain no new connection is served");
            assertEquals(0, delay.cutOff.get(), "no call was cut off");
        }
    }

    /**
     * After the drain, what still arrives is refused unrun (503, {@code Connection: close}) for as
     * long as it keeps arriving (at most {@link HyperterseServer#REFUSE_AT_MOST}); the listener
     * closes once requests stopped, so no request a balancer had just written is dropped unanswered.
     */
    @Test
    void afterTheDrainRequestsStillArrivingAreRefusedUnrunUntilTheyStop() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            long started = System.nanoTime();
            // one call served first, so the server is warm when the drain starts
            assertEquals(200, call(new RawHttp(server.baseUrl()), 1).statusCode());
            started = System.nanoTime();
            CompletableFuture<Void> stopped = server.server().shutdown(Duration.ofMillis(300), Duration.ofSeconds(10))
                    .toCompletionStage().toCompletableFuture();
            List<Integer> statuses = new ArrayList<>(List.of(200));
            HttpResponse<String> refused = null;
            // a balancer that keeps sending: each request on a connection of its own
            while (!stopped.isDone() && System.nanoTime() - started < TimeUnit.SECONDS.toNanos(20)) {
                HttpResponse<String> r;
                try {
                    // each call its own input: none is answered from the cache
                    r = call(new RawHttp(server.baseUrl()), statuses.size() + 2);
                } catch (RuntimeException e) {
                    if (refused != null) {
                        break; // the listener closed
                    }
                    statuses.add(-1); // a slow machine's client timeout: keep sending
                    continue;
                }
                statuses.add(r.statusCode());
                if (r.statusCode() == 503 && refused == null) {
                    refused = r;
                }
                Thread.sleep(20);
            }
            assertTrue(statuses.contains(200), "served during the drain: " + statuses);
            assertTrue(refused != null, "refused after the drain: " + statuses);
            assertEquals(statuses.size(), statuses.indexOf(503) + statuses.subList(statuses.indexOf(503), statuses.size())
                    .stream().filter(c -> c == 503).count(), "once refusing, every request is refused: " + statuses);
            assertEquals("close", refused.headers().firstValue("connection").orElse(null));
            assertTrue(new JsonObject(refused.body()).getJsonObject("error").getString("message").contains("not run"),
                    refused.body());
            stopped.get(20, TimeUnit.SECONDS);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMs >= 300 + HyperterseServer.REFUSE_AT_MOST.toMillis() - 100,
                    "requests kept arriving, so it refused them for as long as it may (" + tookMs + " ms)");
            assertEquals(statuses.stream().filter(c -> c == 200).count(), delay.executed.get(),
                    "every call answered 200 ran, no refused one did");
        }
    }

    /** With nothing arriving after the drain, the listener closes after a short quiet. */
    @Test
    void afterAQuietDrainTheListenerClosesSoon() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            long started = System.nanoTime();
            server.server().shutdown(Duration.ofMillis(300), Duration.ofSeconds(10))
                    .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMs >= 300 + HyperterseServer.REFUSE_QUIET.toMillis(), tookMs + " ms");
        }
    }

    @Test
    void streamsStayOpenDuringTheDrainAndAreEndedBeforeTheListenerCloses() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            String session = http.session("2025-11-25");
            try (dev.hyperterse.testing.SseStream stream = http.listen(session, null)) {
                assertEquals(200, stream.status());
                assertTrue(stream.next(Duration.ofSeconds(5)).priming());
                CompletableFuture<HttpResponse<String>> call = CompletableFuture.supplyAsync(() -> call(http, 3000));
                ReloadTest.await(() -> server.server().inFlight() == 1, "the call is running");
                CompletableFuture<Void> stopped = server.server().shutdown(Duration.ofMillis(1500), Duration.ofSeconds(10))
                        .toCompletionStage().toCompletableFuture();
                assertTrue(stream.silentFor(Duration.ofMillis(1000)), "the GET stream stays open during the drain");
                assertEquals(null, stream.nextMessage(Duration.ofSeconds(5)), "then it is ended, so its client reconnects");
                assertFalse(call.isDone(), "streams end before the running call is done");
                assertEquals(200, call.get(10, TimeUnit.SECONDS).statusCode(), "the call still finishes");
                stopped.get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void runningCallsFinishBeforeThePoolsClose() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                int ms = 800 + i * 150;
                calls.add(CompletableFuture.supplyAsync(() -> call(http, ms)));
            }
            ReloadTest.await(() -> server.server().inFlight() == 6, "six calls running");

            long started = System.nanoTime();
            var stopped = server.server().shutdown(Duration.ofSeconds(10)).toCompletionStage().toCompletableFuture();
            ExecutionException refused = assertThrows(ExecutionException.class, () -> CompletableFuture
                    .supplyAsync(() -> call(new RawHttp(server.baseUrl()), 0)).get(5, TimeUnit.SECONDS),
                    "no new connection is served once shutdown began");
            // refused, or (when it raced the listener closing) closed without an answer
            assertTrue(causedBy(refused, IOException.class), refused.toString());

            for (CompletableFuture<HttpResponse<String>> c : calls) {
                HttpResponse<String> r = c.get(10, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode());
                assertTrue(new JsonObject(r.body()).containsKey("result"), "the call was answered in full: " + r.body());
            }
            stopped.get(10, TimeUnit.SECONDS);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMs < 5000, "shutdown ended soon after the last call (" + tookMs + " ms)");
            assertEquals(0, delay.cutOff.get(), "no call was cut off");
            assertEquals(1, delay.closed.get(), "the pool was closed after the calls");
        }
    }

    @Test
    void openStreamsDoNotHoldTheShutdownUp() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            String session = http.session("2025-11-25");
            try (dev.hyperterse.testing.SseStream stream = http.listen(session, null)) {
                assertEquals(200, stream.status());
                CompletableFuture<HttpResponse<String>> call = CompletableFuture.supplyAsync(() -> call(http, 600));
                ReloadTest.await(() -> server.server().inFlight() == 1, "the call is running");
                long started = System.nanoTime();
                server.server().shutdown(Duration.ofSeconds(20)).toCompletionStage().toCompletableFuture()
                        .get(25, TimeUnit.SECONDS);
                long tookMs = (System.nanoTime() - started) / 1_000_000;
                assertEquals(200, call.get(5, TimeUnit.SECONDS).statusCode());
                assertTrue(tookMs < 5000, "the session's GET stream was ended once the call was done (" + tookMs + " ms)");
                assertEquals(null, stream.nextMessage(Duration.ofSeconds(5)), "the GET stream ended");
            }
        }
    }

    @Test
    void underSteadyLoadNoAnsweredCallIsCutOffAndShutdownDoesNotWaitForNewWork() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(200, call(http, 0).statusCode(), "warmed up");
            java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.concurrent.atomic.AtomicInteger ok = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
            List<String> bad = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread t = new Thread(() -> {
                    while (running.get()) {
                        try {
                            HttpResponse<String> r = call(http, 200);
                            if (r.statusCode() == 200 && new JsonObject(r.body()).containsKey("result")) {
                                ok.incrementAndGet();
                            } else {
                                bad.add(r.statusCode() + " " + r.body());
                            }
                        } catch (RuntimeException e) {
                            // the request never reached a running server: refused or closed before it was read
                            refused.incrementAndGet();
                            return;
                        }
                    }
                });
                t.start();
                clients.add(t);
            }
            Thread.sleep(700);
            long started = System.nanoTime();
            server.server().shutdown(Duration.ofSeconds(10)).toCompletionStage().toCompletableFuture()
                    .get(15, TimeUnit.SECONDS);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            running.set(false);
            for (Thread t : clients) {
                t.join(5000);
            }
            System.out.println("shutdown under load: " + ok.get() + " answered, " + refused.get() + " refused, "
                    + bad.size() + " bad, shutdown took " + tookMs + " ms, cut off " + delay.cutOff.get());
            assertEquals(List.of(), bad, "every call that ran was answered in full");
            assertEquals(0, delay.cutOff.get(), "no call was cut off");
            assertTrue(tookMs < 3000, "new requests on open connections do not hold the shutdown up (" + tookMs + " ms)");
        }
    }

    @Test
    void aCallOutlivingTheDeadlineIsCutOff() throws Exception {
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            CompletableFuture<HttpResponse<String>> longCall = CompletableFuture.supplyAsync(() -> call(http, 20_000));
            ReloadTest.await(() -> server.server().inFlight() == 1, "the call is running");
            long started = System.nanoTime();
            server.server().shutdown(Duration.ofMillis(300)).toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMs < 5000, "the shutdown kept to its deadline (" + tookMs + " ms)");
            assertEquals(1, delay.cutOff.get(), "the long call was cut off when the pool closed");
            boolean answered;
            try {
                HttpResponse<String> r = longCall.get(10, TimeUnit.SECONDS);
                answered = r.statusCode() == 200 && new JsonObject(r.body()).containsKey("result");
            } catch (ExecutionException e) {
                answered = false;
            }
            assertFalse(answered, "a call cut off at the deadline gets no result");
        }
    }

    private static HttpResponse<String> call(RawHttp http, int ms) {
        try {
            return http.mcp(RawHttp.execute(1, "slow", new JsonObject().put("ms", ms)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
