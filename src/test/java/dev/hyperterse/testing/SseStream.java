package dev.hyperterse.testing;

import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP response read as a {@code text/event-stream}, parsed as the WHATWG SSE rules say:
 * lines end with LF, CRLF or CR; {@code field: value} (one optional space after the colon);
 * {@code data} lines join with LF; comment lines start with a colon; a blank line ends an event.
 * Each event records only the fields of its own block, so a test sees exactly what was framed.
 * A background thread reads, so a test waits for the next event with a timeout, never a sleep.
 */
public final class SseStream implements AutoCloseable {
    /** One event block as framed: fields absent from the block are null. */
    public record Event(String id, String event, String data, Integer retry) {
        public JsonObject json() {
            return new JsonObject(data);
        }

        /** A priming event: an id and empty data (2025-11-25). */
        public boolean priming() {
            return id != null && data != null && data.isEmpty();
        }
    }

    private static final Object END = new Object();

    private final HttpResponse<InputStream> response;
    private final BlockingDeque<Object> events = new LinkedBlockingDeque<>();
    private volatile boolean ended;
    private int pushedBack = -1;

    SseStream(HttpResponse<InputStream> response) {
        this.response = response;
        Thread reader = new Thread(this::read, "sse-reader");
        reader.setDaemon(true);
        reader.start();
    }

    public int status() {
        return response.statusCode();
    }

    public String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** The next event; fails the test when none arrives in time; null when the stream ended. */
    public Event next(Duration timeout) throws InterruptedException {
        Object item = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (item == null) {
            throw new AssertionError("no SSE event within " + timeout);
        }
        if (item == END) {
            events.addFirst(END);
            return null;
        }
        return (Event) item;
    }

    /** The next event that carries data (skips priming events). */
    public Event nextMessage(Duration timeout) throws InterruptedException {
        Event e;
        do {
            e = next(timeout);
        } while (e != null && (e.data() == null || e.data().isEmpty()));
        return e;
    }

    /** Every remaining event until the server ends the stream; fails when it does not end in time. */
    public List<Event> rest(Duration timeout) throws InterruptedException {
        List<Event> all = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("the SSE stream did not end within " + timeout + "; got " + all);
            }
            Event e = next(Duration.ofNanos(left));
            if (e == null) {
                return all;
            }
            all.add(e);
        }
    }

    /** True when nothing (no event, no end) arrives within {@code quiet}. */
    public boolean silentFor(Duration quiet) throws InterruptedException {
        Object item = events.poll(quiet.toMillis(), TimeUnit.MILLISECONDS);
        if (item == null) {
            return true;
        }
        events.addFirst(item);
        return false;
    }

    public boolean ended() {
        return ended;
    }

    /** The client goes away: the connection is closed. */
    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    private void read() {
        try (InputStream in = response.body()) {
            String id = null;
            String event = null;
            StringBuilder data = null;
            Integer retry = null;
            boolean any = false;
            String line;
            while ((line = readLine(in)) != null) {
                if (line.isEmpty()) {
                    if (any) {
                        events.add(new Event(id, event, data == null ? null : data.toString(), retry));
                    }
                    id = null;
                    event = null;
                    data = null;
                    retry = null;
                    any = false;
                    continue;
                }
                if (line.startsWith(":")) {
                    continue; // a comment
                }
                int colon = line.indexOf(':');
                String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1);
                if (value.startsWith(" ")) {
                    value = value.substring(1);
                }
                any = true;
                switch (field) {
                    case "id":
                        id = value;
                        break;
                    case "event":
                        event = value;
                        break;
                    case "data":
                        data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                        break;
                    case "retry":
                        retry = Integer.valueOf(value);
                        break;
                    default:
                        throw new AssertionError("unknown SSE field: " + line);
                }
            }
        } catch (IOException e) {
            // the connection was closed (by the test or the server)
        } finally {
            ended = true;
            events.add(END);
        }
    }

    /** One line without its terminator (LF, CRLF or CR); null at the end of the stream. */
    private String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = pushedBack >= 0 ? pushedBack : in.read();
            pushedBack = -1;
            if (b < 0) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
            }
            if (b == '\n') {
                return line.toString(StandardCharsets.UTF_8);
            }
            if (b == '\r') {
                int next = in.read();
                if (next != '\n' && next >= 0) {
                    pushedBack = next;
                }
                return line.toString(StandardCharsets.UTF_8);
            }
            line.write(b);
        }
    }
}
