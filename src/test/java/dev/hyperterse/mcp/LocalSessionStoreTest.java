package dev.hyperterse.mcp;

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
    void updateKeepsTheNewestUseAndIgnoresEndedSessions() {
        Session s = created(store, "2025-11-25");
        Session stale = s;
        clock.advance(Duration.ofMinutes(1));
        found(s.id());
        store.update(stale.withLogLevel("info"));
        Session now = found(s.id()).orElseThrow();
        assertEquals("info", now.logLevel());
        assertEquals("2025-11-25", now.protocolVersion());
        store.remove(s.id());
        store.update(now.withLogLevel("debug"));
        assertTrue(found(s.id()).isEmpty(), "update does not bring a session back");
    }

    @Test
    void theCapCountsLiveSessionsOnly() {
        Session a = created(store, "2025-11-25");
        created(store, "2025-11-25");
        assertTrue(store.create("2025-11-25").result().isEmpty(), "full");
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
        assertTrue(store.create("2025-11-25").result().isPresent(), "expired sessions make room");
    }

    private static Session created(LocalSessionStore store, String version) {
        return store.create(version).result().orElseThrow();
    }

    private Optional<Session> found(String id) {
        return store.find(id).result();
    }
}
