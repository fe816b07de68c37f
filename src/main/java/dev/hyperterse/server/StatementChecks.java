package dev.hyperterse.server;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.Project;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Connecting a project's adapters and preparing every statement against its database, shared by
 * {@code start} (where an adapter that cannot connect stops start-up, and a statement that does
 * not prepare makes its tool unavailable, or stops start-up with {@code --strict}) and
 * {@code validate --check-db} (where an adapter that cannot connect and a statement that does
 * not prepare are both errors).
 */
public final class StatementChecks {

    private StatementChecks() {
    }

    /** Every adapter's connect attempt, started in parallel, by adapter name. */
    public static Map<String, Future<Connector>> connectAll(Vertx vertx, Project project, Connectors registry) {
        return connectAll(vertx, project, registry, List.of());
    }

    /**
     * Like {@link #connectAll(Vertx, Project, Connectors)}, each adapter that can be split with
     * one pool per event loop of the listeners (see {@link LoopLocalConnector}).
     */
    static Map<String, Future<Connector>> connectAll(Vertx vertx, Project project, Connectors registry,
                                                     List<Loop> loops) {
        return startAll(project, registry, (factory, adapter) ->
                LoopLocalConnector.connect(vertx, factory, adapter, project.config().folders().projectDir(), loops));
    }

    /**
     * Every adapter's connection for checking statements only, changing nothing (see
     * {@link ConnectorFactory#connectToCheck}), started in parallel, by adapter name.
     */
    public static Map<String, Future<Connector>> connectAllToCheck(Vertx vertx, Project project, Connectors registry,
                                                                   java.util.function.Consumer<String> notes) {
        return startAll(project, registry, (factory, adapter) ->
                factory.connectToCheck(vertx, adapter, project.config().folders().projectDir(), notes));
    }

    private static Map<String, Future<Connector>> startAll(Project project, Connectors registry,
            java.util.function.BiFunction<ConnectorFactory, AdapterDef, Future<Connector>> connect) {
        Map<String, Future<Connector>> pending = new LinkedHashMap<>();
        for (AdapterDef adapter : project.adapters().values()) {
            Future<Connector> f;
            try {
                f = connect.apply(registry.get(adapter.connector()), adapter);
            } catch (RuntimeException e) {
                f = Future.failedFuture(e);
            }
            pending.put(adapter.name(), f);
        }
        return pending;
    }

    /**
     * What preparing a project's statements found: the statements that do not prepare, and the
     * result columns of those that did, as far as their databases describe them.
     *
     * @param unprepared by tool name (a derived tool's too), the statement that does not prepare: at
     *                   its line, the owner, the adapter and the database's reason
     * @param reasons    by tool name, the database's reason alone (no file, no line), for its callers
     * @param described  result columns by tool name; a tool whose rows could not be described is absent
     */
    public record Outcome(Map<String, ConfigProblem> unprepared, Map<String, String> reasons,
                          Map<String, ResultColumns> described) {
        public Outcome {
            unprepared = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(unprepared));
            reasons = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(reasons));
        }

        /** One problem per statement that does not prepare, sorted by file and line. */
        public List<ConfigProblem> problems() {
            List<ConfigProblem> sorted = new ArrayList<>(unprepared.values());
            Collections.sort(sorted);
            return sorted;
        }
    }

    /**
     * Prepares each database tool's statement on its live adapter (tools on adapters missing from
     * {@code live} are skipped), in parallel, and describes the result columns of the project's
     * own tools (a derived tool's rows feed a resource or a completion, which has no output
     * schema). A description that fails is no problem: the tool only goes without one.
     */
    public static Future<Outcome> check(Project project, Map<String, CompiledStatement> statements,
                                        Map<String, Connector> live) {
        // keyed by name: a tool's record would be hashed whole, nested records and all
        Map<String, Future<ResultColumns>> checks = new LinkedHashMap<>();
        Map<String, ToolDef> tools = project.allTools();
        statements.forEach((toolName, statement) -> {
            ToolDef tool = tools.get(toolName);
            Connector connector = live.get(tool.use());
            if (connector != null) {
                Future<ResultColumns> check;
                try {
                    check = project.tools().containsKey(toolName) ? connector.describe(statement)
                            : connector.check(statement).map((ResultColumns) null);
                } catch (RuntimeException e) {
                    check = Future.failedFuture(e);
                }
                checks.put(toolName, check);
            }
        });
        return Future.join(new ArrayList<>(checks.values())).transform(ignored -> {
            Map<String, ConfigProblem> unprepared = new LinkedHashMap<>();
            Map<String, String> reasons = new LinkedHashMap<>();
            Map<String, ResultColumns> described = new LinkedHashMap<>();
            checks.forEach((toolName, f) -> {
                ToolDef tool = tools.get(toolName);
                if (f.failed()) {
                    String reason = "the statement does not prepare on adapter '" + tool.use() + "': "
                            + f.cause().getMessage();
                    unprepared.put(tool.name(), new ConfigProblem(tool.statementLocation(),
                            ToolAssembly.owner(tool) + ": " + reason));
                    reasons.put(tool.name(), reason);
                } else if (f.result() != null) {
                    described.put(tool.name(), f.result());
                }
            });
            return Future.succeededFuture(new Outcome(unprepared, reasons, described));
        });
    }
}
