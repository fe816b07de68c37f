package dev.hyperterse.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * One HTTP request to a local server over a connection from a chosen loopback address
 * (127.0.0.2, 127.0.0.3, …), its answer read as it arrives: how a test stands in for several
 * clients, which the server tells apart by network address, each holding a stream open. The JDK's
 * HttpClient cannot choose its local address on Java 17. The request asks the server to close the
 * connection after the response, so a stream the server ends reads as ended.
 */
public final class AddressedStream implements AutoCloseable {
    private final Socket socket;
    private final StringBuilder received = new StringBuilder();
    private volatile boolean ended;

    private AddressedStream(Socket socket) {
        this.socket = socket;
        Thread reader = new Thread(this::read, "addressed-stream-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Sends {@code method path} from {@code local} with these headers and body (null for none).
     */
    public static AddressedStream open(int port, String local, String method, String path,
                                       Map<String, String> headers, String body) throws IOException {
        Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(local), 0);
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(bytes.length).append("\r\n");
        }
        head.append("\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
        return new AddressedStream(socket);
    }

    /** Waits until what arrived so far contains {@code text}; fails the test when it does not in time. */
    public String await(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String now = text();
            if (now.contains(text)) {
                return now;
            }
            if (ended || System.nanoTime() - deadline > 0) {
                throw new AssertionError("no '" + text + "' within " + timeout + (ended ? " (the stream ended)" : "")
                        + "; got: " + now);
            }
            Thread.sleep(10);
        }
    }

    /** Waits until the server ends the response; false when it does not within {@code timeout}. */
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ended && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        return ended;
    }

    /** Everything that arrived so far: status line, headers and body as sent (chunked framing included). */
    public String text() {
        synchronized (received) {
            return received.toString();
        }
    }

    public boolean ended() {
        return ended;
    }

    /** The client goes away: the connection is closed. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    private void read() {
        byte[] buffer = new byte[8192];
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        try (InputStream in = socket.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                pending.write(buffer, 0, n);
                synchronized (received) {
                    received.setLength(0);
                    received.append(pending.toString(StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            // closed by the test
        } finally {
            ended = true;
        }
    }
}
