package dev.hyperterse.cli;

import dev.hyperterse.model.Counted;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.OperatorLayer;
import dev.hyperterse.project.Project;
import dev.hyperterse.script.TypeScriptStripper;
import dev.hyperterse.project.ProjectException;
import dev.hyperterse.server.StatementChecks;
import dev.hyperterse.server.ToolAssembly;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check a project without serving it, and print every problem as file:line: message.",
                "Exit status 0 when the project is valid, 1 otherwise. Nothing is created or changed: "
                        + "not even a SQLite database file that start would create."})
final class ValidateCommand implements Callable<Integer> {

    @Mixin
    ProjectLocation location;

    @Mixin
    TypeScriptFlag typescript;

    @Option(names = "--check-db", description = "Also connect to each adapter's database and prepare every "
            + "statement, reporting syntax errors and unknown tables or columns. An adapter that cannot connect "
            + "is an error (its statements could not be checked), naming the adapter and why.")
    boolean checkDb;

    @Option(names = "--strict-env", description = "Report an environment variable that is not set as an error "
            + "(as start does). Without it such a variable is a warning, so a project can be validated without the "
            + "deployment's secrets, e.g. in CI.")
    boolean strictEnv;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Operator settings to check with the project, as start reads them (server, "
                    + "observability, cluster). Default: conf/hyperterse.yaml beside the jar, if it exists; "
                    + "HYPERTERSE_* variables and hyperterse.* properties are read too.")
    Path config;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Logging.setLevel(2);
        PrintWriter err = spec.commandLine().getErr();
        TypeScriptStripper.Choice stripper = typescript.choiceOrExplain(err);
        if (stripper == null) {
            return 2;
        }
        OperatorLayer operator = OperatorConfig.layer(config, Main.jarFile(), err);
        if (operator == null) {
            return OperatorConfig.failedStatus(config);
        }
        operator.logWarnings();
        try (ProjectLoader loader = new ProjectLoader(operator, stripper)) {
            Project project = loader.load(location.resolve(), err, !strictEnv);
            if (project == null) {
                return 1;
            }
            if (checkDb && !checkDatabases(loader, project, err)) {
                return 1;
            }
            undescribedTools(project).forEach(problem -> err.println("warning: " + problem));
            err.flush();
            spec.commandLine().getOut().printf("project '%s' is valid: %s, %s%s%s%n",
                    project.config().name(), Counted.of(project.tools().size(), "tool"),
                    Counted.of(project.adapters().size(), "adapter"),
                    project.prompts().isEmpty() && project.resources().isEmpty() ? ""
                            : ", " + Counted.of(project.prompts().size(), "prompt") + ", "
                                    + Counted.of(project.resources().size(), "resource"),
                    checkDb ? " (statements checked against the databases)" : "");
        }
        return 0;
    }

    /**
     * Tools whose author wrote no description, at their files: search can rank such a tool by its
     * name and inputs alone, and an agent reading the hits learns nothing about it.
     */
    static List<ConfigProblem> undescribedTools(Project project) {
        List<ConfigProblem> out = new ArrayList<>();
        for (var tool : project.tools().values()) {
            if (tool.describedByNoOne()) {
                // the tool file's first line when its name is not written in it (the folder names the tool)
                SourceLocation at = new SourceLocation(tool.location().file(), Math.max(1, tool.location().line()));
                out.add(new ConfigProblem(at, "tool '" + tool.name() + "' has no description: search"
                        + " ranks it by its name and inputs alone; say what it does, and add 'examples:' of how an"
                        + " agent would ask for it"));
            }
        }
        out.sort(null);
        return out;
    }

    /** An adapter that could not connect, at its file and line: which connector, why, and what went unchecked. */
    static ConfigProblem unreachable(Project project, String name, Throwable failure) {
        AdapterDef adapter = project.adapters().get(name);
        long statements = project.allTools().values().stream()
                .filter(t -> name.equals(t.use()) && t.statement() != null).count();
        return new ConfigProblem(adapter.location(), "adapter '" + name + "' (" + adapter.connector()
                + ") cannot connect, so " + (statements == 0 ? "it was not checked"
                : Counted.of(statements, "statement") + " on it went unchecked") + ": "
                + ConnectorException.reasonWithoutAdapter(name, failure));
    }

    /**
     * Prints an error for each adapter that cannot connect and each statement that does not
     * prepare. An adapter that cannot connect fails the check: its statements went unchecked, and
     * a check asked for and not done must not pass (a CI job would go green on a typo in a host name).
     */
    private static boolean checkDatabases(ProjectLoader loader, Project project, PrintWriter err) {
        ToolAssembly assembly;
        try {
            assembly = ToolAssembly.of(project, loader.connectors, loader.authPlugins, loader.scriptEngine());
        } catch (ProjectException e) {
            ProjectLoader.print(e, err);
            return false;
        }
        Vertx vertx = Vertx.vertx();
        Map<String, Connector> live = new LinkedHashMap<>();
        try {
            List<String> notes = java.util.Collections.synchronizedList(new ArrayList<>());
            Map<String, Future<Connector>> pending = StatementChecks.connectAllToCheck(vertx, project,
                    loader.connectors, notes::add);
            Future.join(new ArrayList<>(pending.values())).toCompletionStage().toCompletableFuture()
                    .handle((x, e) -> null).get(2, TimeUnit.MINUTES);
            synchronized (notes) {
                notes.forEach(note -> err.println("note: " + note));
            }
            List<ConfigProblem> problems = new ArrayList<>();
            pending.forEach((name, f) -> {
                if (f.succeeded()) {
                    live.put(name, f.result());
                } else {
                    problems.add(unreachable(project, name, f.cause()));
                }
            });
            problems.addAll(StatementChecks.check(project, assembly.statements(), live)
                    .map(StatementChecks.Outcome::problems)
                    .toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES));
            java.util.Collections.sort(problems);
            if (!problems.isEmpty()) {
                ProjectLoader.print(new ProjectException(problems), err);
                return false;
            }
            return true;
        } catch (Exception e) {
            err.println("checking the databases failed: " + e);
            return false;
        } finally {
            List<Future<Void>> closing = new ArrayList<>();
            live.values().forEach(c -> closing.add(c.close()));
            try {
                Future.join(closing).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
                vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                err.println("closing the connections failed: " + e);
            }
            err.flush();
        }
    }
}
