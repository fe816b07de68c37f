package dev.hyperterse.server;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.auth.ScriptAuthCheck;
import dev.hyperterse.auth.ScriptAuthPlugin;
import dev.hyperterse.cache.CacheStats;
import dev.hyperterse.cache.CaffeineResultCache;
import dev.hyperterse.cache.ResultCache;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.mcp.McpBackend;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.pipeline.Pipeline;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.DisplayPaths;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectException;
import dev.hyperterse.script.FetchRules;
import dev.hyperterse.script.ScriptAccess;
import dev.hyperterse.script.ScriptDiskCache;
import dev.hyperterse.script.ScriptEngine;
import dev.hyperterse.script.TypeScriptStripper;
import dev.hyperterse.script.ScriptLoadException;
import dev.hyperterse.script.ScriptRuntime;
import dev.hyperterse.search.IndexBuild;
import dev.hyperterse.search.RankFusion;
import dev.hyperterse.search.SearchIndex;
import dev.hyperterse.telemetry.Telemetry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One project, connected and ready to serve: its live connectors, pipeline and search index.
 * Built completely before it serves a call (but for the search index, which is built once it
 * serves, see {@link #startIndexing()}), closed as a whole.
 */
public final class Snapshot {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Snapshot.class);
    private final Project project;
    private final Map<String, Connector> connectors;
    private final Vertx vertx;
    private final ToolAssembly assembly;
    private final ResultCache cache;
    private final Scripts scripts;
    private final McpBackend backend;
    private final List<ConfigProblem> unprepared;
    private final InFlight calls = new InFlight();

    private Snapshot(Vertx vertx, Project project, Map<String, Connector> connectors, ToolAssembly assembly,
                     ResultCache cache, Scripts scripts, McpBackend backend, List<ConfigProblem> unprepared) {
        this.vertx = vertx;
        this.scripts = scripts;
        this.project = project;
        this.connectors = connectors;
        this.assembly = assembly;
        this.cache = cache;
        this.backend = backend;
        this.unprepared = List.copyOf(unprepared);
    }

    /**
     * The statements that did not prepare when this snapshot was opened (their tools serve an
     * error), sorted by file and line; empty when every one did.
     */
    public List<ConfigProblem> unprepared() {
        return unprepared;
    }

    /** Live connectors by adapter name (each counted and traced). */
    public Map<String, Connector> connectors() {
        return connectors;
    }

    /** The result cache's counters, or null when no tool caches. */
    public CacheStats cacheStats() {
        return cache instanceof CaffeineResultCache ? ((CaffeineResultCache) cache).stats() : null;
    }

    /** The calls running on this snapshot; it is closed only once they are done (or a deadline passed). */
    InFlight calls() {
        return calls;
    }

    /** This node's result cache (invalidations from other nodes are applied to it). */
    public ResultCache cache() {
        return cache;
    }

    /** The root auth block's check (a token-based one guards the whole endpoint), or null. */
    public dev.hyperterse.auth.AuthCheck rootAuth() {
        return assembly.rootAuth();
    }

    public Project project() {
        return project;
    }

    public McpBackend backend() {
        return backend;
    }

    /** Starts building the search index on a worker, unless a search has already. */
    public void startIndexing() {
        backend.searchIndex().start();
    }

    /** Whether this snapshot's search index has been asked for (by tools/list, a search or {@link #startIndexing}). */
    public boolean indexingStarted() {
        return backend.searchIndex().started();
    }

    /**
     * Connects every adapter in parallel (while the statements compile and the scripts load),
     * checks every statement against its database, and assembles the pipeline. Fails with a
     * {@link StartupException} listing every reason; a statement that does not prepare is no
     * reason, as in Hyperterse: its tool answers an error saying so (see {@link #unprepared()}).
     */
    public static Future<Snapshot> open(Vertx vertx, Project project, Connectors registry, AuthPlugins authPlugins) {
        return open(vertx, project, registry, authPlugins, Telemetry.NONE, java.util.function.UnaryOperator.identity(),
                null, () -> -1, List.of(), false, false);
    }

    /**
     * Like {@link #open(Vertx, Project, Connectors, AuthPlugins)}, counting and tracing calls and
     * connectors.
     *
     * @param cacheForPipeline wraps this node's cache for the pipeline (e.g. to publish
     *                         invalidations to the cluster)
     * @param serverPort       the port the server listens on, once it does (0 or less before): scripts
     *                         may not fetch from it
     * @param loops            the listeners' event loops: adapters that can are given a pool on each
     *                         (empty: one pool per adapter)
     * @param strictStatements a statement that does not prepare fails the open ({@code start --strict})
     *                         instead of making its tool unavailable
     * @param scriptsLater     open without loading the scripts ({@link #warmUpScripts()} begins it once
     *                         the server serves; a call to a script loads it, or waits for its load under
     *                         way; see {@link #scriptsReady()}): for a project whose
     *                         scripts were checked already, so that a warm-up failing is unexpected.
     *                         Otherwise a script that does not load fails the open, naming it
     */
    static Future<Snapshot> open(Vertx vertx, Project project, Connectors registry, AuthPlugins authPlugins,
                                 Telemetry telemetry, java.util.function.UnaryOperator<ResultCache> cacheForPipeline,
                                 ScriptEngine engine, java.util.function.IntSupplier serverPort, List<Loop> loops,
                                 boolean strictStatements, boolean scriptsLater) {
        // indexing needs only the tools, and only search needs the index: it is built on a worker
        // at a client's first tools/list or search (or startIndexing, which a reload calls when the
        // version it replaces was searched); the hybrid ranking's first index loads Lucene (about
        // half a second, and some 4 MB of class metadata), the static ranking its table and
        // vocabulary (12 MB of heap)
        IndexBuild indexing = new IndexBuild(() -> {
            Future<SearchIndex> built = vertx.executeBlocking(() -> new SearchIndex(project.tools().values(),
                    project.config().searchLimit(), project.config().searchRanking(), RankFusion.DEFAULT), false);
            SearchRanking ranking = project.config().searchRanking();
            String noModels = ranking == SearchRanking.STATIC && !project.config().tools().search().rankingWritten()
                    ? dev.hyperterse.search.TextEmbedder.bundledMissing() : null;
            if (noModels != null) {
                SemanticSearch.noteOnce("search: ranking as static; the semantic ranking, the default, needs "
                        + noModels + " ('tools.search.ranking: static' chooses static)");
            }
            if (ranking == SearchRanking.STATIC || ranking == SearchRanking.SEMANTIC) {
                // the static table is read in a fraction of a second: the index is ready with its
                // vectors, so the first search ranks as every later one (without them, when the
                // table cannot be read: lexically, logged)
                built = built.compose(index -> SemanticSearch.embedToolsStatically(vertx, index)
                        .map(index).otherwise(index));
            }
            if (ranking == SearchRanking.SEMANTIC) {
                // the model's vectors take seconds on a cold cache: the static ranking serves until
                // they are ready (and on, should the model not run here); nothing waits for them
                built.onSuccess(index -> SemanticSearch.embedTools(vertx, index));
            }
            return built.onFailure(e -> LOG.error("search: the tool index could not be built: {}", e.toString()));
        });
        // connecting needs only the adapters: every adapter starts now, while the statements
        // compile and the scripts load
        Map<String, Future<Connector>> pending = StatementChecks.connectAll(vertx, project, registry, loops);
        pending.replaceAll((name, connecting) -> connecting.map(
                c -> (Connector) new InstrumentedConnector(c, project.adapters().get(name).connector(), telemetry)));
        // scripts are loaded by the runtime's warm-up below, on its workers (checked before, by
        // start, when the open does not wait for it)
        return vertx.executeBlocking(() -> ToolAssembly.of(project, registry, authPlugins, null), false)
                .recover(e -> Future.failedFuture(e instanceof ProjectException
                        ? new StartupException(((ProjectException) e).problems().stream()
                                .map(ConfigProblem::toString).toList())
                        : e))
                .compose(assembly -> startScripts(vertx, project, engine, telemetry, serverPort, scriptsLater)
                        .compose(scripts -> connect(vertx, project, assembly, scripts, telemetry,
                                        cacheForPipeline, indexing, pending, strictStatements)
                                .recover(e -> scripts.close(vertx).transform(x -> Future.failedFuture(e))),
                                e -> abandon(pending, e)),
                        e -> abandon(pending, e));
    }

    /**
     * Fails with {@code failure} at once, closing each connection started for nothing as it
     * completes (a start that failed before connecting does not wait for its databases).
     */
    private static Future<Snapshot> abandon(Map<String, Future<Connector>> pending, Throwable failure) {
        pending.values().forEach(connecting -> connecting.onSuccess(Connector::close));
        return Future.failedFuture(failure);
    }

    private static Future<Snapshot> connect(Vertx vertx, Project project, ToolAssembly assembly,
                                            Scripts scripts, Telemetry telemetry,
                                            java.util.function.UnaryOperator<ResultCache> cacheForPipeline,
                                            IndexBuild indexing, Map<String, Future<Connector>> pending,
                                            boolean strictStatements) {
        List<Future<Void>> starting = new ArrayList<>();
        for (dev.hyperterse.auth.AuthCheck check : assembly.distinctAuthChecks()) {
            if (check instanceof ScriptAuthCheck) {
                // an auth script runs like a tool's scripts, with the default tool-call time limit
                ((ScriptAuthCheck) check).bind(scripts.runtime()::call, project.config().tools().limits().scriptTimeout());
            }
            starting.add(check.start(vertx));
        }
        List<Future<?>> all = new ArrayList<>(pending.values());
        all.addAll(starting);
        return Future.join(all).transform(ignored -> {
            Map<String, Connector> live = new LinkedHashMap<>();
            List<String> reasons = new ArrayList<>();
            pending.forEach((name, f) -> {
                if (f.succeeded()) {
                    live.put(name, f.result());
                } else {
                    AdapterDef a = project.adapters().get(name);
                    reasons.add(a.location() + ": adapter '" + name + "' (" + a.connector() + ") could not connect: "
                            + ConnectorException.reasonWithoutAdapter(name, f.cause()));
                }
            });
            for (Future<Void> f : starting) {
                if (f.failed()) {
                    reasons.add("auth could not start: " + f.cause().getMessage());
                }
            }
            if (!reasons.isEmpty()) {
                return closeAll(live, assembly).transform(x -> Future.failedFuture(new StartupException(reasons)));
            }
            return StatementChecks.check(project, assembly.statements(), live)
                    .transform(ar -> {
                        if (ar.failed() || strictStatements && !ar.result().unprepared().isEmpty()) {
                            Throwable cause = ar.failed() ? ar.cause() : new StartupException(
                                    ar.result().problems().stream().map(ConfigProblem::toString).toList());
                            return closeAll(live, assembly).transform(x -> Future.<Snapshot>failedFuture(cause));
                        }
                        StatementChecks.Outcome checked = ar.result();
                        for (ConfigProblem p : checked.problems()) {
                            LOG.warn("{} (its callers get an error saying so; the other tools serve; start --strict"
                                    + " refuses such a project)", p);
                        }
                        return vertx.executeBlocking(() -> {
                            ResultCache cache = usesCache(project)
                                    ? new CaffeineResultCache(vertx, project.config().tools().cacheMaxBytes())
                                    : ResultCache.NONE;
                            Pipeline pipeline = new Pipeline(project.tools(), project.derivedTools(), assembly.statements(), live,
                                    assembly.authChecks(), cacheForPipeline.apply(cache), scripts.runtime(), telemetry,
                                    checked.described(), unavailable(project, checked));
                            String version = project.config().version() == null ? "0.0.0" : project.config().version();
                            McpBackend backend = new McpBackend(project.config().name(), version, pipeline, indexing,
                                    project.config().tools().search(), project.prompts(), project.resources(),
                                    project.config().tools().access(), project.config().tools().limits().resultMaxBytes());
                            return new Snapshot(vertx, project, live, assembly, cache, scripts, backend,
                                    checked.problems());
                        }, false).recover(e -> closeAll(live, assembly).transform(x -> Future.<Snapshot>failedFuture(e)));
                    });
        });
    }

    /**
     * What the callers of each tool whose statement did not prepare are told: the owner and the
     * database's reason, never the file it is defined in.
     */
    private static Map<String, String> unavailable(Project project, StatementChecks.Outcome checked) {
        Map<String, String> messages = new LinkedHashMap<>();
        Map<String, ToolDef> tools = project.allTools();
        checked.reasons().forEach((name, reason) -> messages.put(name, ToolAssembly.owner(tools.get(name))
                + " is unavailable: " + reason + " (found when the server loaded the project)"));
        return messages;
    }

    private static boolean usesCache(Project project) {
        return project.allTools().values().stream().anyMatch(t -> t.cache().active());
    }

    private static Future<Void> closeAll(Map<String, Connector> live, ToolAssembly assembly) {
        List<Future<Void>> closing = new ArrayList<>();
        live.values().forEach(c -> closing.add(c.close()));
        assembly.distinctAuthChecks().forEach(c -> closing.add(c.close()));
        return Future.join(closing).mapEmpty();
    }

    public Future<Void> close() {
        return closeAll(connectors, assembly).transform(x -> scripts.close(vertx));
    }

    /**
     * Completes once every script this snapshot serves has been loaded and warmed (at once when it
     * has none, or when it was opened waiting for them); fails when one could not be (its calls
     * then load it themselves and answer the reason).
     */
    public Future<Void> scriptsReady() {
        return scripts.runtime() == null ? Future.succeededFuture() : scripts.runtime().ready();
    }

    /**
     * Begins loading this snapshot's scripts, when it was opened without waiting for them (a call
     * that comes first loads its own script); does nothing otherwise, or the second time.
     */
    public void warmUpScripts() {
        if (scripts.runtime() != null) {
            scripts.runtime().warmUp();
        }
    }

    /**
     * Where this snapshot's scripts are: {@code loading} (their calls wait), {@code ready}, or
     * {@code failed} (one could not be loaded: its calls load it themselves and answer the reason);
     * null when it has none.
     */
    public String scriptsStatus() {
        if (scripts.runtime() == null) {
            return null;
        }
        Future<Void> ready = scripts.runtime().ready();
        return !ready.isComplete() ? "loading" : ready.succeeded() ? "ready" : "failed";
    }

    /**
     * The scripts a project uses, loaded and warmed, or (with {@code later}) set up with their
     * warm-ups running on; an empty holder when it has none.
     */
    private static Future<Scripts> startScripts(Vertx vertx, Project project, ScriptEngine shared,
                                                Telemetry telemetry, java.util.function.IntSupplier serverPort,
                                                boolean later) {
        Map<ScriptRef, String> used = ToolAssembly.scripts(project);
        if (used.isEmpty()) {
            return Future.succeededFuture(new Scripts(null, null));
        }
        Future<ScriptEngine> engine = shared != null ? Future.succeededFuture(shared)
                : vertx.executeBlocking(() -> ScriptEngine.create(TypeScriptStripper.Choice.fromProcess(),
                        new ScriptDiskCache(CacheFolders.scripts())), false);
        return engine.compose(e -> {
            ScriptEngine own = shared == null ? e : null;
            Duration longest = project.config().tools().limits().scriptTimeout();
            for (ToolDef tool : project.tools().values()) {
                if (tool.limits().scriptTimeout().compareTo(longest) > 0) {
                    longest = tool.limits().scriptTimeout();
                }
            }
            Duration longestTimeout = longest;
            // setting the runtime up reads the project's folders: on a worker, not on this event loop
            ProjectConfig.Folders folders = project.config().folders();
            ProjectConfig.Scripts scriptSettings = project.config().scripts();
            ScriptAccess access = new ScriptAccess(List.of(folders.rootDir()),
                    new FetchRules(scriptSettings.fetchAllowHosts(), serverPort));
            return vertx.executeBlocking(() -> later
                            ? ScriptRuntime.prepare(vertx, e, folders.projectDir(), uses(project),
                                    scriptSettings.workers(), longestTimeout, telemetry.metrics(), access)
                            : ScriptRuntime.start(vertx, e, folders.projectDir(), uses(project),
                                    scriptSettings.workers(), longestTimeout, telemetry.metrics(), access), false)
                    .compose(starting -> starting)
                    .map(runtime -> new Scripts(runtime, own))
                    .recover(failure -> closeEngine(vertx, own).transform(x -> {
                        if (failure instanceof ScriptLoadException) {
                            ScriptLoadException le = (ScriptLoadException) failure;
                            ScriptRef script = used.keySet().stream().filter(r -> r.file().equals(le.file()))
                                    .findFirst().orElse(used.keySet().iterator().next());
                            ConfigProblem p = ToolAssembly.problem(script, used.getOrDefault(script, ""), le,
                                    new DisplayPaths(Path.of("")), new HashSet<>());
                            return Future.failedFuture(new StartupException(List.of(String.valueOf(p))));
                        }
                        return Future.failedFuture(failure);
                    }));
        });
    }

    /** Closing an engine cancels and waits: never on an event loop. */
    private static Future<Void> closeEngine(Vertx vertx, ScriptEngine engine) {
        if (engine == null) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> {
            engine.close();
            return null;
        }, false);
    }

    /**
     * Each tool's scripts with the environment values the tool passes in ({@code env:}), the auth
     * blocks' first: they are loaded in this order, and an auth script may guard every call.
     */
    private static List<ScriptRuntime.Use> uses(Project project) {
        List<ScriptRuntime.Use> uses = new ArrayList<>();
        for (AuthDef block : ToolAssembly.scriptAuthBlocks(project)) {
            // an auth script's calls run under the project's script time limit
            uses.add(new ScriptRuntime.Use(ScriptAuthPlugin.useKey(block), block.script(),
                    passedEnv(block.scriptEnv(), project), project.config().tools().limits().scriptTimeout()));
        }
        for (ToolDef tool : project.tools().values()) {
            Map<String, String> env = passedEnv(tool.scriptEnv(), project);
            for (ScriptRef script : java.util.Arrays.asList(tool.inputMapper(), tool.handler(), tool.outputMapper())) {
                if (script != null) {
                    uses.add(new ScriptRuntime.Use(tool.name(), script, env, tool.limits().scriptTimeout()));
                }
            }
        }
        return uses;
    }

    /** The values of the environment variables a script is allowed to read, by name. */
    private static Map<String, String> passedEnv(List<String> names, Project project) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : names) {
            String value = project.environment().get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        return env;
    }

    /** A snapshot's script runtime and the engine it started for itself, if any; both may be null. */
    private record Scripts(ScriptRuntime runtime, ScriptEngine ownEngine) {
        Future<Void> close(Vertx vertx) {
            Future<Void> closed = runtime == null ? Future.succeededFuture() : runtime.close();
            return closed.transform(x -> closeEngine(vertx, ownEngine));
        }
    }
}
