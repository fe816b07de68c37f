package dev.hyperterse.server;

import dev.hyperterse.testing.DelayConnectors;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The session table cannot be exhausted (issue: 12,000 initialize calls from one client used to
 * fill server.sessions.max and lock every other client out). A client holds at most its share
 * and replaces its own least recently used idle sessions; a full table gives up its least
 * recently used idle session; a session with an open stream or a running call is never given up.
 * Other clients connect from other loopback addresses (127.0.0.2, 127.0.0.3).
 */
class SessionShareTest {
    private static final String V = "2025-11-25";
    private static final int MAX = 12;
    private static final int SHARE = 4;

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> RunningServer.start(
            DelayConnectors.quickstartWithSlowTool(scratch), Map.of(), RunningServer.withDelay(new DelayConnectors()),
            s -> s.withSessions(Duration.ofMinutes(30), MAX).withSessionsPerClient(SHARE), ServeOptions.DEFAULTS));
    static final RawHttp http = server.http();

    @Test
    void aFloodingClientNeverLocksOthersOut() throws Exception {
        String other = initializeFrom("127.0.0.2");
        List<String> flood = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            HttpResponse<String> init = http.mcp(RawHttp.initialize(V));
            assertEquals(200, init.statusCode(), init.body());
            flood.add(init.headers().firstValue("mcp-session-id").orElseThrow(() -> new AssertionError(init.body())));
        }
        assertEquals(200, pingFrom("127.0.0.2", other), "the other client's session lives on");
        assertNotNull(initializeFrom("127.0.0.3"), "a new client still gets a session");
        // the flooder replaced its own sessions: its latest live on, its first ones are gone
        for (String sid : flood.subList(flood.size() - SHARE, flood.size())) {
            assertEquals(200, ping(sid).statusCode());
        }
        HttpResponse<String> evicted = ping(flood.get(0));
        assertEquals(404, evicted.statusCode(), "an ended session is an unknown one");
        assertEquals(-32001, new JsonObject(evicted.body()).getJsonObject("error").getInteger("code"));
        assertEquals("Session not found", new JsonObject(evicted.body()).getJsonObject("error").getString("message"));
        assertEquals(404, http.listen(flood.get(1), null).status());
    }

    @Test
    void sessionsWithAnOpenStreamOrARunningCallAreNeverGivenUp() throws Exception {
        String listening = http.session(V);
        SseStream stream = http.listen(listening, null);
        assertTrue(stream.next(Duration.ofSeconds(10)).priming());
        String calling = http.session(V);
        CompletableFuture<HttpResponse<String>> call = CompletableFuture.supplyAsync(() -> {
            try {
                return http.mcp(RawHttp.execute(7, "slow", new JsonObject().put("ms", 3000)),
                        "Mcp-Session-Id", calling, "MCP-Protocol-Version", V);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ReloadTest.await(() -> server.server().inFlight() == 1, "the slow call running");

        for (int i = 0; i < 50; i++) {
            assertEquals(200, http.mcp(RawHttp.initialize(V)).statusCode());
        }
        assertEquals(200, ping(listening).statusCode(), "a session with an open GET stream stays");
        HttpResponse<String> answered = call.get(30, TimeUnit.SECONDS);
        assertEquals(200, answered.statusCode());
        assertTrue(new JsonObject(answered.body()).containsKey("result"), answered.body());
        assertEquals(200, ping(calling).statusCode(), "a session whose call was running stays");

        // a client whose every session is in use gets no more (and takes none of anyone else's)
        List<SseStream> streams = new ArrayList<>(List.of(stream));
        List<String> mine = new ArrayList<>(List.of(listening));
        while (mine.size() < SHARE) {
            String sid = http.session(V);
            SseStream s = http.listen(sid, null);
            assertTrue(s.next(Duration.ofSeconds(10)).priming());
            streams.add(s);
            mine.add(sid);
        }
        JsonObject refused = new JsonObject(http.mcp(RawHttp.initialize(V)).body()).getJsonObject("error");
        assertNotNull(refused);
        assertTrue(refused.getString("message").startsWith("too many live sessions"), refused.encode());
        for (String sid : mine) {
            assertEquals(200, ping(sid).statusCode());
        }
        for (SseStream s : streams) {
            s.close();
        }
        for (String sid : mine) {
            http.send("DELETE", "/mcp", "Mcp-Session-Id", sid);
        }
    }

    private static HttpResponse<String> ping(String sid) throws Exception {
        return http.mcp(RawHttp.request(1, "ping", null), "Mcp-Session-Id", sid, "MCP-Protocol-Version", V);
    }

    /** Initializes from another loopback address; returns the session id. */
    private static String initializeFrom(String local) throws Exception {
        String answer = postFrom(local, RawHttp.initialize(V).encode(), "");
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        for (String line : answer.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("mcp-session-id:")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        throw new AssertionError("no session id: " + answer);
    }

    private static int pingFrom(String local, String sid) throws Exception {
        String answer = postFrom(local, RawHttp.request(1, "ping", null).encode(), "Mcp-Session-Id: " + sid + "\r\n");
        return Integer.parseInt(answer.substring(9, 12));
    }

    /** One POST to /mcp over a connection from {@code local}, read to its end. */
    private static String postFrom(String local, String body, String extraHeaders) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), server.port(), InetAddress.getByName(local), 0)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nConnection: close\r\n" + extraHeaders
                    + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }
}
