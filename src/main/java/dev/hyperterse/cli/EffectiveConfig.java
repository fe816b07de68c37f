package dev.hyperterse.cli;

import dev.hyperterse.model.ObservabilitySettings;
import dev.hyperterse.model.Redaction;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.server.ClusterOptions;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code start --print-config}: the settings the server would run with, after every layer, as the
 * YAML an operator file takes. Text values pass through {@link Redaction}, so a secret written
 * into one is masked.
 */
final class EffectiveConfig {
    private EffectiveConfig() {
    }

    static String render(ServerSettings s, int port, ObservabilitySettings o, String logFormat, int logLevel,
                         ClusterOptions cluster, List<String> layers) {
        StringBuilder out = new StringBuilder();
        out.append("# effective settings; each layer over the one before: ")
                .append(Redaction.secrets(String.join(" < ", layers))).append('\n');
        out.append("server:\n");
        line(out, 1, "host", text(s.host()));
        line(out, 1, "port", String.valueOf(port));
        line(out, 1, "log_level", String.valueOf(logLevel));
        line(out, 1, "cors_origins", list(s.corsOrigins()));
        line(out, 1, "allowed_origins", list(s.allowedOrigins()));
        line(out, 1, "allowed_hosts", list(s.allowedHosts()));
        line(out, 1, "max_body_size", String.valueOf(s.maxBodyBytes()));
        line(out, 1, "tool_errors", s.toolErrors().name().toLowerCase(Locale.ROOT));
        line(out, 1, "page_size", String.valueOf(s.pageSize()));
        line(out, 1, "progress_interval", duration(s.progressInterval()));
        line(out, 1, "search_output_schema", String.valueOf(s.searchOutputSchema()));
        out.append("  sessions:\n");
        line(out, 2, "idle_timeout", duration(s.sessionIdleTimeout()));
        line(out, 2, "max", String.valueOf(s.maxSessions()));
        line(out, 1, "shutdown_timeout", duration(s.shutdownTimeout()));
        line(out, 1, "instances", s.instances() == 0 ? "auto" : String.valueOf(s.instances()));
        out.append("observability:\n  tracing:\n");
        line(out, 2, "enabled", String.valueOf(o.tracingEnabled()));
        line(out, 2, "include_inputs", String.valueOf(o.tracingIncludeInputs()));
        out.append("  metrics:\n");
        line(out, 2, "enabled", String.valueOf(o.metricsEnabled()));
        line(out, 2, "path", text(o.metricsPath()));
        out.append("  logs:\n");
        line(out, 2, "format", logFormat);
        out.append("cluster:\n");
        line(out, 1, "enabled", String.valueOf(cluster != null));
        if (cluster != null) {
            line(out, 1, "members", list(cluster.members()));
            line(out, 1, "host", text(cluster.host()));
            line(out, 1, "port", String.valueOf(cluster.port()));
            line(out, 1, "name", text(cluster.name()));
            line(out, 1, "multicast", String.valueOf(cluster.multicast()));
        }
        return out.toString();
    }

    private static void line(StringBuilder out, int depth, String key, String value) {
        out.append("  ".repeat(depth)).append(key).append(": ").append(value).append('\n');
    }

    /** A JSON string, which YAML reads back as the same text. */
    private static String text(String value) {
        String masked = Redaction.secrets(value);
        return "\"" + masked.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String list(List<String> values) {
        return values.stream().map(EffectiveConfig::text).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String duration(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
