package dev.hyperterse.server;

import dev.hyperterse.testing.MutableClock;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Session lifecycle over raw HTTP (mcp-transport.md §12 items 3 and 4): DELETE, idle expiry
 * (on a clock the test moves, so nothing waits), the cap on live sessions, and what ending a
 * session does to its streams. Each test makes its own sessions; the cap is 3.
 */
class McpSessionsTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Duration IDLE = Duration.ofMinutes(10);

    static MutableClock clock = new MutableClock();
    @RegisterExtension
    static final TestServer server = TestServer.quickstart(s -> s.sessions(x -> x.idleTimeout(IDLE).max(3)),
            ServeOptions.DEFAULTS.withClock(clock));
    static final RawHttp http = server.http();

    @Test
    void deleteEndsTheSessionAndItsStreams() throws Exception {
        String sid = http.session("2025-11-25");
        SseStream get = http.listen(sid, null);
        assertTrue(get.next(WAIT).priming());

        HttpResponse<String> deleted = http.send("DELETE", "/mcp", "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25");
        assertEquals(200, deleted.statusCode());
        assertNull(get.next(WAIT), "the GET stream ends with the session");

        assertEquals(404, ping(sid).statusCode());
        assertEquals(-32001, new JsonObject(ping(sid).body()).getJsonObject("error").getInteger("code"));
        assertEquals(404, http.listen(sid, null).status());
        assertEquals(404, http.send("DELETE", "/mcp", "Mcp-Session-Id", sid).statusCode());
        assertEquals(404, ping("never-issued").statusCode());
    }

    @Test
    void anIdleSessionEnds() throws Exception {
        String sid = http.session("2025-11-25");
        clock.advance(IDLE.minusMinutes(1));
        assertEquals(200, ping(sid).statusCode(), "every request counts as use");
        clock.advance(IDLE.minusMinutes(1));
        assertEquals(200, ping(sid).statusCode());
        clock.advance(IDLE.plusSeconds(1));
        assertEquals(404, ping(sid).statusCode());
        assertEquals(404, http.listen(sid, "0-1").status(), "nothing of an ended session can be resumed");
    }

    @Test
    void anOpenStreamKeepsItsSessionInUse() throws Exception {
        String sid = http.session("2025-11-25");
        SseStream get = http.listen(sid, null);
        assertTrue(get.next(WAIT).priming());
        // the server sweeps at least twice per idle timeout; each sweep counts an open stream as use
        for (int i = 0; i < 3; i++) {
            clock.advance(IDLE.minusMinutes(1));
            server.server().mcp().sweep().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        assertEquals(200, ping(sid).statusCode(), "a client listening on its GET stream is not idle");
        get.close();
        assertEquals(200, http.send("DELETE", "/mcp", "Mcp-Session-Id", sid).statusCode());
    }

    @Test
    void theSweepEndsIdleSessions() throws Exception {
        String sid = http.session("2025-11-25");
        clock.advance(IDLE.plusMinutes(1));
        server.server().mcp().sweep().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(404, ping(sid).statusCode());
    }

    @Test
    void liveSessionsAreCappedAndAFullTableGivesUpItsLeastRecentlyUsedIdleSession() throws Exception {
        // sessions of other tests are idle by now or gone: start from a clean slate
        clock.advance(IDLE.plusMinutes(1));
        String a = http.session("2025-11-25");
        clock.advance(Duration.ofSeconds(1));
        String b = http.session("2025-11-25");
        clock.advance(Duration.ofSeconds(1));
        String c = http.session("2025-11-25");
        clock.advance(Duration.ofSeconds(1));
        assertEquals(200, ping(a).statusCode(), "a is now the most recently used");
        String d = http.session("2025-11-25");
        assertEquals(404, ping(b).statusCode(), "b, the least recently used, made room for d");
        assertEquals(200, ping(a).statusCode());
        assertEquals(200, ping(c).statusCode());
        assertEquals(200, ping(d).statusCode());

        // every session in use (an open GET stream each): no room, and nobody's session is taken
        List<SseStream> streams = new java.util.ArrayList<>();
        for (String sid : List.of(a, c, d)) {
            SseStream get = http.listen(sid, null);
            assertTrue(get.next(WAIT).priming());
            streams.add(get);
        }
        HttpResponse<String> full = http.mcp(RawHttp.initialize("2025-11-25"));
        JsonObject error = new JsonObject(full.body()).getJsonObject("error");
        assertEquals(-32000, error.getInteger("code"));
        assertTrue(error.getString("message").startsWith("too many live sessions"), error.encode());
        assertTrue(full.headers().firstValue("mcp-session-id").isEmpty());
        for (String sid : List.of(a, c, d)) {
            assertEquals(200, ping(sid).statusCode());
        }
        for (SseStream get : streams) {
            get.close();
        }

        assertEquals(200, http.send("DELETE", "/mcp", "Mcp-Session-Id", a).statusCode());
        String e = http.session("2025-11-25");
        assertEquals(200, ping(e).statusCode());

        clock.advance(IDLE.plusMinutes(1));
        String f = http.session("2025-11-25");
        assertEquals(200, ping(f).statusCode(), "expired sessions make room");
        assertEquals(404, ping(c).statusCode());
        assertEquals(404, ping(d).statusCode());
        assertEquals(200, ping(null).statusCode(), "requests without a session need no room");
    }

    private static HttpResponse<String> ping(String sid) throws Exception {
        return sid == null ? http.mcp(RawHttp.request(1, "ping", null))
                : http.mcp(RawHttp.request(1, "ping", null), "Mcp-Session-Id", sid);
    }
}
