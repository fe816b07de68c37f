package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HttpLimitsTest {
    private static Duration keepAlive(Duration idle) {
        return new HttpLimits(idle, Duration.ofSeconds(10), Duration.ofSeconds(30), 0).sseKeepAlive();
    }

    @Test
    void anSseStreamSpeaksAtAThirdOfTheIdleTimeoutAndAtLeastEveryThirtySeconds() {
        for (Duration idle : new Duration[] {Duration.ZERO, Duration.ofNanos(2), Duration.ofNanos(3),
                Duration.ofMillis(1), Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(89_999),
                Duration.ofSeconds(90), Duration.ofSeconds(91), Duration.ofMinutes(5), Duration.ofDays(365_000)}) {
            Duration third = idle.dividedBy(3);
            Duration expected = third.compareTo(Duration.ofSeconds(30)) < 0 ? third : Duration.ofSeconds(30);
            assertEquals(expected.isZero() ? Duration.ofMillis(1) : expected, keepAlive(idle), idle.toString());
        }
        assertEquals(Duration.ofSeconds(30), keepAlive(Duration.ofMinutes(5)));
        assertEquals(Duration.ofMillis(1), keepAlive(Duration.ZERO));
    }
}
