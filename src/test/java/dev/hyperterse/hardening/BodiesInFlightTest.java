package dev.hyperterse.hardening;

import dev.hyperterse.model.HttpLimits;
import dev.hyperterse.server.ServeOptions;
import dev.hyperterse.testing.RawHttp;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Half-sent bodies hold a bounded amount of memory, all clients together
 * ({@code server.http.bodies_in_flight}): connections that each send all of a large body but its
 * last byte fill the budget's share for large bodies, the next one is refused with 503 before its
 * body is read, an ordinary call still gets through, and the bytes come back when those
 * connections go away. Budget 2 MiB here: large bodies may hold 1.75 MiB, six of 300,000 bytes.
 */
class BodiesInFlightTest {
    private static final long BUDGET = 2 << 20;
    private static final int BODY = 300_000;

    @RegisterExtension
    static final TestServer server = TestServer.quickstart(s -> s.limits(l -> l.http(new HttpLimits(
            Duration.ofMinutes(5), Duration.ofSeconds(10), Duration.ofSeconds(60), BUDGET))), ServeOptions.DEFAULTS);
    static final RawHttp http = server.http();

    @Test
    void halfSentBodiesAreBoundedInTotalAndGiveTheirBytesBack() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {
                held.add(halfSent(BODY));
            }
            awaitHeld(6L * BODY);
            try (Socket refused = halfSent(BODY)) {
                String answer = readAll(refused);
                assertTrue(answer.startsWith("HTTP/1.1 503"), answer);
                assertTrue(answer.toLowerCase().contains("retry-after: 1"), answer);
                assertTrue(answer.contains("server.http.bodies_in_flight"), answer);
            }
            assertEquals(6L * BODY, server.server().mcp().bodyBytesInFlight());
            // small bodies keep the last eighth: ordinary calls still get through
            JsonObject answer = http.call("get-customer", new JsonObject().put("customer_id", 1));
            assertTrue(answer.containsKey("result"), answer.encode());
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
        awaitHeld(0);
        // room again: a body of the same size is read and answered (as JSON-RPC, not refused)
        try (Socket socket = halfSent(BODY)) {
            socket.getOutputStream().write(' ');
            String answer = readAll(socket);
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertTrue(answer.contains("Parse error"), answer);
        }
    }

    @Test
    void aBodySentWithoutALengthIsRefusedWhenItOutgrowsTheBudget() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[64 * 1024];
            Arrays.fill(chunk, (byte) ' ');
            boolean cut = false;
            for (int i = 0; i < 64 && !cut; i++) {   // 4 MiB offered, past the 1.75 MiB for large bodies
                try {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(chunk);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException closed) {
                    cut = true;
                }
                cut |= socket.getInputStream().available() > 0;
            }
            String answer = readAll(socket);
            assertTrue(answer.startsWith("HTTP/1.1 503"), answer);
        }
        awaitHeld(0);
    }

    /** A POST declaring {@code length} bytes, all sent but the last. */
    private static Socket halfSent(int length) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        byte[] body = new byte[length - 1];
        Arrays.fill(body, (byte) ' ');
        try {
            out.write(body);
            out.flush();
        } catch (IOException refusedAndClosed) {
            // the server answered at once and closed: the caller reads the answer
        }
        return socket;
    }

    private static void awaitHeld(long bytes) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.server().mcp().bodyBytesInFlight() != bytes && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertEquals(bytes, server.server().mcp().bodyBytesInFlight());
    }

    private static String readAll(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        try {
            int n;
            while ((n = in.read(chunk)) > 0) {
                seen.write(chunk, 0, n);
                String text = seen.toString(StandardCharsets.UTF_8);
                int headersEnd = text.indexOf("\r\n\r\n");
                if (headersEnd > 0 && text.contains("}") ) {
                    break;
                }
            }
        } catch (SocketTimeoutException | java.net.SocketException stopped) {
            // what arrived is the answer
        }
        return seen.toString(StandardCharsets.UTF_8);
    }
}
