package dev.hyperterse.model;

/**
 * The root {@code observability:} block after defaults were applied. Exporter details (endpoint,
 * protocol, headers, sampler, resource attributes) come from the standard {@code OTEL_*}
 * environment variables, not from here.
 *
 * @param tracingEnabled       {@code tracing.enabled}: export OpenTelemetry spans (default false)
 * @param tracingIncludeInputs {@code tracing.include_inputs}: put a call's inputs on its span,
 *                             with sensitive-looking values redacted (default false)
 * @param metricsEnabled       {@code metrics.enabled}: serve Prometheus metrics (default true)
 * @param metricsPath          {@code metrics.path}: where they are served (default {@code /metrics})
 * @param logFormat            {@code logs.format}: {@code text} for terminals, {@code json} for one
 *                             JSON object per line (default text; {@code --log-format} wins)
 */
public record ObservabilitySettings(boolean tracingEnabled, boolean tracingIncludeInputs, boolean metricsEnabled,
                                    String metricsPath, String logFormat) {
    public static final ObservabilitySettings DEFAULTS = new ObservabilitySettings(false, false, true, "/metrics", "text");

    public ObservabilitySettings withTracing(boolean enabled, boolean includeInputs) {
        return new ObservabilitySettings(enabled, includeInputs, metricsEnabled, metricsPath, logFormat);
    }

    public ObservabilitySettings withMetrics(boolean enabled, String path) {
        return new ObservabilitySettings(tracingEnabled, tracingIncludeInputs, enabled, path, logFormat);
    }
}
