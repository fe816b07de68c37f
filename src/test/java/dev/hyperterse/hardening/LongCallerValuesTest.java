package dev.hyperterse.hardening;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.postgres.PostgresConnectorFactory;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A caller's long value echoed back by PostgreSQL in an error (a tsquery syntax error, an enum's
 * invalid input, a CHECK violation's failing row) or thrown by a handler, at 20,000 and 1,000,000
 * characters, over real HTTP while another thread polls {@code /heartbeat}: every heartbeat answers
 * within 100 ms (the bound) and the failing call gets a clear error of bounded length.
 * Before redaction was linear, logging the first of these failures held the event loop for ~20 s.
 */
class LongCallerValuesTest {
    /** The bound for a heartbeat while attacks run. */
    static final long HEARTBEAT_BOUND_MS = 100;
    static final int[] LENGTHS = {20_000, 1_000_000};

    static Vertx vertx;
    static Connector admin;
    static String table = TestDatabases.uniqueName("h12_people");
    static String mood = TestDatabases.uniqueName("h12_mood");
    static String checked = TestDatabases.uniqueName("h12_checked");

    @TempDir
    Path scratch;

    @BeforeAll
    static void createTables() throws Exception {
        vertx = Vertx.vertx();
        PostgresConnectorFactory factory = new PostgresConnectorFactory();
        admin = await(factory.connect(vertx, new AdapterDef("admin", factory.type(), TestDatabases.postgresUrl(), Map.of(),
                SourceLocation.of(Path.of("admin.terse"))), Path.of(".")));
        for (String sql : new String[] {
                "CREATE TABLE " + table + " (id int PRIMARY KEY, name text NOT NULL)",
                "INSERT INTO " + table + " VALUES (1, 'ada lovelace'), (2, 'grace hopper')",
                "CREATE TYPE " + mood + " AS ENUM ('happy', 'sad')",
                "CREATE TABLE " + checked + " (id serial PRIMARY KEY, email text NOT NULL CHECK (length(email) < 40))"}) {
            run(sql);
        }
    }

    @AfterAll
    static void dropTables() throws Exception {
        try {
            run("DROP TABLE IF EXISTS " + table);
            run("DROP TABLE IF EXISTS " + checked);
            run("DROP TYPE IF EXISTS " + mood);
        } finally {
            admin.close();
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void longValuesEchoedInErrorsNeverHoldTheEventLoop() throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        Files.writeString(project.resolve("app/adapters/people.terse"), "connector: postgres\nconnection_string: '"
                + TestDatabases.postgresUrl() + "'\n");
        RunningServer.writeTool(project, "people-search", "use: people\n"
                + "statement: SELECT id FROM " + table + " WHERE to_tsvector('simple', name) @@ to_tsquery('simple', {{ inputs.q }})\n"
                + "inputs:\n  q: { type: string }\n");
        RunningServer.writeTool(project, "mood-cast", "use: people\n"
                + "statement: SELECT CAST({{ inputs.m }} AS " + mood + ") AS m\ninputs:\n  m: { type: string }\n");
        RunningServer.writeTool(project, "add-email", "use: people\n"
                + "statement: INSERT INTO " + checked + " (email) VALUES ({{ inputs.email }}) RETURNING id\n"
                + "inputs:\n  email: { type: string }\n");
        RunningServer.writeTool(project, "loud-handler", "inputs:\n  q: { type: string }\n");
        Files.writeString(project.resolve("app/tools/loud-handler/handler.ts"),
                "export default ({ inputs }: { inputs: { q: string } }) => {\n"
                        + "  console.log('token=' + inputs.q);\n"
                        + "  throw new Error('bad query: ' + inputs.q);\n"
                        + "};\n");

        try (WatchedServer server = WatchedServer.watch(project)) {
            RawHttp http = server.http();
            assertEquals(1, rows(http, "people-search", new JsonObject().put("q", "ada")), "the tool works");
            try (HeartbeatPoll poll = new HeartbeatPoll(server.baseUrl())) {
                poll.awaitPolls(20);
                for (int length : LENGTHS) {
                    String value = "a b" + "a".repeat(length);
                    expectBoundedError(http, "people-search", new JsonObject().put("q", value), "syntax error in tsquery", true);
                    expectBoundedError(http, "mood-cast", new JsonObject().put("m", value), "invalid input value for enum",
                            true);
                    // PostgreSQL shortens the failing row in this detail itself
                    expectBoundedError(http, "add-email", new JsonObject().put("email", "x" + "a".repeat(length)),
                            "violates check constraint", false);
                    expectBoundedError(http, "loud-handler", new JsonObject().put("q", value), "bad query: a baaa", true);
                }
                int before = poll.count();
                poll.awaitPolls(before + 10);
                List<String> slow = poll.slowerThan(HEARTBEAT_BOUND_MS);
                System.out.println("heartbeats: " + poll.count() + " polled, slowest " + poll.max() + " ms; "
                        + "slow ones with the process's own stall at the time: " + poll.slowAt);
                assertEquals(List.of(), slow, "every heartbeat answered within " + HEARTBEAT_BOUND_MS + " ms beyond what"
                        + " the whole process stalled meanwhile (" + poll.count() + " polled)");
                assertEquals(List.of(), poll.failures(), "every heartbeat answered 200");
            }
            server.assertServing();
        }
    }

    private static void expectBoundedError(RawHttp http, String tool, JsonObject inputs, String says, boolean cut)
            throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.execute(1, tool, inputs));
        assertEquals(200, r.statusCode(), () -> tool + ": " + r.body().substring(0, Math.min(500, r.body().length())));
        JsonObject body = new JsonObject(r.body());
        JsonObject error = body.getJsonObject("error");
        String message = error != null ? error.getString("message")
                : body.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(message.contains(says), tool + ": " + message.substring(0, Math.min(300, message.length())));
        assertTrue(!cut || message.contains("(truncated, "), tool + " says it cut the message: "
                + message.substring(Math.max(0, message.length() - 100)));
        assertTrue(r.body().length() < 4000, tool + ": the answer is bounded (" + r.body().length() + " chars)");
    }

    private static int rows(RawHttp http, String tool, JsonObject inputs) throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.execute(1, tool, inputs));
        JsonObject result = new JsonObject(r.body()).getJsonObject("result");
        assertTrue(result != null && !result.getBoolean("isError", false), r.body());
        return new io.vertx.core.json.JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text")).size();
    }

    private static void run(String sql) throws Exception {
        await(admin.execute(new PostgresConnectorFactory().compile(sql, Map.of()), List.of(),
                QueryOptions.of(1000, Duration.ofSeconds(60))));
    }

    private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    /**
     * GET /heartbeat in a loop on a connection of its own, each request timed from send to answer.
     * A request in flight while the loop stalls is measured as long as the stall lasts.
     *
     * <p>The machine these tests share may be loaded far beyond its cores, and a garbage-collection
     * pause or the whole process waiting for a CPU delays a heartbeat without any event-loop work
     * being at fault. So, as jHiccup does, a second thread sleeps 1 ms at a time and records how much
     * longer each sleep took; a heartbeat is charged only with its time beyond the longest such
     * stall of the process while it was in flight. Event-loop work (what this test is about) delays
     * heartbeats but not that thread, so it is charged in full.
     */
    static final class HeartbeatPoll implements AutoCloseable {
        /** Oversleeps of the hiccup thread: {start nanos, end nanos, excess millis}, excess over 2 ms only. */
        private final List<long[]> hiccups = Collections.synchronizedList(new ArrayList<>());
        private final List<long[]> slowPolls = Collections.synchronizedList(new ArrayList<>());
        private final Thread meter;
        private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private final HttpRequest request;
        private final List<Long> millis = Collections.synchronizedList(new ArrayList<>());
        private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        /** Each slow poll, for the report. */
        private final List<String> slowAt = Collections.synchronizedList(new ArrayList<>());
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        HeartbeatPoll(String baseUrl) {
            request = HttpRequest.newBuilder(URI.create(baseUrl + "/heartbeat")).timeout(Duration.ofSeconds(60)).build();
            thread = new Thread(this::poll, "heartbeat-poll");
            thread.setDaemon(true);
            meter = new Thread(this::meter, "hiccup-meter");
            meter.setDaemon(true);
            meter.start();
            thread.start();
        }

        private void meter() {
            while (running.get()) {
                long started = System.nanoTime();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
                long ended = System.nanoTime();
                long excess = (ended - started) / 1_000_000 - 1;
                if (excess > 2) {
                    hiccups.add(new long[] {started, ended, excess});
                }
            }
        }

        /** The longest stall of the whole process that overlapped [from, to]. */
        private long stallDuring(long from, long to) {
            synchronized (hiccups) {
                return hiccups.stream().filter(h -> h[1] >= from && h[0] <= to).mapToLong(h -> h[2]).max().orElse(0);
            }
        }

        /** Heartbeats slower than {@code bound} beyond the process's own stall meanwhile, described. */
        List<String> slowerThan(long bound) {
            // the meter's stall that ends after the heartbeat was answered is recorded a moment later
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            List<String> out = new ArrayList<>();
            synchronized (slowPolls) {
                for (long[] p : slowPolls) {
                    long ms = (p[1] - p[0]) / 1_000_000;
                    long stall = stallDuring(p[0], p[1]);
                    slowAt.add(ms + " ms (process stalled " + stall + " ms)");
                    if (ms - stall >= bound) {
                        out.add(ms + " ms, of which the process stalled " + stall + " ms");
                    }
                }
            }
            return out;
        }

        private void poll() {
            while (running.get()) {
                long started = System.nanoTime();
                try {
                    HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                    long ended = System.nanoTime();
                    long ms = (ended - started) / 1_000_000;
                    millis.add(ms);
                    if (ms >= HEARTBEAT_BOUND_MS) {
                        slowPolls.add(new long[] {started, ended});
                    }
                    if (r.statusCode() != 200) {
                        failures.add(r.statusCode() + " " + r.body());
                    }
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    millis.add((System.nanoTime() - started) / 1_000_000);
                    failures.add(e.toString());
                }
            }
        }

        int count() {
            return millis.size();
        }

        void awaitPolls(int n) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (count() < n && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertFalse(count() < n, "heartbeats kept coming (" + count() + " of " + n + ")");
        }

        long max() {
            synchronized (millis) {
                return millis.stream().mapToLong(Long::longValue).max().orElse(0);
            }
        }

        List<String> failures() {
            return List.copyOf(failures);
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(70_000);
            meter.join(5_000);
        }
    }
}
