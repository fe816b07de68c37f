package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CallerTextTest {
    @Test
    void shortTextIsKept() {
        assertEquals("get-customer", CallerText.cut("get-customer"));
        String limit = "x".repeat(CallerText.MAX_CHARS);
        assertEquals(limit, CallerText.cut(limit));
    }

    @Test
    void longTextIsCutWithAnEllipsis() {
        assertEquals("x".repeat(CallerText.MAX_CHARS) + "…", CallerText.cut("x".repeat(1_000_000)));
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String emoji = "a" + "😀".repeat(100); // the 128th char is a high surrogate
        String cut = CallerText.cut(emoji);
        assertEquals("a" + "😀".repeat(63) + "…", cut);
    }
}
