package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.WatchedJsonFactory;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Large answers are encoded on worker threads, never on an event loop, and read exactly as before:
 * the JSON of a plain answer as {@code toBuffer()} writes it, the data of a session's SSE event as
 * {@code encode()} does (characters outside the Basic Multilingual Plane unescaped), and a tool's
 * text block as its rows encoded. Checked for small and large results, on the session transport
 * (single answers, batches, SSE streams) and the stateless 2026-07-28 one. Which threads encoded
 * what is seen through {@link WatchedJsonFactory}, Vert.x's own codec watched.
 */
class LargeAnswersTest {
    /** The size from which an encoding counts as large here (the server's threshold). */
    private static final int LARGE = 64 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Characters whose encoding differs between the ways JSON is written: quotes, escapes, é, an emoji. */
    private static final String MIXED = "a\"b\\c\u0001\té😀 ";
    private static final String SMALL = MIXED.repeat(3);
    /** About 400 KB of JSON once escaped: large, yet quick to send. */
    private static final String BIG = MIXED.repeat(30_000);

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path project = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(project, "echo", "description: 'Echo a string back as a row'\n"
                + "use: shop\nstatement: SELECT {{ inputs.s }} AS s\ninputs:\n  s: { type: string }\n");
        // n rows of some 170 bytes each, with characters the ways of writing JSON treat differently
        Path numbers = project.resolve("app/resources/numbers");
        java.nio.file.Files.createDirectories(numbers);
        java.nio.file.Files.writeString(numbers.resolve("config.terse"), "uri_template: numbers://{n}\nuse: shop\n"
                + "statement: |\n  WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k"
                + " WHERE i < CAST({{ args.n }} AS INTEGER))\n"
                + "  SELECT i AS id, printf('%0150d', i) || 'a\"b\\cé😀 ' AS pad FROM k\n"
                + "arguments:\n  n: { description: 'How many rows' }\n");
        return RunningServer.start(project);
    });
    static final RawHttp http = server.http();

    @Test
    void aLargeResultIsEncodedOnAWorkerAndAnsweredAsBefore() throws Exception {
        String sid = http.session("2025-11-25");
        for (String s : List.of(SMALL, BIG)) {
            try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE)) {
                HttpResponse<String> r = http.mcp(echo(7, s), "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25");
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
                JsonObject body = asWritten(r.body());
                JsonObject result = body.getJsonObject("result");
                assertEquals(7, body.getInteger("id"));
                assertRows(s, result);
                assertEquals(s, result.getJsonObject("structuredContent").getJsonArray("rows").getJsonObject(0).getString("s"));
                assertEncodedOffTheLoop(watch, s == BIG);
            }
        }
    }

    @Test
    void aBatchWithALargeResultIsAnsweredAsBefore() throws Exception {
        String sid = http.session("2025-03-26");
        try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE)) {
            String batch = new JsonArray().add(echo(1, BIG)).add(RawHttp.request(2, "ping", null)).add(echo(3, SMALL)).encode();
            HttpResponse<String> r = http.post("/mcp", batch, "Content-Type", "application/json",
                    "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", sid);
            assertEquals(200, r.statusCode(), r.body());
            JsonArray answers = new JsonArray(r.body());
            assertEquals(r.body(), new String(answers.toBuffer().getBytes(), StandardCharsets.UTF_8),
                    "the batch's answer is the array as toBuffer() writes it");
            Set<Object> ids = new HashSet<>();
            for (Object answer : answers) {
                JsonObject a = (JsonObject) answer;
                ids.add(a.getValue("id"));
                if (!a.getValue("id").equals(2)) {
                    assertRows(a.getInteger("id") == 1 ? BIG : SMALL, a.getJsonObject("result"));
                }
            }
            assertEquals(Set.of(1, 2, 3), ids);
            assertEncodedOffTheLoop(watch, true);
        }
    }

    @Test
    void aStreamCarriesALargeResultInOrderAsBefore() throws Exception {
        String sid = http.session("2025-11-25");
        setLevel(sid, "debug", "2025-11-25");
        for (String s : List.of(SMALL, BIG)) {
            try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE);
                 SseStream post = http.mcpStream(echo(9, s), "Mcp-Session-Id", sid)) {
                assertEquals("text/event-stream", post.header("content-type"));
                List<SseStream.Event> events = post.rest(WAIT);
                List<String> kinds = new ArrayList<>();
                for (SseStream.Event e : events) {
                    if (!e.priming()) {
                        assertEquals(e.json().encode(), e.data(), "an event's data is the message as encode() writes it");
                        kinds.add(e.json().getString("method", "response"));
                    }
                }
                assertEquals(List.of("notifications/message", "notifications/message", "response"), kinds);
                assertRows(s, events.get(events.size() - 1).json().getJsonObject("result"));
                assertEncodedOffTheLoop(watch, s == BIG);
            }
        }
    }

    @Test
    void aBatchStreamKeepsEveryMessageAfterALargeOneInOrder() throws Exception {
        String sid = http.session("2025-03-26");
        setLevel(sid, "info", "2025-03-26");
        try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE)) {
            String batch = new JsonArray().add(echo(1, BIG)).add(echo(2, SMALL)).add(echo(3, BIG)).encode();
            SseStream post = http.open("POST", "/mcp", batch, "Content-Type", "application/json",
                    "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", sid);
            assertEquals("text/event-stream", post.header("content-type"));
            List<SseStream.Event> events = post.rest(WAIT);
            Set<Object> answered = new HashSet<>();
            for (SseStream.Event e : events) {
                JsonObject m = e.json();
                assertEquals(m.encode(), e.data());
                if (m.containsKey("id")) {
                    answered.add(m.getValue("id"));
                    assertRows(m.getInteger("id") == 2 ? SMALL : BIG, m.getJsonObject("result"));
                }
            }
            assertEquals(Set.of(1, 2, 3), answered, "every response, and the stream ended after them");
            // each call logs its row count once, and no later than its response
            assertEquals(6, events.size(), events::toString);
            assertEncodedOffTheLoop(watch, true);
        }
    }

    @Test
    void aStatelessLargeResultIsEncodedOnAWorkerAndAnsweredAsBefore() throws Exception {
        for (String s : List.of(SMALL, BIG)) {
            try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE)) {
                JsonObject message = statelessEcho("c1", s, McpStatelessTest.meta(new JsonObject()));
                HttpResponse<String> r = http.mcp(message, McpStatelessTest.headers(message));
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
                JsonObject result = asWritten(r.body()).getJsonObject("result");
                assertEquals("complete", result.getString("resultType"));
                assertRows(s, result);
                assertEncodedOffTheLoop(watch, s == BIG);
            }
        }
    }

    @Test
    void aStatelessStreamEndsWithTheLargeResultAsBefore() throws Exception {
        for (String s : List.of(SMALL, BIG)) {
            JsonObject message = statelessEcho("c2", s, McpStatelessTest.meta(new JsonObject())
                    .put("io.modelcontextprotocol/logLevel", "info"));
            try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE);
                 SseStream stream = http.mcpStream(message, McpStatelessTest.headers(message))) {
                assertEquals("text/event-stream", stream.header("content-type"));
                List<SseStream.Event> events = stream.rest(WAIT);
                assertEquals(2, events.size(), events::toString);
                assertEquals("notifications/message", events.get(0).json().getString("method"));
                SseStream.Event last = events.get(1);
                assertEquals(new String(last.json().toBuffer().getBytes(), StandardCharsets.UTF_8), last.data(),
                        "a 2026-07-28 event's data is the message as toBuffer() writes it");
                assertRows(s, last.json().getJsonObject("result"));
                assertEncodedOffTheLoop(watch, s == BIG);
            }
        }
    }

    @Test
    void aLargeResourceIsEncodedOnAWorkerAndReadAsBefore() throws Exception {
        for (int n : List.of(3, 1000)) {
            JsonObject read = RawHttp.request(4, "resources/read", new JsonObject().put("uri", "numbers://" + n));
            try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE)) {
                HttpResponse<String> r = http.mcp(read, "MCP-Protocol-Version", "2025-11-25");
                assertEquals(200, r.statusCode(), r.body());
                assertContents(n, asWritten(r.body()).getJsonObject("result"));
                assertEncodedOffTheLoop(watch, n == 1000);
            }
            JsonObject stateless = read.copy();
            stateless.getJsonObject("params").put("_meta", McpStatelessTest.meta(new JsonObject()));
            try (WatchedJsonFactory.Watch watch = WatchedJsonFactory.watch(LARGE)) {
                HttpResponse<String> r = http.mcp(stateless, McpStatelessTest.headers(stateless));
                assertEquals(200, r.statusCode(), r.body());
                assertContents(n, asWritten(r.body()).getJsonObject("result"));
                assertEncodedOffTheLoop(watch, n == 1000);
            }
        }
    }

    // ---- helpers ----

    /** A resource read's text is its n rows encoded. */
    private static void assertContents(int n, JsonObject result) {
        String text = result.getJsonArray("contents").getJsonObject(0).getString("text");
        JsonArray rows = new JsonArray(text);
        assertEquals(rows.encode(), text, "the text is the rows as encode() writes them");
        assertEquals(n, rows.size());
        assertTrue(rows.getJsonObject(n - 1).getString("pad").endsWith("😀 "), text.substring(0, 200));
    }

    private static JsonObject echo(Object id, String s) {
        return RawHttp.execute(id, "echo", new JsonObject().put("s", s));
    }

    private static JsonObject statelessEcho(Object id, String s, JsonObject meta) {
        return McpStatelessTest.request(id, "tools/call", new JsonObject().put("name", "execute")
                .put("arguments", new JsonObject().put("tool", "echo").put("inputs", new JsonObject().put("s", s)))
                .put("_meta", meta));
    }

    /** A plain JSON answer, checked to be exactly what {@code toBuffer()} writes for it. */
    private static JsonObject asWritten(String body) {
        JsonObject parsed = new JsonObject(body);
        assertEquals(body, new String(parsed.toBuffer().getBytes(), StandardCharsets.UTF_8),
                "the answer is the message as toBuffer() writes it");
        return parsed;
    }

    /** The result's text block is its one row encoded, holding {@code s}. */
    private static void assertRows(String s, JsonObject result) {
        assertNull(result.getValue("isError"), result::encode);
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        JsonArray rows = new JsonArray(text);
        assertEquals(rows.encode(), text, "the text block is the rows as encode() writes them");
        assertEquals(1, rows.size());
        assertEquals(s, rows.getJsonObject(0).getString("s"));
    }

    private static void assertEncodedOffTheLoop(WatchedJsonFactory.Watch watch, boolean large) {
        assertEquals(List.of(), watch.onEventLoop(), "large values encoded on an event loop");
        assertEquals(large, !watch.onWorker().isEmpty(), "large values encoded on workers: " + watch.onWorker());
    }

    private static void setLevel(String sid, String level, String version) throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.request("lvl", "logging/setLevel", new JsonObject().put("level", level)),
                "Mcp-Session-Id", sid, "MCP-Protocol-Version", version);
        assertEquals(200, r.statusCode(), r.body());
    }
}
