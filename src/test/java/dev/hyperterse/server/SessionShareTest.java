package dev.hyperterse.server;

import dev.hyperterse.testing.AddressedStream;
import dev.hyperterse.testing.DelayConnectors;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            s -> s.sessions(x -> x.idleTimeout(Duration.ofMinutes(30)).max(MAX).perClient(SHARE)),
            ServeOptions.DEFAULTS));
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

    /**
     * Streams held open do not lock new clients out (issue: 4 addresses x 5 sessions, each with
     * its GET stream open, filled sessions.max=20 and a new client was refused; with the defaults,
     * 10 addresses would do). A full table takes the newcomer's place from the client holding the
     * most sessions: its least recently used one, whose GET stream ends and whose id gets 404.
     */
    @Test
    void streamsHeldOpenByAFewClientsNeverLockANewClientOut(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        List<AddressedStream> streams = new ArrayList<>();
        try (RunningServer full = RunningServer.start(project,
                s -> s.sessions(x -> x.idleTimeout(Duration.ofMinutes(30)).max(MAX).perClient(SHARE)),
                ServeOptions.DEFAULTS)) {
            RawHttp h = new RawHttp(full.baseUrl());
            List<String> sessions = new ArrayList<>();
            for (String client : List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")) {
                for (int i = 0; i < SHARE; i++) {
                    String sid = initializeAt(full.port(), client);
                    AddressedStream stream = AddressedStream.open(full.port(), client, "GET", "/mcp", Map.of(
                            "Accept", "text/event-stream", "Mcp-Session-Id", sid, "MCP-Protocol-Version", V), null);
                    stream.await("\r\n\r\n", Duration.ofSeconds(10));
                    assertTrue(stream.text().startsWith("HTTP/1.1 200"), stream.text());
                    sessions.add(sid);
                    streams.add(stream);
                }
            }
            // the table is full now, every session in use by its stream
            String newcomer = initializeAt(full.port(), "127.0.0.5");
            assertEquals(200, h.mcp(RawHttp.request(1, "ping", null), "Mcp-Session-Id", newcomer,
                    "MCP-Protocol-Version", V).statusCode());
            // the first client to hold the most gave up its least recently used session
            assertTrue(streams.get(0).awaitEnd(Duration.ofSeconds(10)), "the given-up session's stream ends");
            assertEquals(404, h.mcp(RawHttp.request(1, "ping", null), "Mcp-Session-Id", sessions.get(0),
                    "MCP-Protocol-Version", V).statusCode());
            for (int i = 1; i < sessions.size(); i++) {
                assertFalse(streams.get(i).ended(), "stream " + i + " stays open");
                assertEquals(200, h.mcp(RawHttp.request(1, "ping", null), "Mcp-Session-Id", sessions.get(i),
                        "MCP-Protocol-Version", V).statusCode(), "session " + i + " lives on");
            }
        } finally {
            streams.forEach(AddressedStream::close);
        }
    }

    /** Initializes a session from {@code local} on the server at {@code port}; returns its id. */
    private static String initializeAt(int port, String local) throws Exception {
        try (AddressedStream answer = AddressedStream.open(port, local, "POST", "/mcp", Map.of(
                "Content-Type", "application/json", "Accept", "application/json, text/event-stream"),
                RawHttp.initialize(V).encode())) {
            assertTrue(answer.awaitEnd(Duration.ofSeconds(10)), "initialize answered");
            String text = answer.text();
            assertTrue(text.startsWith("HTTP/1.1 200") && text.contains("\"result\""), text);
            for (String line : text.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("mcp-session-id:")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
            throw new AssertionError("no session id: " + text);
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
