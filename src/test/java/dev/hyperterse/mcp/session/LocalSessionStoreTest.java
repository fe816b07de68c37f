package dev.hyperterse.mcp.session;

import dev.hyperterse.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalSessionStoreTest {
    private final MutableClock clock = new MutableClock();
    private final LocalSessionStore store = new LocalSessionStore(Duration.ofMinutes(5), 2, clock);

    @Test
    void idsAreRandomVisibleAsciiAndUnguessable() {
        Set<String> ids = new HashSet<>();
        LocalSessionStore big = new LocalSessionStore(Duration.ofMinutes(5), 1000, clock);
        for (int i = 0; i < 1000; i++) {
            String id = created(big, "2025-11-25").id();
            assertEquals(32, id.length(), "192 bits, base64");
            assertTrue(id.chars().allMatch(c -> c >= 0x21 && c <= 0x7e), id);
            assertTrue(ids.add(id));
        }
    }

    @Test
    void findTouchesAndIdleSessionsExpire() {
        Session s = created(store, "2025-06-18");
        assertNull(s.logLevel());
        clock.advance(Duration.ofMinutes(4));
        assertEquals(clock.instant(), found(s.id()).orElseThrow().lastSeen());
        clock.advance(Duration.ofMinutes(4));
        assertTrue(found(s.id()).isPresent(), "4 minutes since the last use");
        clock.advance(Duration.ofMinutes(6));
        assertTrue(found(s.id()).isEmpty());
        assertFalse(store.remove(s.id()).result(), "an expired session is gone");
    }

    @Test
    void updateChangesTheHeldSessionCountsAsUseAndIgnoresEndedSessions() {
        Session s = created(store, "2025-11-25");
        clock.advance(Duration.ofMinutes(1));
        Session changed = store.update(s.id(), held -> held.withLogLevel("info")).result().orElseThrow();
        assertEquals(clock.instant(), changed.lastSeen(), "an update is a use");
        store.update(s.id(), held -> held.withSubscription("docs://a", true));
        Session now = found(s.id()).orElseThrow();
        assertEquals("info", now.logLevel(), "the second change starts from the first, not from a stale copy");
        assertEquals(List.of("docs://a"), now.subscriptions());
        assertEquals("2025-11-25", now.protocolVersion());
        IllegalStateException refused = new IllegalStateException("refused");
        assertSame(refused, store.update(s.id(), held -> {
            throw refused;
        }).cause(), "a change that throws fails the update");
        assertEquals(now.subscriptions(), found(s.id()).orElseThrow().subscriptions(), "and changes nothing");
        store.remove(s.id());
        assertTrue(store.update(s.id(), held -> held.withLogLevel("debug")).result().isEmpty());
        assertTrue(found(s.id()).isEmpty(), "update does not bring a session back");
    }

    @Test
    void theCapCountsLiveSessionsOnly() {
        Session a = created(store, "2025-11-25");
        created(store, "2025-11-25");
        assertTrue(store.create("2025-11-25", CLIENT, ALL_IN_USE).result().isEmpty(), "full, and every session in use");
        store.remove(a.id());
        Session c = created(store, "2025-11-25");
        clock.advance(Duration.ofMinutes(6));
        List<String> ended = store.evictExpired().result();
        assertEquals(2, ended.size());
        assertTrue(ended.contains(c.id()));
        assertEquals(0, store.size());
        created(store, "2025-11-25");
        created(store, "2025-11-25");
        clock.advance(Duration.ofMinutes(6));
        assertTrue(store.create("2025-11-25", CLIENT, ALL_IN_USE).result().isPresent(), "expired sessions make room");
    }

    @Test
    void aFullStoreEndsItsLeastRecentlyUsedIdleSession() {
        LocalSessionStore three = new LocalSessionStore(Duration.ofMinutes(5), 3, clock);
        Recorder use = new Recorder();
        Session a = three.create("2025-11-25", "10.0.0.1", use).result().orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        Session b = three.create("2025-11-25", "10.0.0.2", use).result().orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        Session c = three.create("2025-11-25", "10.0.0.3", use).result().orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        three.find(a.id());                  // a is now the most recently used
        use.busy.add(b.id());                // b has an open stream
        Session d = three.create("2025-11-25", "10.0.0.4", use).result().orElseThrow();
        assertEquals(List.of(c.id()), use.ended, "b is in use, a was used since: c goes");
        assertTrue(three.find(c.id()).result().isEmpty(), "an ended session is unknown from then on");
        assertTrue(three.find(b.id()).result().isPresent());
        assertTrue(three.find(d.id()).result().isPresent());
        use.busy.addAll(List.of(a.id(), b.id(), d.id()));
        assertTrue(three.create("2025-11-25", "10.0.0.5", use).result().isEmpty(), "all in use: no room");
        assertEquals(3, three.size());
    }

    @Test
    void oneClientReplacesOnlyItsOwnSessionsAndNeverLocksOthersOut() {
        LocalSessionStore shared = new LocalSessionStore(Duration.ofMinutes(5), 100, 10, clock);
        Recorder use = new Recorder();
        List<String> others = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            others.add(shared.create("2025-11-25", "192.0.2.7", use).result().orElseThrow().id());
        }
        for (int i = 0; i < 12_000; i++) {
            clock.advance(Duration.ofMillis(1));
            assertTrue(shared.create("2025-11-25", "198.51.100.9", use).result().isPresent());
        }
        assertEquals(15, shared.size(), "the flooding client holds its share of 10, no more");
        for (String id : others) {
            assertTrue(shared.find(id).result().isPresent(), "the other client's sessions live on");
        }
        assertTrue(shared.create("2025-11-25", "192.0.2.8", use).result().isPresent(), "a new client gets one");
        assertEquals(12_000 - 10, use.ended.size());
    }

    /**
     * Sessions whose only use is an open stream do not lock a newcomer out of a full store: the
     * client holding the most sessions gives up one (its least recently used idle one first, else
     * one with only a stream), never one running a call; a client holding about as many as the
     * newcomer is left alone.
     */
    @Test
    void aFullStoreTakesANewcomersPlaceFromTheClientHoldingTheMost() {
        LocalSessionStore store20 = new LocalSessionStore(Duration.ofMinutes(5), 20, 5, clock);
        Recorder use = new Recorder();
        List<List<String>> byClient = new java.util.ArrayList<>();
        for (int c = 1; c <= 4; c++) {
            List<String> own = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                clock.advance(Duration.ofSeconds(1));
                String id = store20.create("2025-11-25", "10.0.0." + c, use).result().orElseThrow().id();
                use.streaming.add(id);
                own.add(id);
            }
            byClient.add(own);
        }
        use.running.add(byClient.get(0).get(0));            // a call runs: never given up
        Session newcomer = store20.create("2025-11-25", "10.0.0.9", use).result().orElseThrow();
        assertEquals(List.of(byClient.get(0).get(1)), use.ended,
                "the first client to hold the most gives up its least recently used session that runs no call");
        assertEquals(20, store20.size());
        // 10.0.0.2, .3 and .4 hold five each, 10.0.0.1 four: each newcomer takes from one of them
        for (int c = 10; c < 13; c++) {
            assertTrue(store20.create("2025-11-25", "10.0.0." + c, use).result().isPresent(), "client " + c);
        }
        assertEquals(List.of(byClient.get(0).get(1), byClient.get(1).get(0), byClient.get(2).get(0),
                byClient.get(3).get(0)), use.ended);
        // now 10.0.0.1 to .4 hold four each and the newcomers one: another newcomer takes from one of the four
        assertTrue(store20.create("2025-11-25", "10.0.0.13", use).result().isPresent());
        assertTrue(store20.find(newcomer.id()).result().isPresent(), "a newcomer's session is not taken by the next");

        // clients holding about as many as the newcomer keep their streams: full means full
        LocalSessionStore even = new LocalSessionStore(Duration.ofMinutes(5), 4, 4, clock);
        Recorder evenUse = new Recorder();
        for (int c = 1; c <= 4; c++) {
            evenUse.streaming.add(even.create("2025-11-25", "10.1.0." + c, evenUse).result().orElseThrow().id());
        }
        assertTrue(even.create("2025-11-25", "10.1.0.9", evenUse).result().isEmpty());
        assertEquals(List.of(), evenUse.ended);
    }

    @Test
    void makingRoomLooksAtABoundedNumberOfSessions() {
        LocalSessionStore big = new LocalSessionStore(Duration.ofMinutes(5), 5000, clock);
        Recorder use = new Recorder();
        for (int i = 0; i < 5000; i++) {
            String id = big.create("2025-11-25", "10.1." + (i / 250) + "." + (i % 250), use).result().orElseThrow().id();
            use.busy.add(id);
        }
        use.asked = 0;
        assertTrue(big.create("2025-11-25", "10.9.9.9", use).result().isEmpty());
        assertTrue(use.asked <= SessionLedger.SCAN, "asked about " + use.asked + " sessions");
        // the ones it passed count as used now, so the next try starts past them
        use.busy.clear();
        assertTrue(big.create("2025-11-25", "10.9.9.9", use).result().isPresent());
        assertEquals(1, use.ended.size());
    }

    /**
     * Which sessions are in use (set by the test: busy, or in use only by a stream, or running a
     * call), and which ones the store ended.
     */
    private static final class Recorder implements SessionUse {
        final Set<String> busy = new HashSet<>();
        final Set<String> streaming = new HashSet<>();
        final Set<String> running = new HashSet<>();
        final List<String> ended = new java.util.ArrayList<>();
        int asked;

        @Override
        public boolean inUse(String sessionId) {
            asked++;
            return busy.contains(sessionId) || streaming.contains(sessionId) || running.contains(sessionId);
        }

        @Override
        public boolean callRunning(String sessionId) {
            return busy.contains(sessionId) || running.contains(sessionId);
        }

        @Override
        public void ended(String sessionId) {
            ended.add(sessionId);
        }
    }

    private static final String CLIENT = "127.0.0.1";
    private static final SessionUse ALL_IN_USE = new SessionUse() {
        @Override
        public boolean inUse(String sessionId) {
            return true;
        }

        @Override
        public void ended(String sessionId) {
        }
    };

    private static Session created(LocalSessionStore store, String version) {
        return store.create(version, CLIENT, SessionUse.NONE).result().orElseThrow();
    }

    private Optional<Session> found(String id) {
        return store.find(id).result();
    }
}
