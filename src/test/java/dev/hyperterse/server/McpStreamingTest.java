package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server-to-client messages over raw HTTP, with the SSE framing parsed by hand: POST answered
 * with SSE when a call logs or reports progress (mcp-transport.md §12 items 6, 15, 16), the GET
 * stream, event ids, priming, Last-Event-ID replay (item 18), and cancellation (item 17).
 * The project's only SQLite connection is shared, so a statement that kept running after a
 * cancel would hold up the next call.
 */
class McpStreamingTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String V = "2025-11-25";
    private static final String SECRET = "s3cret-key-value-do-not-leak";
    private static final String FOREVER =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c";

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path project = RunningServer.copyExample("quickstart", scratch);
        Files.writeString(project.resolve("app/adapters/shop.terse"), String.join("\n",
                "connector: sqlite",
                "connection_string: 'sqlite:data/shop.db'",
                "options:",
                "  init_sql: db/schema.sql,db/seed.sql",
                "  max_connections: 1",
                ""));
        RunningServer.writeTool(project, "slow-count", "description: 'Counts forever (cancellation tests)'\n"
                + "use: shop\ntimeout: 20s\nstatement: '" + FOREVER + "'\n");
        RunningServer.writeTool(project, "timed-count", "description: 'Counts until its time limit (progress tests)'\n"
                + "use: shop\ntimeout: 1s\nstatement: '" + FOREVER + "'\n");
        RunningServer.writeTool(project, "guarded", "description: 'Needs an API key'\nuse: shop\n"
                + "statement: 'SELECT 1 AS one'\nauth:\n  plugin: api_key\n  policy:\n    value: '{{ env.SHOP_KEY }}'\n");
        return RunningServer.start(project, Map.of("SHOP_KEY", SECRET),
                s -> s.timeouts(t -> t.progressInterval(Duration.ofMillis(50))));
    });
    static final RawHttp http = server.http();

    @Test
    void aCallThatLogsIsAnsweredWithAnSseStream() throws Exception {
        String sid = http.session(V);
        setLevel(sid, "debug");
        SseStream post = http.mcpStream(RawHttp.execute(2, "get-customer", new JsonObject().put("customer_id", 1)),
                session(sid));
        assertEquals(200, post.status());
        assertEquals("text/event-stream", post.header("content-type"));
        List<SseStream.Event> events = post.rest(WAIT);
        assertEquals(4, events.size(), events::toString);

        SseStream.Event priming = events.get(0);
        assertTrue(priming.priming(), "a 2025-11-25 stream starts with an id and empty data: " + priming);
        assertEquals(1000, priming.retry());
        assertTrue(priming.id().matches("[0-9a-z]+-\\d+-\\d+"), priming.id());

        JsonObject started = events.get(1).json();
        assertEquals("notifications/message", started.getString("method"));
        assertEquals("debug", started.getJsonObject("params").getString("level"));
        assertEquals("hyperterse", started.getJsonObject("params").getString("logger"));
        JsonObject done = events.get(2).json().getJsonObject("params");
        assertEquals("info", done.getString("level"));
        assertTrue(done.getString("data").startsWith("execute 'get-customer': 1 row in "), done.encode());

        JsonObject response = events.get(3).json();
        assertEquals(2, response.getInteger("id"));
        assertEquals("Ada Lovelace", new JsonArray(response.getJsonObject("result").getJsonArray("content")
                .getJsonObject(0).getString("text")).getJsonObject(0).getString("name"));

        String stream = streamOf(priming.id());
        long last = 0;
        for (SseStream.Event e : events) {
            assertEquals(stream, streamOf(e.id()), "every event names the same stream");
            assertTrue(seqOf(e.id()) > last, "ids increase: " + events);
            last = seqOf(e.id());
            if (!e.priming()) {
                assertEquals("message", e.event());
            }
        }
    }

    @Test
    void logsAreSentOnlyAtOrAboveTheSessionLevelAndNeverCarrySecrets() throws Exception {
        String sid = http.session(V);
        setLevel(sid, "info");
        List<SseStream.Event> info = http.mcpStream(RawHttp.execute(1, "get-customer",
                new JsonObject().put("customer_id", 1)), session(sid)).rest(WAIT);
        assertEquals(List.of("info"), levels(info), "debug is below info");

        setLevel(sid, "error");
        HttpResponse<String> quiet = http.mcp(RawHttp.execute(2, "get-customer", new JsonObject().put("customer_id", 1)),
                session(sid));
        assertEquals("application/json", quiet.headers().firstValue("content-type").orElseThrow(),
                "nothing at error or above was logged, so the answer is plain JSON");

        setLevel(sid, "warning");
        List<SseStream.Event> denied = http.mcpStream(RawHttp.execute(3, "guarded", new JsonObject()),
                session(sid, "X-API-Key", "wrong-key")).rest(WAIT);
        assertEquals(List.of("warning"), levels(denied));
        String logged = denied.get(1).json().getJsonObject("params").getString("data");
        // the caller may not see 'guarded' (search filters by auth), so it is refused like a missing tool
        assertEquals("execute 'guarded': tool not found: guarded", logged);
        for (SseStream.Event e : denied) {
            assertFalse(e.data().contains(SECRET) || e.data().contains("wrong-key"), "no key in " + e.data());
        }
        assertEquals(-32601, ToolError.ofAnswer(denied.get(2).json()).code());
        // so are arguments execute itself cannot use
        List<SseStream.Event> noInputs = http.mcpStream(RawHttp.request(5, "tools/call", new JsonObject()
                .put("name", "execute").put("arguments", new JsonObject().put("tool", "get-customer"))), session(sid))
                .rest(WAIT);
        assertEquals(List.of("warning"), levels(noInputs));
        assertEquals("execute: 'inputs' is required (use {} when the tool takes none)",
                noInputs.get(1).json().getJsonObject("params").getString("data"));
        assertEquals(-32602, ToolError.ofAnswer(noInputs.get(2).json()).code());

        HttpResponse<String> noSession = http.mcp(RawHttp.request(4, "logging/setLevel",
                new JsonObject().put("level", "debug")));
        assertEquals(new JsonObject(), new JsonObject(noSession.body()).getJsonObject("result"));
    }

    @Test
    void progressIsReportedOnlyWithATokenIncreasesAndStopsAtTheResult() throws Exception {
        String sid = http.session(V);
        SseStream post = http.mcpStream(withProgressToken(RawHttp.execute(7, "timed-count", new JsonObject()), "tok-1"),
                session(sid));
        List<SseStream.Event> events = post.rest(WAIT);
        assertTrue(events.get(0).priming());
        SseStream.Event last = events.get(events.size() - 1);
        assertEquals(7, last.json().getInteger("id"), "the response comes last and the stream ends: " + events);
        assertEquals("execution failed: statement timed out after 1s", ToolError.ofAnswer(last.json()).message());
        List<SseStream.Event> progress = events.subList(1, events.size() - 1);
        assertTrue(progress.size() >= 2, "a 1s call reports every 50ms: " + events);
        double previous = 0;
        for (SseStream.Event e : progress) {
            JsonObject n = e.json();
            assertEquals("notifications/progress", n.getString("method"));
            assertEquals("tok-1", n.getJsonObject("params").getString("progressToken"));
            double value = n.getJsonObject("params").getDouble("progress");
            assertTrue(value > previous, "progress increases: " + events);
            previous = value;
            assertTrue(n.getJsonObject("params").getString("message").startsWith("execute 'timed-count': running for "));
        }

        HttpResponse<String> noToken = http.mcp(RawHttp.execute(8, "timed-count", new JsonObject()), session(sid));
        assertEquals("application/json", noToken.headers().firstValue("content-type").orElseThrow());
        assertEquals(-32000, ToolError.ofAnswer(new JsonObject(noToken.body())).code());
    }

    @Test
    void cancellationStopsTheStatementAndNoResponseIsSent() throws Exception {
        String sid = http.session(V);
        SseStream post = http.mcpStream(withProgressToken(RawHttp.execute("slow-1", "slow-count", new JsonObject()), 5),
                session(sid));
        assertTrue(post.next(WAIT).priming());
        assertEquals("notifications/progress", post.next(WAIT).json().getString("method"), "the statement runs");

        HttpResponse<String> cancel = http.mcp(RawHttp.notification("notifications/cancelled",
                new JsonObject().put("requestId", "slow-1").put("reason", "test")), session(sid));
        assertEquals(202, cancel.statusCode());
        assertEquals("", cancel.body());
        for (SseStream.Event e : post.rest(WAIT)) {
            assertEquals("notifications/progress", e.json().getString("method"), "no response after a cancel: " + e);
        }

        // one connection in the pool: this runs only because the cancelled statement stopped
        long start = System.nanoTime();
        HttpResponse<String> next = http.mcp(RawHttp.execute(2, "get-customer", new JsonObject().put("customer_id", 2)),
                session(sid));
        assertEquals(200, next.statusCode());
        assertTrue(next.body().contains("Grace Hopper"), next.body());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "the 20s statement did not hold the pool");

        HttpResponse<String> unknown = http.mcp(RawHttp.notification("notifications/cancelled",
                new JsonObject().put("requestId", "never-sent")), session(sid));
        assertEquals(202, unknown.statusCode(), "unknown ids are ignored");
    }

    @Test
    void aCancelledCallAnsweringPlainJsonEndsWithAnEmptyStream() throws Exception {
        String sid = http.session(V);
        CompletableFuture<SseStream> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return http.mcpStream(RawHttp.execute(41, "slow-count", new JsonObject()), session(sid));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // Nothing tells a plain JSON call has started, and a cancel for an id not yet running is
        // ignored, so the cancel is repeated until the answer comes.
        SseStream post = null;
        for (int i = 0; i < 100 && post == null; i++) {
            assertEquals(202, http.mcp(RawHttp.notification("notifications/cancelled",
                    new JsonObject().put("requestId", 41)), session(sid)).statusCode());
            try {
                post = answer.get(100, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException notYet) {
                // cancel again
            }
        }
        assertNotNull(post, "the cancelled call was answered");
        assertEquals(200, post.status());
        assertEquals("text/event-stream", post.header("content-type"));
        assertEquals(List.of(), post.rest(WAIT), "no response is sent for a cancelled request");
    }

    @Test
    void aPostStreamIsResumedFromLastEventIdAndADisconnectIsNoCancel() throws Exception {
        String sid = http.session(V);
        SseStream post = http.mcpStream(withProgressToken(RawHttp.execute(9, "timed-count", new JsonObject()), "r"),
                session(sid));
        SseStream.Event priming = post.next(WAIT);
        SseStream.Event first = post.next(WAIT);
        assertEquals("notifications/progress", first.json().getString("method"));
        post.close();

        SseStream resumed = http.listen(sid, first.id());
        assertEquals(200, resumed.status());
        List<SseStream.Event> rest = resumed.rest(WAIT);
        assertFalse(rest.isEmpty());
        assertEquals(streamOf(first.id()) + "-" + (seqOf(first.id()) + 1), rest.get(0).id(),
                "the replay starts right after the given id");
        long previous = seqOf(first.id());
        for (SseStream.Event e : rest) {
            assertEquals(streamOf(priming.id()), streamOf(e.id()), "only that stream is replayed");
            assertEquals(previous + 1, seqOf(e.id()), "nothing is lost or repeated");
            previous = seqOf(e.id());
        }
        JsonObject response = rest.get(rest.size() - 1).json();
        assertEquals(9, response.getInteger("id"), "the call went on after the client left: " + rest);

        SseStream again = http.listen(sid, rest.get(rest.size() - 1).id());
        assertEquals(204, again.status(), "a finished stream with nothing left tells the client to stop");
    }

    @Test
    void theGetStreamCarriesOnlyMessagesThatBelongToNoRequest() throws Exception {
        String sid = http.session(V);
        setLevel(sid, "debug");
        SseStream get = http.listen(sid, null);
        assertEquals(200, get.status());
        assertEquals("text/event-stream", get.header("content-type"));
        SseStream.Event priming = get.next(WAIT);
        assertTrue(priming.priming());
        assertTrue(streamOf(priming.id()).endsWith("-0"), "the GET stream is stream 0: " + priming.id());

        assertEquals(409, http.listen(sid, null).status(), "one GET stream at a time");

        assertTrue(server.server().mcp().notify(sid, note("first")));
        SseStream.Event first = get.next(WAIT);
        assertEquals("first", first.json().getJsonObject("params").getString("data"));

        List<SseStream.Event> post = http.mcpStream(RawHttp.execute(3, "get-customer",
                new JsonObject().put("customer_id", 1)), session(sid)).rest(WAIT);
        assertEquals(4, post.size(), "logs and the response went to the POST stream: " + post);

        server.server().mcp().notify(sid, note("second"));
        SseStream.Event second = get.next(WAIT);
        assertEquals("second", second.json().getJsonObject("params").getString("data"),
                "nothing of the POST reached the GET stream");

        Set<String> ids = new HashSet<>();
        List<SseStream.Event> all = new ArrayList<>(post);
        all.addAll(List.of(priming, first, second));
        for (SseStream.Event e : all) {
            assertTrue(ids.add(e.id()), "event ids are unique in the session: " + all);
        }

        // Messages wait for the client while no GET stream is open, and only this stream is replayed.
        get.close();
        server.server().mcp().notify(sid, note("third"));
        SseStream resumed = http.listen(sid, second.id());
        SseStream.Event third = resumed.next(WAIT);
        assertEquals("third", third.json().getJsonObject("params").getString("data"));
        server.server().mcp().notify(sid, note("fourth"));
        assertEquals("fourth", resumed.next(WAIT).json().getJsonObject("params").getString("data"));

        String epoch = priming.id().substring(0, priming.id().indexOf('-'));
        assertEquals(400, http.listen(sid, epoch + "-99-1").status(), "an id of no stream of this session");
        String otherEpoch = (epoch.charAt(0) == 'a' ? "b" : "a") + epoch.substring(1);
        assertEquals(400, http.listen(sid, otherEpoch + "-3-1").status(), "a POST stream of another life of the session");
        assertEquals(409, http.listen(sid, otherEpoch + "-0-1").status(),
                "the GET stream of another life of the session (another node's) is a new GET stream: one is open");
        assertEquals(400, http.listen(sid, "not-an-id").status());

        assertEquals(200, http.send("DELETE", "/mcp", "Mcp-Session-Id", sid).statusCode());
        assertNull(resumed.next(WAIT), "ending the session ends its streams");
        assertFalse(server.server().mcp().notify(sid, note("gone")));
    }

    @Test
    void streamsOfOlderVersionsHaveIdsButNoPrimingEvent() throws Exception {
        String sid = http.session("2025-06-18");
        setLevel(sid, "info", "2025-06-18");
        List<SseStream.Event> events = http.mcpStream(RawHttp.execute(1, "get-customer",
                new JsonObject().put("customer_id", 1)), session(sid, "MCP-Protocol-Version", "2025-06-18")).rest(WAIT);
        assertEquals(2, events.size(), events::toString);
        assertEquals("notifications/message", events.get(0).json().getString("method"));
        assertNotNull(events.get(0).id());
        assertEquals(1, events.get(1).json().getInteger("id"));
    }

    @Test
    void aPostWithoutASessionStreamsWithoutIds() throws Exception {
        List<SseStream.Event> events = http.mcpStream(withProgressToken(
                RawHttp.execute(1, "timed-count", new JsonObject()), "stateless")).rest(WAIT);
        assertTrue(events.size() >= 2, events::toString);
        for (SseStream.Event e : events) {
            assertNull(e.id(), "nothing can resume a stream without a session: " + e);
            assertFalse(e.priming());
        }
        assertEquals(1, events.get(events.size() - 1).json().getInteger("id"));
    }

    @Test
    void aBatchThatLogsIsOneStreamWithEveryResponse() throws Exception {
        String sid = http.session("2025-03-26");
        setLevel(sid, "info", "2025-03-26");
        String batch = new JsonArray()
                .add(RawHttp.execute(1, "get-customer", new JsonObject().put("customer_id", 1)))
                .add(RawHttp.request(2, "ping", null))
                .add(RawHttp.notification("notifications/initialized", null))
                .encode();
        SseStream post = http.open("POST", "/mcp", batch, "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", sid);
        assertEquals("text/event-stream", post.header("content-type"));
        List<SseStream.Event> events = post.rest(WAIT);
        Set<Object> answered = new HashSet<>();
        for (SseStream.Event e : events) {
            JsonObject m = e.json();
            if (m.containsKey("id")) {
                answered.add(m.getValue("id"));
            }
        }
        assertEquals(Set.of(1, 2), answered, events::toString);
    }

    // ---- helpers ----

    private static void setLevel(String sid, String level) throws Exception {
        setLevel(sid, level, V);
    }

    private static void setLevel(String sid, String level, String version) throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.request("lvl", "logging/setLevel", new JsonObject().put("level", level)),
                "Mcp-Session-Id", sid, "MCP-Protocol-Version", version);
        assertEquals(new JsonObject(), new JsonObject(r.body()).getJsonObject("result"), r.body());
    }

    private static String[] session(String sid, String... more) {
        String[] h = new String[4 + more.length];
        h[0] = "Mcp-Session-Id";
        h[1] = sid;
        h[2] = "MCP-Protocol-Version";
        h[3] = V;
        System.arraycopy(more, 0, h, 4, more.length);
        // a later MCP-Protocol-Version in `more` wins: drop the default then
        for (int i = 4; i < h.length; i += 2) {
            if (h[i].equalsIgnoreCase("MCP-Protocol-Version")) {
                String[] without = new String[h.length - 2];
                System.arraycopy(h, 0, without, 0, 2);
                System.arraycopy(h, 4, without, 2, h.length - 4);
                return without;
            }
        }
        return h;
    }

    private static JsonObject withProgressToken(JsonObject request, Object token) {
        request.getJsonObject("params").put("_meta", new JsonObject().put("progressToken", token));
        return request;
    }

    private static JsonObject note(String text) {
        return RawHttp.notification("notifications/message",
                new JsonObject().put("level", "info").put("logger", "test").put("data", text));
    }

    private static List<String> levels(List<SseStream.Event> events) {
        List<String> levels = new ArrayList<>();
        for (SseStream.Event e : events) {
            if (!e.priming() && "notifications/message".equals(e.json().getString("method"))) {
                levels.add(e.json().getJsonObject("params").getString("level"));
            }
        }
        return levels;
    }

    /** {@code <epoch>-<stream>} of an event id {@code <epoch>-<stream>-<seq>}. */
    private static String streamOf(String id) {
        return id.substring(0, id.lastIndexOf('-'));
    }

    private static long seqOf(String id) {
        return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
    }
}
