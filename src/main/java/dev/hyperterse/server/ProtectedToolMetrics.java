package dev.hyperterse.server;

import dev.hyperterse.model.ToolDef;
import dev.hyperterse.project.Project;
import dev.hyperterse.telemetry.ForwardingMetrics;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Telemetry;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The metrics of one project version when {@code server.metrics.token} is not set: the calls,
 * cache lookups and script calls of a tool with an auth block are counted under
 * {@value #PROTECTED} instead of its name. Without a token, whoever passes the metrics path's
 * Host check reads the metrics, and a tool's name in a label would tell a caller without
 * credentials which protected tools exist (which search and execute do not). With a token set,
 * every scrape presents it, and tools are counted by name.
 */
final class ProtectedToolMetrics extends ForwardingMetrics {
    /** The tool label of the tools this hides. */
    static final String PROTECTED = "(protected)";

    private final Set<String> hidden;

    private ProtectedToolMetrics(Metrics metrics, Set<String> hidden) {
        super(metrics);
        this.hidden = Set.copyOf(hidden);
    }

    /**
     * The telemetry a project version counts with: {@code telemetry} itself when tools may be
     * named (a token is set) or no tool has an auth block, else one that hides those tools' names.
     */
    static Telemetry of(Telemetry telemetry, Project project, boolean nameProtectedTools) {
        if (nameProtectedTools || telemetry.metrics() == Metrics.NONE) {
            return telemetry;
        }
        Set<String> hidden = new HashSet<>();
        // resource templates' and completions' statements count as tools under their own names
        for (ToolDef tool : project.allTools().values()) {
            if (tool.auth() != null) {
                hidden.add(tool.name());
            }
        }
        return hidden.isEmpty() ? telemetry
                : new Telemetry(telemetry.tracing(), new ProtectedToolMetrics(telemetry.metrics(), hidden));
    }

    private String label(String tool) {
        return hidden.contains(tool) ? PROTECTED : tool;
    }

    @Override
    public void toolCall(String tool, String outcome, long nanos) {
        metrics.toolCall(label(tool), outcome, nanos);
    }

    @Override
    public void cacheLookup(String tool, boolean hit) {
        metrics.cacheLookup(label(tool), hit);
    }

    @Override
    public void scriptCall(String tool, String outcome, long nanos) {
        metrics.scriptCall(label(tool), outcome, nanos);
    }

    /** A hidden tool's call is shown without its name, caller, inputs or error, as its counts are. */
    @Override
    public void callFinished(String tool, String caller, Supplier<String> inputs, String outcome, String error,
                             String cache, long nanos) {
        if (hidden.contains(tool)) {
            metrics.callFinished(PROTECTED, null, null, outcome, null, cache, nanos);
        } else {
            metrics.callFinished(tool, caller, inputs, outcome, error, cache, nanos);
        }
    }

}
