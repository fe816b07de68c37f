package dev.hyperterse.cli;

import dev.hyperterse.model.ByteSizes;
import dev.hyperterse.model.HttpLimits;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.Redaction;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.server.ClusterOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code start --print-config}: the settings the server would run with, after every layer, as
 * YAML: first what an operator may set ({@code server}, {@code observability}, {@code cluster}, in
 * the form an operator file takes), then the project's own keys. Text values pass through
 * {@link Redaction}, so a secret written into one is masked, and the metrics token is never shown.
 *
 * <p>Every key is one row of {@link #OPERATOR} or {@link #PROJECT}; {@code EffectiveConfigTest}
 * fails for a key of the packaged defaults ({@code conf/hyperterse.yaml}) that has no row, so a
 * new setting cannot be left out.
 */
final class EffectiveConfig {
    private EffectiveConfig() {
    }

    /**
     * What the printed values are read from.
     *
     * @param project   the compiled project's settings (its {@code server} block is replaced by {@code server})
     * @param server    the server settings after {@code --host}
     * @param port      the port after {@code --port}, {@code server.port} and {@code $PORT}
     * @param logFormat the log format after {@code --log-format}
     * @param logLevel  the log level after {@code --log-level} and {@code --verbose}
     * @param cluster   the cluster settings after the {@code --cluster*} flags; null when this node runs alone
     */
    record Effective(ProjectConfig project, ServerSettings server, int port, String logFormat, int logLevel,
                     ClusterOptions cluster) {
    }

    /** One printed key: its dotted path and its value as YAML, or null to leave it out. */
    record Row(String key, Function<Effective, String> value) {
    }

    private static Row row(String key, Function<Effective, String> value) {
        return new Row(key, value);
    }

    /** The operator's keys, in the order of conf/hyperterse.yaml. */
    static final List<Row> OPERATOR = List.of(
            row("server.host", e -> text(e.server().network().host())),
            row("server.port", e -> String.valueOf(e.port())),
            row("server.log_level", e -> String.valueOf(e.logLevel())),
            row("server.cors_origins", e -> list(e.server().network().corsOrigins())),
            row("server.allowed_origins", e -> list(e.server().network().allowedOrigins())),
            row("server.allowed_hosts", e -> list(e.server().network().allowedHosts())),
            row("server.max_body_size", e -> size(e.server().limits().maxBodyBytes())),
            row("server.tool_errors", e -> e.server().toolErrors().name().toLowerCase(Locale.ROOT)),
            row("server.page_size", e -> String.valueOf(e.server().limits().pageSize())),
            row("server.progress_interval", e -> duration(e.server().timeouts().progressInterval())),
            row("server.search_output_schema", e -> String.valueOf(e.server().searchOutputSchema())),
            row("server.console", e -> String.valueOf(e.server().console())),
            row("server.sessions.idle_timeout", e -> duration(e.server().sessions().idleTimeout())),
            row("server.sessions.max", e -> String.valueOf(e.server().sessions().max())),
            row("server.sessions.per_client", e -> String.valueOf(e.server().sessions().perClient())),
            row("server.http.idle_timeout", e -> duration(http(e).idle())),
            row("server.http.header_timeout", e -> duration(http(e).headers())),
            row("server.http.body_timeout", e -> duration(http(e).body())),
            row("server.http.bodies_in_flight", e -> http(e).bodiesInFlight() == HttpLimits.AUTO_BODIES_IN_FLIGHT
                    ? "auto" : size(http(e).bodiesInFlight())),
            // a secret: whether one is set, never what it is
            row("server.metrics.token", e -> e.server().metricsToken() == null || e.server().metricsToken().isEmpty()
                    ? "\"\"" : "\"***\""),
            row("server.instances", e -> e.server().network().instances() == 0 ? "auto"
                    : String.valueOf(e.server().network().instances())),
            row("server.drain_period", e -> duration(e.server().timeouts().drainPeriod())),
            row("server.shutdown_timeout", e -> duration(e.server().timeouts().shutdownTimeout())),
            row("observability.tracing.enabled", e -> String.valueOf(e.project().observability().tracingEnabled())),
            row("observability.tracing.include_inputs",
                    e -> String.valueOf(e.project().observability().tracingIncludeInputs())),
            row("observability.metrics.enabled", e -> String.valueOf(e.project().observability().metricsEnabled())),
            row("observability.metrics.path", e -> text(e.project().observability().metricsPath())),
            row("observability.logs.format", Effective::logFormat),
            row("cluster.enabled", e -> String.valueOf(e.cluster() != null)),
            row("cluster.members", e -> e.cluster() == null ? null : list(e.cluster().members())),
            row("cluster.host", e -> e.cluster() == null ? null : text(e.cluster().host())),
            row("cluster.port", e -> e.cluster() == null ? null : String.valueOf(e.cluster().port())),
            row("cluster.name", e -> e.cluster() == null ? null : text(e.cluster().name())),
            row("cluster.multicast", e -> e.cluster() == null ? null : String.valueOf(e.cluster().multicast())),
            row("cluster.kubernetes_dns", e -> e.cluster() == null ? null
                    : e.cluster().kubernetesDns() == null ? "\"\"" : text(e.cluster().kubernetesDns())));

    /** The project's own keys (its .hyperterse over the packaged defaults), in the order of conf/hyperterse.yaml. */
    static final List<Row> PROJECT = List.of(
            row("name", e -> text(e.project().name())),
            row("version", e -> e.project().version() == null ? "null" : text(e.project().version())),
            row("root", e -> folder(folders(e).projectDir(), folders(e).rootDir())),
            row("adapters.directory", e -> folder(folders(e).rootDir(), folders(e).adaptersDir())),
            row("prompts.directory", e -> folder(folders(e).rootDir(), folders(e).promptsDir())),
            row("resources.directory", e -> folder(folders(e).rootDir(), folders(e).resourcesDir())),
            row("tools.directory", e -> folder(folders(e).rootDir(), folders(e).toolsDir())),
            row("tools.search.limit", e -> String.valueOf(e.project().searchLimit())),
            row("tools.search.ranking", e -> e.project().searchRanking().keyword()),
            row("tools.search.filter_by_auth", e -> String.valueOf(e.project().searchFiltersByAuth())),
            row("tools.search.statements", e -> String.valueOf(tools(e).search().statements())),
            row("tools.cache.enabled", e -> String.valueOf(tools(e).cache().enabled())),
            row("tools.cache.ttl", e -> String.valueOf(tools(e).cache().ttlSeconds())),
            row("tools.cache.max_size", e -> size(tools(e).cacheMaxBytes())),
            row("tools.row_limit", e -> String.valueOf(tools(e).limits().rowLimit())),
            row("tools.result_max_bytes", e -> size(tools(e).limits().resultMaxBytes())),
            row("tools.statement_timeout", e -> duration(tools(e).limits().statementTimeout())),
            row("tools.script_timeout", e -> duration(tools(e).limits().scriptTimeout())),
            row("tools.script_workers", e -> String.valueOf(e.project().scripts().workers())),
            row("tools.fetch.allow_hosts",
                    e -> list(e.project().scripts().fetchAllowHosts().stream().map(String::valueOf).toList())),
            row("tools.strict_handler_inputs", e -> String.valueOf(tools(e).strictHandlerInputs())),
            row("tools.exposure", e -> e.project().exposure().name().toLowerCase(Locale.ROOT)),
            row("tools.confirm_without_elicitation", e -> tools(e).access().runUnconfirmed() ? "run" : "refuse"),
            row("tools.execute_tool_header", e -> String.valueOf(tools(e).access().executeToolHeader())),
            row("tools.parse_json_strings", e -> String.valueOf(tools(e).access().parseJsonStrings())),
            row("tools.expose_script_errors", e -> String.valueOf(tools(e).exposeScriptErrors())),
            row("auth.plugin", e -> tools(e).defaultAuth() == null ? null : text(tools(e).defaultAuth().plugin())));

    static String render(Effective e, List<String> layers) {
        StringBuilder out = new StringBuilder();
        out.append("# effective settings; each layer over the one before: ")
                .append(Redaction.secrets(String.join(" < ", layers))).append('\n');
        rows(out, OPERATOR, e);
        out.append("# the project's own settings (its .hyperterse over the packaged defaults; an operator file "
                + "cannot set them)\n");
        rows(out, PROJECT, e);
        return out.toString();
    }

    /** The rows as nested YAML: a row's key opens the mappings its earlier rows have not. */
    private static void rows(StringBuilder out, List<Row> rows, Effective e) {
        List<String> open = List.of();
        for (Row row : rows) {
            String value = row.value().apply(e);
            if (value == null) {
                continue;
            }
            List<String> path = List.of(row.key().split("\\."));
            int shared = 0;
            while (shared < open.size() && shared < path.size() - 1 && open.get(shared).equals(path.get(shared))) {
                shared++;
            }
            for (int depth = shared; depth < path.size() - 1; depth++) {
                out.append("  ".repeat(depth)).append(path.get(depth)).append(":\n");
            }
            out.append("  ".repeat(path.size() - 1)).append(path.get(path.size() - 1)).append(": ").append(value)
                    .append('\n');
            open = path.subList(0, path.size() - 1);
        }
    }

    private static ProjectConfig.Folders folders(Effective e) {
        return e.project().folders();
    }

    private static ProjectConfig.Tools tools(Effective e) {
        return e.project().tools();
    }

    private static HttpLimits http(Effective e) {
        return e.server().limits().http() == null ? HttpLimits.DEFAULTS : e.server().limits().http();
    }

    /** A folder relative to the one it is written relative to; null when there is none. */
    private static String folder(Path base, Path dir) {
        if (dir == null) {
            return "null";
        }
        Path shown = base != null && dir.startsWith(base) ? base.relativize(dir) : dir;
        return text(shown.toString());
    }

    /** A JSON string, which YAML reads back as the same text. */
    private static String text(String value) {
        String masked = Redaction.secrets(value);
        return "\"" + masked.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String list(List<String> values) {
        return values.stream().map(EffectiveConfig::text).collect(Collectors.joining(", ", "[", "]"));
    }

    /** As the project files write durations: in the largest of h, m, s and ms that keeps it whole. */
    private static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms > 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms > 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** As the project files write sizes: mb or kb when whole, else a number of bytes. */
    private static String size(long bytes) {
        String shown = ByteSizes.show(bytes);
        return shown.endsWith(" bytes") ? String.valueOf(bytes) : shown;
    }
}
