package dev.hyperterse.model;

import java.time.Duration;

/**
 * Execution limits for one tool: the most rows a database tool returns (more are cut and the
 * cut is reported) and how long its statement or script may run.
 */
public record Limits(int rowLimit, Duration statementTimeout, Duration scriptTimeout) {
    public static final Limits DEFAULTS = new Limits(1000, Duration.ofSeconds(30), Duration.ofSeconds(5));
}
