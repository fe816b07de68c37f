package dev.hyperterse.server;

import dev.hyperterse.model.HttpLimits;
import dev.hyperterse.testing.DelayConnectors;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slow and silent clients cannot hold connections (server.http): over raw sockets, a client that
 * stalls inside its request line, dribbles its headers or stalls its body is cut off; an open SSE
 * stream and a call longer than those deadlines are not. The timeouts are short here (1 s for
 * headers and bodies, 3 s idle); the bounds asserted are generous, for a loaded machine.
 */
class HttpDeadlinesTest {
    private static final HttpLimits TIMEOUTS =
            new HttpLimits(Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(1), 0);
    /** Far above each 1 s deadline, far below "forever". */
    private static final long CLOSED_WITHIN_MS = 10_000;
    /** A deadline never acts early (the client's clock starts a little after the server's). */
    private static final long NOT_BEFORE_MS = 900;

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> RunningServer.start(
            DelayConnectors.quickstartWithSlowTool(scratch), Map.of(), RunningServer.withDelay(new DelayConnectors()),
            s -> s.limits(l -> l.http(TIMEOUTS)), ServeOptions.DEFAULTS));
    static final RawHttp http = server.http();

    @Test
    void aClientThatStallsInItsRequestLineIsClosed() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("POST /mc".getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();
            assertClosed(socket, started);
        }
        try (Socket silent = connect()) {
            assertClosed(silent, System.nanoTime());
        }
    }

    @Test
    void aClientThatDribblesItsHeadersIsClosed() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            long started = System.nanoTime();
            // a byte every 200 ms: the connection is never idle, but the headers never complete
            byte[] dribble = "GET /heartbeat HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                    .getBytes(StandardCharsets.US_ASCII);
            boolean cut = false;
            for (byte b : dribble) {
                try {
                    out.write(b);
                    out.flush();
                } catch (IOException closed) {
                    cut = true;
                    break;
                }
                if (socket.getInputStream().available() > 0 || peerClosed(socket)) {
                    cut = true;
                    break;
                }
                Thread.sleep(200);
            }
            assertTrue(cut, "still open after " + dribble.length * 200 + " ms of dribbling");
            assertTrue((System.nanoTime() - started) / 1_000_000 < CLOSED_WITHIN_MS);
        }
    }

    @Test
    void aBodyThatDoesNotArriveGets408() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"jsonrpc\":").getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();
            String answer = readAll(socket);
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            long ms = (System.nanoTime() - started) / 1_000_000;
            assertTrue(ms < CLOSED_WITHIN_MS, "answered after " + ms + " ms");
            assertTrue(ms >= NOT_BEFORE_MS, "answered after only " + ms + " ms, before its 1 s deadline");
        }
    }

    @Test
    void anOpenSseStreamOutlivesTheIdleTimeout() throws Exception {
        String sid = http.session("2025-11-25");
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                    + "Mcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String text = readFor(socket, Duration.ofSeconds(8));   // past two idle timeouts
            assertTrue(text.startsWith("HTTP/1.1 200"), text);
            assertTrue(text.contains("\n: keep-alive\n\n"), "keep-alive comments kept it busy: " + text);
            // and it still carries messages
            assertTrue(server.server().mcp().notify(sid, RawHttp.notification("notifications/message",
                    new JsonObject().put("level", "info").put("data", "still here"))));
            socket.setSoTimeout(10_000);
            StringBuilder after = new StringBuilder();
            byte[] chunk = new byte[4096];
            while (!after.toString().contains("still here")) {
                int n = in.read(chunk);
                assertTrue(n > 0, "the stream ended before the message: " + after);
                after.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
            }
        }
        http.send("DELETE", "/mcp", "Mcp-Session-Id", sid);
    }

    @Test
    void aListenStreamOfTheStatelessRevisionOutlivesTheIdleTimeout() throws Exception {
        String body = new JsonObject().put("jsonrpc", "2.0").put("id", "sub-1").put("method", "subscriptions/listen")
                .put("params", new JsonObject().put("notifications", new JsonObject().put("toolsListChanged", true))
                        .put("_meta", new JsonObject().put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                                .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "t").put("version", "1"))
                                .put("io.modelcontextprotocol/clientCapabilities", new JsonObject()))).encode();
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    + "Mcp-Method: subscriptions/listen\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length
                    + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            String text = readFor(socket, Duration.ofSeconds(8));   // past two idle timeouts
            assertTrue(text.startsWith("HTTP/1.1 200"), text);
            assertTrue(text.contains("notifications/subscriptions/acknowledged"), text);
            assertTrue(text.contains("\n: keep-alive\n\n"), "keep-alive comments at the configured interval: " + text);
        }
    }

    @Test
    void aCallLongerThanTheHeaderAndBodyDeadlinesIsAnswered() throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.execute(1, "slow", new JsonObject().put("ms", 2000)));
        assertEquals(200, r.statusCode());
        assertTrue(new JsonObject(r.body()).containsKey("result"), r.body());
        // and the connection, kept alive, serves the next request
        assertEquals(200, http.send("GET", "/heartbeat").statusCode());
    }

    /** Everything the server sends on {@code socket} for {@code duration}; fails if it closes the connection. */
    private static String readFor(Socket socket, Duration duration) throws IOException {
        socket.setSoTimeout(1000);
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        long until = System.nanoTime() + duration.toNanos();
        byte[] chunk = new byte[4096];
        while (System.nanoTime() < until) {
            try {
                int n = in.read(chunk);
                assertTrue(n >= 0, "the stream was closed: " + seen.toString(StandardCharsets.UTF_8));
                seen.write(chunk, 0, n);
            } catch (SocketTimeoutException quiet) {
                // nothing this second
            }
        }
        return seen.toString(StandardCharsets.UTF_8);
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout((int) CLOSED_WITHIN_MS);
        return socket;
    }

    /** The server closes the connection (end of stream, or a reset) well within the bound. */
    private static void assertClosed(Socket socket, long started) {
        try {
            int read = socket.getInputStream().read();
            assertEquals(-1, read, "the server sent something instead of closing");
        } catch (SocketTimeoutException e) {
            throw new AssertionError("still open after " + CLOSED_WITHIN_MS + " ms");
        } catch (IOException reset) {
            // closed with a reset: closed all the same
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms < CLOSED_WITHIN_MS, "closed after " + ms + " ms");
        assertTrue(ms >= NOT_BEFORE_MS, "closed after only " + ms + " ms, before its 1 s deadline");
    }

    private static boolean peerClosed(Socket socket) throws IOException {
        socket.setSoTimeout(1);
        try {
            return socket.getInputStream().read() == -1;
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        } finally {
            socket.setSoTimeout((int) CLOSED_WITHIN_MS);
        }
    }

    private static String readAll(Socket socket) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            socket.getInputStream().transferTo(out);
        } catch (IOException reset) {
            // what arrived before the reset is the answer
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
