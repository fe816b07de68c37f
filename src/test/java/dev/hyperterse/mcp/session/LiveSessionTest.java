package dev.hyperterse.mcp.session;

import dev.hyperterse.testing.MutableClock;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Per-node stream bookkeeping without HTTP: numbering, bounded buffers, what a resume finds. */
class LiveSessionTest {

    @Test
    void resumeClassifiesByStreamAndPosition() {
        LiveSession live = new LiveSession("s", "e1", 4, 2, Long.MAX_VALUE);
        assertEquals(LiveSession.Resume.REPLAY, live.classify(new EventId("e1", 0, 0)), "the GET stream always exists");
        assertEquals(LiveSession.Resume.UNKNOWN, live.classify(new EventId("e1", 1, 0)), "no POST stream was issued yet");

        EventStream first = live.newStream();
        assertEquals(1, first.number());
        first.send(message(1));
        first.send(message(2));
        assertEquals(LiveSession.Resume.REPLAY, live.classify(new EventId("e1", 1, 2)), "running: more may come");
        first.finish();
        live.retire(first);
        assertEquals(LiveSession.Resume.REPLAY, live.classify(new EventId("e1", 1, 1)), "event 2 is left to replay");
        assertEquals(LiveSession.Resume.EXHAUSTED, live.classify(new EventId("e1", 1, 2)), "finished, nothing after 2");

        EventStream second = live.newStream();
        EventStream third = live.newStream();
        second.finish();
        live.retire(second);
        third.finish();
        live.retire(third);
        assertNull(live.stream(1), "only the 2 most recent finished streams are kept");
        assertEquals(LiveSession.Resume.EXHAUSTED, live.classify(new EventId("e1", 1, 0)), "dropped: nothing to replay");
        assertEquals(LiveSession.Resume.UNKNOWN, live.classify(new EventId("e1", 4, 0)));
        assertEquals(LiveSession.Resume.UNKNOWN, live.classify(new EventId("e2", 0, 0)),
                "an id from another life of the session's live state");
    }

    @Test
    void aStreamKeepsItsMostRecentEvents() {
        LiveSession live = new LiveSession("s", "e1", 3, 2, Long.MAX_VALUE);
        EventStream stream = live.newStream();
        for (int i = 1; i <= 5; i++) {
            stream.send(message(i));
        }
        stream.finish();
        assertFalse(stream.exhaustedAfter(2), "events 3 to 5 are kept");
        assertTrue(stream.exhaustedAfter(5));
    }

    @Test
    void finishedStreamsKeepAtMostTheSessionsByteBudget() {
        // as a session sees it: each POST answered on a stream whose last message is a large result
        LiveSession live = new LiveSessions(new MutableClock()).of("s");
        JsonObject result = new JsonObject().put("jsonrpc", "2.0").put("id", 1)
                .put("result", new JsonObject().put("text", "r".repeat(1 << 20)));
        List<EventStream> answered = new ArrayList<>();
        for (int i = 0; i < LiveSessions.FINISHED_STREAMS_KEPT; i++) {
            EventStream stream = live.newStream();
            stream.send(message(i));
            stream.send(result);
            stream.finish();
            live.retire(stream);
            answered.add(stream);
        }
        long kept = 0;
        int resumable = 0;
        for (EventStream stream : answered) {
            if (live.stream(stream.number()) != null) {
                kept += stream.keptBytes();
                resumable++;
                assertEquals(LiveSession.Resume.REPLAY, live.classify(new EventId(live.epoch(), stream.number(), 0)));
            } else {
                assertEquals(LiveSession.Resume.EXHAUSTED, live.classify(new EventId(live.epoch(), stream.number(), 0)),
                        "dropped to bound memory: nothing to replay");
            }
        }
        assertTrue(kept <= LiveSessions.FINISHED_BYTES_KEPT, kept + " bytes kept");
        assertTrue(resumable >= 7 && resumable < LiveSessions.FINISHED_STREAMS_KEPT, resumable + " streams kept");
        assertEquals(answered.get(answered.size() - 1), live.stream(answered.get(answered.size() - 1).number()),
                "the most recent answer stays resumable");
    }

    @Test
    void requestIdsAreComparedAsJsonValues() {
        assertEquals(5L, LiveSession.normalise(5));
        assertEquals(5L, LiveSession.normalise(java.math.BigInteger.valueOf(5)));
        assertEquals("5", LiveSession.normalise("5"), "a string id is not the number");
    }

    @Test
    void unusedLiveStateIsDroppedAfterTheIdleTimeout() {
        MutableClock clock = new MutableClock();
        LiveSessions sessions = new LiveSessions(clock);
        LiveSession a = sessions.of("a");
        assertSame(a, sessions.of("a"));
        sessions.of("b");
        clock.advance(Duration.ofMinutes(9));
        sessions.of("b");
        clock.advance(Duration.ofMinutes(2));
        sessions.endUnused(Duration.ofMinutes(10));
        assertNull(sessions.find("a"));
        assertTrue(sessions.find("b") != null, "used 2 minutes ago");
        LiveSession again = sessions.of("a");
        assertNotSame(a, again, "a new request starts afresh");
        assertNotEquals(a.epoch(), again.epoch(), "with ids that cannot be mistaken for the old ones");
    }

    private static JsonObject message(int n) {
        return new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/message")
                .put("params", new JsonObject().put("level", "info").put("data", "m" + n));
    }
}
