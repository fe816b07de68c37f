package dev.hyperterse.server;

import dev.hyperterse.model.HttpLimits;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How often the deadlines are swept: a tenth of the shorter timeout, kept between 10 ms and 1 s. */
class ConnectionDeadlinesTest {

    private static long sweep(Duration headers, Duration body) {
        return new ConnectionDeadlines(null, new HttpLimits(Duration.ofSeconds(60), headers, body, 0)).sweepMillis();
    }

    @Test
    void aTenthOfTheShorterTimeout() {
        assertEquals(100, sweep(Duration.ofSeconds(1), Duration.ofSeconds(30)));
        assertEquals(200, sweep(Duration.ofSeconds(5), Duration.ofSeconds(2)));
    }

    @Test
    void atMostASecondAndAtLeastTenMilliseconds() {
        assertEquals(1000, sweep(Duration.ofSeconds(10), Duration.ofSeconds(30)));
        assertEquals(10, sweep(Duration.ofMillis(20), Duration.ofSeconds(30)));
    }
}
