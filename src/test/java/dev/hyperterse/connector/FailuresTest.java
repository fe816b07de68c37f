package dev.hyperterse.connector;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A driver's message as callers and logs get it: one line, no password, and cut when it quotes a long value. */
class FailuresTest {

    @Test
    void oneLineJoinsLinesAndMasksPasswords() {
        assertEquals("column \"nope\" does not exist Hint: check it",
                Failures.oneLine(new RuntimeException("  column \"nope\" does not exist \n\r\n  Hint: check it\n")));
        assertEquals("tabs\tand  spaces stay", Failures.oneLine(new RuntimeException("tabs\tand  spaces stay")));
        assertEquals("cannot connect to postgres://app:***@db/shop",
                Failures.oneLine(new RuntimeException("cannot connect to postgres://app:s3cret@db/shop")));
        assertEquals("IllegalStateException", Failures.oneLine(new IllegalStateException(" \n ")));
    }

    @Test
    void aConnectionThatDroppedUnderACommandIsAnOutageInEveryClientsWords() {
        for (String words : new String[] {"Connection is closed", "Connection was closed", "connection reset by peer",
                "Connection is not active now", "CONNECTION_CLOSED"}) {
            ConnectorException e = Failures.of(new RuntimeException(words), "db:6379", t -> "reason: " + t.getMessage());
            assertEquals("database unavailable: the connection to db:6379 was lost", e.getMessage(), words);
        }
        assertEquals("reason: WRONGTYPE Operation against a key holding the wrong kind of value",
                Failures.of(new RuntimeException("WRONGTYPE Operation against a key holding the wrong kind of value"),
                        "db:6379", t -> "reason: " + t.getMessage()).getMessage());
    }

    @Test
    void aMessageQuotingAHugeValueIsCutSayingSo() {
        String value = "a b" + "a".repeat(1_000_000);
        String message = "syntax error in tsquery: \"" + value + "\" (SQLSTATE 42601)";
        String line = Failures.oneLine(new RuntimeException(message));
        assertTrue(line.startsWith("syntax error in tsquery: \"a baaaa"), line.substring(0, 40));
        assertTrue(line.endsWith("… (truncated, " + message.length() + " chars)"), line.substring(line.length() - 60));
        assertTrue(line.length() < 2200, "cut: " + line.length());
        // a run of white space is joined in one pass (the expression it replaced backtracked on it)
        String spaces = "x" + " ".repeat(1_000_000) + "\n" + "y";
        assertTrue(Failures.oneLine(new RuntimeException(spaces)).length() < 2200);
        assertEquals("x y", Failures.joinLines("x" + " ".repeat(100_000) + "\n\n " + "y"));
    }
}
