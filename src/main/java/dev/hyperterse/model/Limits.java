package dev.hyperterse.model;

import java.time.Duration;

/**
 * Execution limits for one tool: the most rows a database tool returns, the most bytes its result
 * may take (its JSON size; either cap cuts the result and the cut is reported), and how long its
 * statement or script may run.
 */
public record Limits(int rowLimit, long resultMaxBytes, Duration statementTimeout, Duration scriptTimeout) {
    public static final Limits DEFAULTS =
            new Limits(1000, 4L << 20, Duration.ofSeconds(30), Duration.ofSeconds(5));
}
