package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.LargeJson;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;

/**
 * One SSE stream of a session on this node: the standalone GET stream (number 0) or the stream
 * answering one POST. It numbers its events ({@link EventId}), so an id is unique in the session
 * and names its stream, and keeps the last ones so a client that lost the connection can resume
 * with {@code Last-Event-ID}; at most one connection carries it at a time.
 */
final class EventStream {
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    /** In {@link #waiting}: the stream ends here. */
    private static final Object FINISH = new Object();
    private final String epoch;
    private final int number;
    private final boolean resumable;
    private final int capacity;
    private final ArrayDeque<SseEvent> recent = new ArrayDeque<>();
    /** The bytes of the messages in {@link #recent}. */
    private long recentBytes;
    /**
     * Messages (and {@link #FINISH}) not out yet: the head is being encoded on a worker, the rest
     * wait behind it; empty otherwise.
     */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private long lastSeq;
    private SseConnection connection;
    private boolean finished;

    /**
     * @param epoch     the life of the session's live state the stream belongs to
     * @param number    the stream's number in its session; 0 is the standalone GET stream
     * @param resumable false for a POST without a session: nothing can resume it, so its events
     *                  carry no id and are not kept
     * @param capacity  how many recent events are kept for replay
     */
    EventStream(String epoch, int number, boolean resumable, int capacity) {
        this.epoch = epoch;
        this.number = number;
        this.resumable = resumable;
        this.capacity = capacity;
    }

    int number() {
        return number;
    }

    /** Where the next event of this stream goes: the connection if one is attached, else the buffer. */
    synchronized void attach(SseConnection newConnection, boolean priming) {
        if (connection != null && connection != newConnection) {
            connection.end();
        }
        connection = newConnection;
        if (priming && resumable) {
            newConnection.send(SseEvent.primingFrame(id(++lastSeq)));
        }
    }

    /**
     * Attaches a connection only when none is open (the standalone GET stream takes one reader at
     * a time); false when one is.
     */
    synchronized boolean attachIfIdle(java.util.function.Supplier<SseConnection> open, boolean priming) {
        if (connection != null && connection.isOpen()) {
            return false;
        }
        attach(open.get(), priming);
        return true;
    }

    /**
     * Sends a message, or keeps it for a later resume when no connection is open. A large message
     * is encoded on a worker; the messages and the end sent meanwhile wait for it, so the stream
     * carries everything in the order it was sent.
     */
    synchronized void send(JsonObject message) {
        enqueue(message);
    }

    /** Queues a message or {@link #FINISH}, and sends it now unless one before it is still encoding. */
    private void enqueue(Object next) {
        waiting.addLast(next);
        if (waiting.size() == 1) {
            drain();
        }
    }

    /**
     * Sends what waits, in order, until the queue is empty or its head is a large message being
     * encoded on a worker (then {@link #encoded} goes on when it is done).
     */
    private void drain() {
        while (!waiting.isEmpty()) {
            Object next = waiting.peekFirst();
            if (next == FINISH) {
                waiting.removeFirst();
                end();
                continue;
            }
            Future<Buffer> encoded = LargeJson.encodeText(next);
            if (!encoded.isComplete()) {
                encoded.onComplete(this::encoded);
                return;
            }
            waiting.removeFirst();
            emit(encoded);
        }
    }

    /** The message at the head of {@link #waiting} was encoded: out it goes, then what waited behind it. */
    private synchronized void encoded(AsyncResult<Buffer> data) {
        waiting.removeFirst();
        emit(data);
        drain();
    }

    private void emit(AsyncResult<Buffer> data) {
        if (data.failed()) {
            // a message that cannot be encoded (a value JSON has no form for) is not sent
            LOG.error("encoding a stream event failed", data.cause());
            return;
        }
        long seq = ++lastSeq;
        SseEvent event = new SseEvent(seq, resumable ? id(seq) : null, data.result());
        if (resumable) {
            recent.addLast(event);
            recentBytes += event.data().length();
            if (recent.size() > capacity) {
                recentBytes -= recent.removeFirst().data().length();
            }
        }
        if (connection != null && !connection.send(event.frame())) {
            connection = null;
        }
    }

    /**
     * Resumes the stream on a new connection: replays what came after {@code afterSeq}, then
     * either ends the connection (the stream is finished) or keeps it for what comes next.
     */
    synchronized void resume(SseConnection newConnection, long afterSeq) {
        for (SseEvent event : recent) {
            if (event.seq() > afterSeq) {
                newConnection.send(event.frame());
            }
        }
        if (finished) {
            newConnection.end();
            return;
        }
        attach(newConnection, false);
    }

    /** The bytes of the messages kept for a resume. */
    synchronized long keptBytes() {
        return recentBytes;
    }

    /** True when a resume after {@code afterSeq} would have nothing to send, now or later. */
    synchronized boolean exhaustedAfter(long afterSeq) {
        return finished && (recent.isEmpty() || recent.peekLast().seq() <= afterSeq);
    }

    /**
     * The last message was sent: end the connection (once the messages sent before it are out).
     * The events stay for a late resume.
     */
    synchronized void finish() {
        enqueue(FINISH);
    }

    private void end() {
        finished = true;
        if (connection != null) {
            connection.end();
            connection = null;
        }
    }

    synchronized boolean finished() {
        return finished;
    }

    /**
     * Ends the connection but not the stream (SEP-1699 polling): the client resumes with GET and
     * {@code Last-Event-ID}.
     */
    synchronized void dropConnection() {
        if (connection != null) {
            connection.end();
            connection = null;
        }
    }

    /** The connection went away on its own. */
    synchronized void detach(SseConnection closed) {
        if (connection == closed) {
            connection = null;
        }
    }

    synchronized boolean connected() {
        return connection != null && connection.isOpen();
    }

    private String id(long seq) {
        return EventId.format(epoch, number, seq);
    }
}
