package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.LogLevel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventIdTest {
    @Test
    void parsesWhatTheServerIssues() {
        assertEquals(new EventId("k3x9", 0, 1), EventId.parse("k3x9-0-1"));
        assertEquals(new EventId("1y2p0ij32e8e7", 12, 345), EventId.parse(" 1y2p0ij32e8e7-12-345 "));
        assertEquals("ab-3-7", EventId.format("ab", 3, 7));
    }

    @Test
    void refusesEverythingElse() {
        for (String bad : new String[] {null, "", "-", "1-", "-1", "0-1", "a-1-", "a--1", "a-1-b", "a-b-1", "A-1-2",
                "a-1-2-3", "a-9999999999-1", "abcdefghijklmn-1-1", "x"}) {
            assertNull(EventId.parse(bad), bad);
        }
    }

    @Test
    void logLevelsOrderBySeverity() {
        assertTrue(LogLevel.ERROR.atLeast(LogLevel.WARNING));
        assertTrue(LogLevel.INFO.atLeast(LogLevel.INFO));
        assertEquals(LogLevel.NOTICE, LogLevel.of("notice"));
        assertNull(LogLevel.of("NOTICE"), "keywords are lower case");
        assertNull(LogLevel.of(3));
    }
}
