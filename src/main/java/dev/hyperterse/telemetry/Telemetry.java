package dev.hyperterse.telemetry;

/**
 * What instrumented code is handed: spans and counters. Both may be the no-op kind, so code is
 * instrumented unconditionally and costs next to nothing when telemetry is off.
 */
public record Telemetry(Tracing tracing, Metrics metrics) {
    /** No spans, no counters. */
    public static final Telemetry NONE = new Telemetry(Tracing.OFF, Metrics.NONE);
}
