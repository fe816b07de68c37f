package dev.hyperterse.mcp.session;

import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What one session has on this node beyond its stored data: its SSE streams (with their replay
 * buffers and open connections) and its running requests, so {@code notifications/cancelled} can
 * reach them. Never stored: it holds live connections. Methods never call out while holding the
 * lock, so a request completing and the session ending cannot deadlock.
 */
final class LiveSession {
    /** Standalone GET stream's number; POST streams count from 1. */
    static final int STANDALONE = 0;

    /** What resuming from a {@code Last-Event-ID} finds. */
    enum Resume { UNKNOWN, EXHAUSTED, REPLAY }

    private final String id;
    private final String epoch;
    private final int eventsPerStream;
    private final int finishedStreamsKept;
    private final long finishedBytesKept;
    private final Map<Integer, EventStream> streams = new HashMap<>();
    private final ArrayDeque<Integer> finishedOrder = new ArrayDeque<>();
    private final Map<Object, RunningRequest> running = new HashMap<>();
    private final ClientRequests clientRequests = new ClientRequests();
    private int nextStream = 1;
    private boolean ended;
    private Instant lastUsed = Instant.MIN;

    /**
     * @param epoch distinguishes this life of the session's live state from earlier ones and from
     *              other nodes', so event ids never repeat within the session
     */
    LiveSession(String id, String epoch, int eventsPerStream, int finishedStreamsKept, long finishedBytesKept) {
        this.id = id;
        this.epoch = epoch;
        this.eventsPerStream = eventsPerStream;
        this.finishedStreamsKept = finishedStreamsKept;
        this.finishedBytesKept = finishedBytesKept;
        streams.put(STANDALONE, new EventStream(epoch, STANDALONE, true, eventsPerStream));
    }

    String id() {
        return id;
    }

    /** The server's requests to this session's client that await a response on this node. */
    ClientRequests clientRequests() {
        return clientRequests;
    }

    synchronized void used(Instant now) {
        if (now.isAfter(lastUsed)) {
            lastUsed = now;
        }
    }

    synchronized Instant lastUsed() {
        return lastUsed;
    }

    /** A new stream for a POST that answers with SSE. */
    synchronized EventStream newStream() {
        // a finished stream's last message may have been encoded on a worker after it was retired
        keepFinishedWithinBytes();
        EventStream stream = new EventStream(epoch, nextStream++, true, eventsPerStream);
        streams.put(stream.number(), stream);
        return stream;
    }

    /**
     * A POST stream sent its last message. It stays resumable for a while, but only the most
     * recent finished streams are kept, and only as many of them as the byte budget holds, which
     * bounds the memory a session holds.
     */
    synchronized void retire(EventStream stream) {
        finishedOrder.addLast(stream.number());
        while (finishedOrder.size() > finishedStreamsKept) {
            streams.remove(finishedOrder.removeFirst());
        }
        keepFinishedWithinBytes();
    }

    /**
     * Keeps finished streams, newest first, while the messages they keep fit in the byte budget,
     * and drops the others. A count alone let each kept stream hold a whole result: 16 answers of a
     * 4 MB result (8 MB each on the wire, as text and as structured content) pinned 130 MB per
     * session until it idled out, so three sessions exhausted a 400 MB heap.
     */
    private void keepFinishedWithinBytes() {
        long kept = 0;
        for (Iterator<Integer> newestFirst = finishedOrder.descendingIterator(); newestFirst.hasNext(); ) {
            Integer number = newestFirst.next();
            EventStream finished = streams.get(number);
            long bytes = finished == null ? 0 : finished.keptBytes();
            if (kept + bytes > finishedBytesKept) {
                newestFirst.remove();
                streams.remove(number);
            } else {
                kept += bytes;
            }
        }
    }

    EventStream standalone() {
        return stream(STANDALONE);
    }

    synchronized EventStream stream(int number) {
        return streams.get(number);
    }

    String epoch() {
        return epoch;
    }

    /**
     * Classifies a {@code Last-Event-ID}: UNKNOWN when it does not name a stream this session
     * had in this life of its live state, EXHAUSTED when that stream is finished and nothing after the id is left (or its
     * events were dropped to bound memory), REPLAY otherwise.
     */
    synchronized Resume classify(EventId eventId) {
        if (!epoch.equals(eventId.epoch()) || eventId.stream() >= nextStream) {
            return Resume.UNKNOWN;
        }
        EventStream stream = streams.get(eventId.stream());
        if (stream == null || stream.exhaustedAfter(eventId.seq())) {
            return Resume.EXHAUSTED;
        }
        return Resume.REPLAY;
    }

    /** Registers a running request; false when a running request of this session has the same id. */
    synchronized boolean register(RunningRequest request) {
        if (ended || running.containsKey(request.key())) {
            return false;
        }
        running.put(request.key(), request);
        return true;
    }

    synchronized void unregister(RunningRequest request) {
        running.remove(request.key(), request);
    }

    synchronized RunningRequest running(Object requestId) {
        return running.get(normalise(requestId));
    }

    /** Sends a notification that belongs to no request on the standalone GET stream (kept until one opens). */
    void notify(JsonObject notification) {
        standalone().send(notification);
    }

    /** Whether a request of the session runs here. */
    synchronized boolean runningRequests() {
        return !running.isEmpty();
    }

    synchronized boolean active() {
        if (!running.isEmpty()) {
            return true;
        }
        for (EventStream s : streams.values()) {
            if (s.connected()) {
                return true;
            }
        }
        return false;
    }

    /** The session is over: its running requests are cancelled and its connections closed. */
    void end() {
        List<RunningRequest> requests;
        List<EventStream> all;
        synchronized (this) {
            ended = true;
            requests = new ArrayList<>(running.values());
            running.clear();
            all = new ArrayList<>(streams.values());
        }
        requests.forEach(RunningRequest::cancel);
        all.forEach(EventStream::finish);
    }

    /** JSON-RPC ids 5 and 5L are the same id; numbers are kept as Long. */
    static Object normalise(Object requestId) {
        if (requestId instanceof Integer) {
            return ((Integer) requestId).longValue();
        }
        if (requestId instanceof java.math.BigInteger && ((java.math.BigInteger) requestId).bitLength() < 64) {
            return ((java.math.BigInteger) requestId).longValue();
        }
        return requestId;
    }
}
