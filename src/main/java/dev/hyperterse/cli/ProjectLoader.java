package dev.hyperterse.cli;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.OperatorLayer;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.project.ProjectException;
import dev.hyperterse.script.ScriptDiskCache;
import dev.hyperterse.script.ScriptEngine;
import dev.hyperterse.script.TypeScriptStripper;
import dev.hyperterse.server.CacheFolders;
import dev.hyperterse.server.ToolAssembly;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Compiles a project with this server's connectors and auth plugins, loads its scripts once,
 * and prints problems. Owns the script engine it started, if any (see {@link #scriptEngine()}).
 */
final class ProjectLoader implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ProjectLoader.class);
    final Connectors connectors = Connectors.builtIn();
    final AuthPlugins authPlugins = AuthPlugins.builtIn();
    private final TypeScriptStripper.Choice typescript;
    /** One compiler (immutable) for every compile and setting read: the packaged defaults are parsed once. */
    private final ProjectCompiler compiler;
    private ScriptEngine scriptEngine;

    /**
     * @param operator   the operator's settings, merged under each compiled project's own
     * @param typescript which stripper the script engine uses for TypeScript
     */
    ProjectLoader(OperatorLayer operator, TypeScriptStripper.Choice typescript) {
        this.typescript = typescript;
        this.compiler = new ProjectCompiler(System.getenv(), connectors.types(), authPlugins.names())
                .withAdapterCheck(connectors.adapterCheck()).withOperatorLayer(operator);
    }

    /** Compiles and assembles offline; prints every problem and returns null when there are any. */
    Project load(Path path, PrintWriter err) {
        return load(path, err, false);
    }

    /**
     * @param missingVariablesAreWarnings report variables that are not set as warnings (for
     *                                    {@code validate}); the project is then for checking only
     */
    Project load(Path path, PrintWriter err, boolean missingVariablesAreWarnings) {
        try {
            return compile(path, missingVariablesAreWarnings);
        } catch (ProjectException e) {
            print(e, err);
            return null;
        }
    }

    /**
     * Compiles and assembles offline like {@link #load}, throwing instead of printing: for a
     * reload, which logs the problems and keeps the running version. When the configuration has
     * errors, the scripts that could be located are still loaded, so their syntax errors are
     * reported in the same run instead of after the configuration is fixed.
     */
    Project compile(Path path) throws ProjectException {
        return compile(path, false);
    }

    /** @param missingVariablesAreWarnings see {@link #load(Path, PrintWriter, boolean)} */
    Project compile(Path path, boolean missingVariablesAreWarnings) throws ProjectException {
        ProjectCompiler compiler = compiler();
        Project project;
        try {
            project = (missingVariablesAreWarnings ? compiler.withMissingVariablesAsWarnings() : compiler)
                    .compile(path);
        } catch (ProjectException e) {
            throw withScriptProblems(e);
        }
        ToolAssembly.of(project, connectors, authPlugins, ToolAssembly.scripts(project).isEmpty() ? null : engine());
        return project;
    }

    /**
     * For {@code start}: compiles and assembles offline like {@link #load}, but leaves the scripts
     * to {@link #checkScripts}, so that printing the settings or reporting a configuration error
     * never waits for the script engine. Prints every problem and returns null when there are any.
     */
    Project loadWithoutScripts(Path path, PrintWriter err) {
        try {
            Project project = compiler().compile(path);
            ToolAssembly.of(project, connectors, authPlugins, null);
            return project;
        } catch (ProjectException e) {
            print(e, err);
            return null;
        }
    }

    /**
     * Starts the script engine and checks the project's scripts (in parallel, each unchanged one
     * from the disk cache) on a thread of its own; completes with the problems found, none when
     * the project has no scripts. While it runs, the caller may set up everything else.
     */
    java.util.concurrent.CompletableFuture<List<ConfigProblem>> checkScripts(Project project) {
        if (ToolAssembly.scripts(project).isEmpty()) {
            return java.util.concurrent.CompletableFuture.completedFuture(List.of());
        }
        java.util.concurrent.CompletableFuture<List<ConfigProblem>> done = new java.util.concurrent.CompletableFuture<>();
        Thread checking = new Thread(() -> {
            try {
                done.complete(ToolAssembly.checkScripts(project, engine()));
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        }, "hyperterse-script-checks");
        checking.setDaemon(true);
        checking.start();
        return done;
    }

    /** The shared script engine, started on first use, with the disk cache of prepared scripts. */
    private synchronized ScriptEngine engine() {
        if (scriptEngine == null) {
            scriptEngine = ScriptEngine.create(typescript, new ScriptDiskCache(CacheFolders.scripts()));
        }
        return scriptEngine;
    }

    private ProjectCompiler compiler() {
        return compiler;
    }

    /**
     * One root setting as written (project over operator over defaults), read without compiling
     * or logging: see {@link ProjectCompiler#writtenRootSetting}.
     */
    String writtenSetting(Path path, String... key) {
        return compiler().writtenRootSetting(path, key);
    }

    private ProjectException withScriptProblems(ProjectException e) {
        Project partial = e.partial().orElse(null);
        if (partial == null || ToolAssembly.scripts(partial).isEmpty()) {
            return e;
        }
        List<ConfigProblem> scriptProblems;
        try {
            scriptProblems = ToolAssembly.checkScripts(partial, engine());
        } catch (RuntimeException unexpected) {
            // the partial project is unchecked; its configuration errors are what matter then
            LOG.debug("loading the scripts of a project with configuration errors failed", unexpected);
            return e;
        }
        if (scriptProblems.isEmpty()) {
            return e;
        }
        List<ConfigProblem> all = new ArrayList<>(e.problems());
        all.addAll(scriptProblems);
        Collections.sort(all);
        return new ProjectException(all);
    }

    /**
     * The engine to check and serve {@code project}'s scripts with (GraalJS starts on first use);
     * null when it has none.
     */
    synchronized ScriptEngine scriptEngineFor(Project project) {
        return ToolAssembly.scripts(project).isEmpty() ? null : engine();
    }

    /** The engine scripts were checked with, to serve them with; null when the project has none. */
    synchronized ScriptEngine scriptEngine() {
        return scriptEngine;
    }

    @Override
    public synchronized void close() {
        if (scriptEngine != null) {
            scriptEngine.close();
        }
    }

    static void print(ProjectException e, PrintWriter err) {
        int n = e.problems().size();
        err.println(n + (n == 1 ? " configuration error:" : " configuration errors:"));
        for (ConfigProblem p : e.problems()) {
            err.println("  " + p);
        }
        err.flush();
    }
}
