package dev.hyperterse.server;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.cache.CacheStats;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.mcp.session.ClusteredSessionStore;
import dev.hyperterse.mcp.session.LocalSessionStore;
import dev.hyperterse.mcp.session.McpEndpoint;
import dev.hyperterse.mcp.session.SessionStore;
import dev.hyperterse.mcp.stateless.StatelessEndpoint;
import dev.hyperterse.model.Counted;
import dev.hyperterse.model.ObservabilitySettings;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.Project;
import dev.hyperterse.telemetry.LiveCalls;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Telemetry;
import dev.hyperterse.telemetry.TelemetrySetup;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;

/**
 * The running server: HTTP listeners with {@code /mcp}, {@code /heartbeat}, {@code /ready} and
 * (when enabled) the Prometheus metrics path, serving the current project snapshot. There is one
 * listener per event loop ({@code server.instances}, see {@link Listeners}), all on one port;
 * what they share (the snapshot, sessions, the result cache, scripts) is thread-safe, and each
 * has its own share of the database pools. With reloads enabled it swaps in a new snapshot when
 * the project changes (see {@link Reloader}).
 */
public final class HyperterseServer {
    private static final Logger LOG = LoggerFactory.getLogger(HyperterseServer.class);
    public static final String MCP_PATH = "/mcp";
    /**
     * How long after it starts serving a server binds the JVM meters (a large part of a start's CPU
     * on a small machine). The search index waits for a client's first tools/list or search (see
     * {@link Snapshot#startIndexing}).
     */
    static final java.time.Duration BACKGROUND_START = java.time.Duration.ofSeconds(2);
    public static final String READY_PATH = "/ready";
    /**
     * After the drain: the listener closes once no request arrived for this long (long enough that
     * a gap between requests a balancer still sends is not taken for it having stopped)...
     */
    static final Duration REFUSE_QUIET = Duration.ofSeconds(2);
    /** ...or after this long, however many still arrive. */
    static final Duration REFUSE_AT_MOST = Duration.ofSeconds(10);

    private final Vertx vertx;
    private final Listeners listeners;
    private final CurrentSnapshot current;
    private final McpEndpoint endpoint;
    private final long sweeper;
    private final ConnectionDeadlines deadlines;
    private final Reloader reloader;
    private final ProjectWatcher watcher;
    private final StoppingGate gate;
    private final Future<List<ConfigProblem>> scriptChecks;
    // guarded by this: the one way this server stops (graceful or not), once
    private Future<Void> stopped;

    private HyperterseServer(Vertx vertx, Listeners listeners, CurrentSnapshot current, McpEndpoint endpoint,
                             long sweeper, ConnectionDeadlines deadlines, Reloader reloader, ProjectWatcher watcher,
                             StoppingGate gate, Future<List<ConfigProblem>> scriptChecks) {
        this.vertx = vertx;
        this.listeners = listeners;
        this.current = current;
        this.endpoint = endpoint;
        this.sweeper = sweeper;
        this.deadlines = deadlines;
        this.reloader = reloader;
        this.watcher = watcher;
        this.gate = gate;
        this.scriptChecks = scriptChecks;
    }

    public static Future<HyperterseServer> start(Vertx vertx, Project project, ServerSettings settings, int port,
                                                 Connectors connectors, AuthPlugins authPlugins) {
        return start(vertx, project, settings, port, connectors, authPlugins, ServeOptions.DEFAULTS);
    }

    /**
     * Connects the project and starts listening on {@code settings.network().host()}:{@code port}.
     * Fails with a {@link StartupException} listing every reason the project cannot be served.
     */
    public static Future<HyperterseServer> start(Vertx vertx, Project project, ServerSettings settings, int port,
                                                 Connectors connectors, AuthPlugins authPlugins, ServeOptions options) {
        int instances = settings.network().instancesFor(Runtime.getRuntime().availableProcessors());
        // a process's first connection and first buffer set up Netty's channel ids (from the
        // machine's network interfaces) and its allocators: done on a worker while the listeners
        // deploy, not on the event loop that opens the first database connection
        Future<Object> netty = vertx.executeBlocking(() -> {
            io.netty.channel.DefaultChannelId.newInstance();
            return io.vertx.core.buffer.Buffer.buffer(0);
        }, false);
        return Listeners.deploy(vertx, instances)
                .recover(e -> Future.failedFuture(new StartupException(java.util.List.of(
                        "cannot deploy " + Counted.of(instances, "HTTP listener") + ": " + e.getMessage()))))
                .compose(listeners -> netty.transform(ignored -> serve(vertx, project, settings, port, connectors,
                                authPlugins, options, listeners))
                        .recover(e -> listeners.undeploy().transform(x -> Future.failedFuture(e))));
    }

    private static Future<HyperterseServer> serve(Vertx vertx, Project project, ServerSettings settings, int port,
                                                  Connectors connectors, AuthPlugins authPlugins, ServeOptions options,
                                                  Listeners listeners) {
        TelemetrySetup setup = options.telemetry();
        // the console's Live page observes what the server counts; without the console nothing does
        LiveCalls live = settings.console() ? new LiveCalls(setup.telemetry().metrics(), options.clock()) : null;
        Telemetry telemetry = live == null ? setup.telemetry() : new Telemetry(setup.telemetry().tracing(), live);
        // a clustered node keeps sessions in the cluster and tells the others about invalidations
        ClusterInvalidation invalidation = vertx.isClustered() ? new ClusterInvalidation(vertx) : null;
        java.util.function.UnaryOperator<dev.hyperterse.cache.ResultCache> cacheForPipeline =
                cache -> invalidation == null ? cache : invalidation.publishing(cache);
        // the port scripts may not fetch from: the one asked for, then the one bound (with port 0)
        java.util.concurrent.atomic.AtomicInteger listening = new java.util.concurrent.atomic.AtomicInteger(port);
        java.util.List<Loop> loops = listeners.loops();
        // the token is read once, at start, as the metrics path's access is
        boolean nameProtectedTools = settings.metricsToken() != null;
        Future<ConsoleAssets> consoleFiles = live == null ? Future.succeededFuture()
                : vertx.executeBlocking(() -> ConsoleAssets.load(HyperterseServer.class.getClassLoader()), false)
                        .recover(e -> Future.failedFuture(new StartupException(java.util.List.of(
                                "cannot serve the console: " + e.getMessage()))));
        return consoleFiles.compose(files -> Snapshot.open(vertx, project, connectors, authPlugins,
                        ProtectedToolMetrics.of(telemetry, project, nameProtectedTools), cacheForPipeline,
                        options.scriptEngine(), listening::get, loops, options.strictStatements(),
                        options.scriptsChecked())
                // wired on a worker, in the snapshot's context (its timers and consumers stay on that
                // event loop): a first start loads and links hundreds of classes here (the MCP
                // endpoint, the routes), which would hold the loop for as long
                .compose(snapshot -> vertx.executeBlocking(() -> {
            CurrentSnapshot current = new CurrentSnapshot(snapshot);
            if (invalidation != null) {
                invalidation.listen(() -> current.peek().cache());
            }
            boolean reloads = options.recompile() != null;
            SessionStore sessions = vertx.isClustered()
                    ? new ClusteredSessionStore(vertx, settings.sessions().idleTimeout(), settings.sessions().max(),
                            settings.sessions().perClient(), options.clock())
                    : new LocalSessionStore(settings.sessions().idleTimeout(), settings.sessions().max(),
                            settings.sessions().perClient(), options.clock());
            McpEndpoint endpoint = new McpEndpoint(vertx, current, sessions, settings, options.mcpExtension(),
                    reloads, options.clock(), telemetry, StatelessEndpoint::create);
            // what clients are told when a reload changes the project (in a cluster, also another node's)
            ProjectChanges changes = !reloads ? null : new ProjectChanges(endpoint, project);
            Reloader reloader = !reloads ? null : new Reloader(vertx, options.recompile(),
                    // a new version waits for its scripts' warm-up: the running one serves meanwhile
                    next -> Snapshot.open(vertx, next, connectors, authPlugins,
                            ProtectedToolMetrics.of(telemetry, next, nameProtectedTools), cacheForPipeline,
                            options.scriptEngine(), listening::get, loops, options.strictStatements(),
                            false), current,
                    (old, now) -> swapped(changes, old, now), settings.timeouts().shutdownTimeout(),
                    telemetry.metrics());
            registerGauges(telemetry.metrics(), current, endpoint);
            long sweeper = vertx.setPeriodic(sweepMillis(settings), id -> endpoint.sweep());

            ConnectionDeadlines deadlines = new ConnectionDeadlines(vertx, settings.limits().http());
            ObservabilitySettings observability = project.config().observability();
            OperatorAccess operatorAccess = new OperatorAccess(endpoint.originPolicy(), settings.metricsToken());
            Console console = files == null ? null : new Console(files, live, operatorAccess);
            Set<String> operatorPaths = new java.util.HashSet<>(setup.metricsEnabled()
                    ? Set.of(READY_PATH, observability.metricsPath()) : Set.of(READY_PATH));
            if (console != null) {
                operatorPaths.addAll(console.paths());
            }
            Cors cors = new Cors(settings.network().corsOrigins(), endpoint.originPolicy(), operatorPaths);
            StoppingGate gate = new StoppingGate(Set.of("/heartbeat", READY_PATH), System::nanoTime);
            // the scripts' checks (ServeOptions.scriptChecks) end in this: until then the server
            // serves, but is not ready
            Promise<List<ConfigProblem>> checked = Promise.promise();
            Readiness readiness = new Readiness(vertx, current, gate::stopping, () -> !passed(checked.future()),
                    () -> reloader == null ? 1 : reloader.generation(), operatorAccess::authorised);
            ResourceServerGuard guard = new ResourceServerGuard(() -> current.peek().rootAuth(), MCP_PATH);
            // each listener routes with a router of its own; the handlers are shared and thread-safe
            java.util.function.Function<Vertx, Router> routes = v -> {
                Router router = Router.router(v);
                router.route().handler(deadlines::handle);
                // a draining node still answers, but not on a kept-alive connection: the client's
                // next request opens a new one, which the balancer sends to a node staying up;
                // after the drain it refuses what still arrives, unrun
                router.route().handler(gate::handle);
                router.route().handler(cors);
                router.get("/heartbeat").handler(rc -> rc.response()
                        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .end(new JsonObject().put("success", true).toBuffer()));
                // behind the MCP Origin/Host checks, as the metrics: a page in a browser (DNS
                // rebinding) learns nothing of this server from it
                router.get(READY_PATH).handler(operatorAccess::checkOriginAndHost).handler(readiness);
                if (setup.metricsEnabled()) {
                    // behind the MCP Origin/Host checks (which pass a scraper calling by the pod's
                    // address when bound to one) and the optional token: metrics name the project's tools
                    router.get(observability.metricsPath())
                            .handler(operatorAccess::handle)
                            .handler(rc -> vertx.executeBlocking(setup::scrape, false)
                            .onComplete(ar -> {
                                if (ar.failed()) {
                                    rc.fail(ar.cause());
                                    return;
                                }
                                rc.response().putHeader(HttpHeaders.CONTENT_TYPE,
                                                "text/plain; version=0.0.4; charset=utf-8")
                                        .end(ar.result());
                            }));
                }
                guard.mount(router);
                endpoint.mount(router, MCP_PATH);
                // after /mcp, so an MCP request is never matched against the console's routes
                if (console != null) {
                    console.mount(router);
                }
                return router;
            };

            String host = settings.network().host();
            HttpServerOptions httpOptions = new HttpServerOptions()
                    .setHost(host)
                    .setPort(port)
                    .setCompressionSupported(true)
                    .setMaxInitialLineLength(8192)
                    .setMaxHeaderSize(16384)
                    // no cleartext HTTP/2: telling it from HTTP/1 takes the first 24 bytes, and until
                    // then a connection has no handler, so a client sending fewer would escape the
                    // header deadline (ConnectionDeadlines); h2c upgrade requests are answered in HTTP/1.1
                    .setHttp2ClearTextEnabled(false)
                    .setIdleTimeout((int) Math.min(Integer.MAX_VALUE, settings.limits().http().idle().toMillis()))
                    .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
            deadlines.start();
            return listeners.listen(httpOptions, deadlines::opened, routes)
                    .compose(bound -> {
                        listening.set(bound);
                        // scripts checked before the start load now (ServeOptions.scriptsChecked), so
                        // that setting up the listeners and the databases had the machine to itself;
                        // scripts checked from now on (ServeOptions.scriptChecks) load once they passed
                        checkScripts(vertx, options, current, checked);
                        // serving now: the JVM meters are bound in the background, once a new
                        // server's first calls (a client's initialize, tools/list, a call) had the
                        // machine to themselves; a scrape before that binds them itself. The search
                        // index is built at a client's first tools/list or search: a server whose
                        // clients do neither never holds Lucene's classes, the static table and the
                        // tool vectors
                        if (setup.metricsEnabled()) {
                            vertx.setTimer(BACKGROUND_START.toMillis(), id -> vertx.executeBlocking(() -> {
                                setup.bindJvmMetrics();
                                return null;
                            }, false));
                        }
                        // said once everything is in place, the watcher included: a change made after
                        // this line is seen
                        Runnable announce = () -> LOG.info("serving '{}' ({}, {}) at http://{}:{}{} ({} on {})",
                                project.config().name(), Counted.of(project.tools().size(), "tool"),
                                Counted.of(project.adapters().size(), "adapter"),
                                displayHost(host), bound, MCP_PATH,
                                Counted.of(listeners.count(), "listener"), Counted.of(loops.size(), "event loop"));
                        // in a cluster, a reload one node's watcher makes is repeated by the others,
                        // and what it changed is announced by every node to its own clients
                        ClusterReloads fanOut = reloader == null || !vertx.isClustered() ? null
                                : new ClusterReloads(vertx, reloader::reload, changes::serving, changes::heard);
                        if (fanOut != null) {
                            fanOut.listen();
                        }
                        ProjectWatcher watcher = reloader == null || options.watchInterval() == null ? null
                                : new ProjectWatcher(vertx, project.config().folders().projectDir(), options.watchInterval(),
                                        fanOut != null ? fanOut::reloadEverywhere : reloader::reload);
                        HyperterseServer server = new HyperterseServer(vertx, listeners, current, endpoint,
                                sweeper, deadlines, reloader, watcher, gate, checked.future());
                        return (watcher == null ? Future.succeededFuture(server) : watcher.start()
                                .map(server))
                                .onSuccess(started -> {
                                    announce.run();
                                    if (console != null) {
                                        LOG.info("web console at http://{}:{}{}/", displayHost(host),
                                                bound, Console.PATH);
                                    }
                                })
                                .recover(e -> server.close().transform(x -> Future.failedFuture(new StartupException(
                                        java.util.List.of("cannot watch " + project.config().folders().projectDir() + ": "
                                                + e.getMessage())))));
                    })
                    .recover(e -> {
                        if (e instanceof StartupException) {
                            return Future.failedFuture(e);
                        }
                        vertx.cancelTimer(sweeper);
                        deadlines.stop();
                        listeners.close();
                        boolean inUse = addressInUse(e);
                        String reason = inUse ? "port " + port + " is already in use on " + host
                                + " (by another server, or an earlier run still going)" : e.getMessage();
                        return snapshot.close().transform(x -> Future.failedFuture(new StartupException(
                                java.util.List.of("cannot listen on " + host + ":" + port + ": " + reason),
                                inUse)));
                    });
        }, false)
                // a failure while wiring (before listening, whose own failures close it) closes the snapshot
                .recover(e -> snapshot.close().transform(x -> Future.failedFuture(e)))
                .compose(wired -> wired)));
    }

    /**
     * Runs the scripts' checks the options hold, once (none: done at once), then begins loading the
     * scripts when they passed; {@code checked} completes with the problems found, in the
     * server's context. Checks that end after a reload replaced the version they were made for
     * no longer count: the reload checked what it serves.
     */
    private static void checkScripts(Vertx vertx, ServeOptions options, CurrentSnapshot current,
                                     Promise<List<ConfigProblem>> checked) {
        Snapshot started = current.peek();
        if (options.scriptChecks() == null) {
            started.warmUpScripts();
            checked.complete(List.of());
            return;
        }
        io.vertx.core.Context context = vertx.getOrCreateContext();
        // the supplier may block (starting a thread, reading the disk cache): not on this event loop
        vertx.executeBlocking(() -> {
            java.util.concurrent.CompletionStage<List<ConfigProblem>> checks = options.scriptChecks().get();
            if (checks == null) {
                throw new IllegalStateException("no checks of the scripts to wait for");
            }
            return checks;
        }, false).onComplete(asked -> {
            if (asked.failed()) {
                checked.fail(asked.cause());
                return;
            }
            asked.result().whenComplete((problems, failure) -> context.runOnContext(v -> {
                if (failure != null || problems == null) {
                    checked.fail(failure != null ? failure : new IllegalStateException("the scripts' checks ended without a result"));
                } else if (current.peek() != started) {
                    LOG.info("scripts: the start's checks ended after a reload, which checked its own scripts");
                    checked.complete(List.of());
                } else {
                    if (problems.isEmpty()) {
                        started.warmUpScripts();
                    }
                    checked.complete(problems);
                }
            }));
        });
    }

    /**
     * The problems the project's scripts' checks found once they end (none: the scripts passed, or
     * there were no checks to run, see {@link ServeOptions#scriptChecks()}); fails when the checks
     * could not run. Until then the server serves its other tools and {@code /ready} answers 503.
     */
    public Future<List<ConfigProblem>> scriptChecks() {
        return scriptChecks;
    }

    /**
     * Whether the project's scripts passed their checks after the start (or there were none to
     * run): until then, and for good when they failed, the server is not ready.
     */
    public boolean scriptsPassed() {
        return passed(scriptChecks);
    }

    private static boolean passed(Future<List<ConfigProblem>> checks) {
        return checks.succeeded() && checks.result().isEmpty();
    }

    /** A bind failure because the address is taken (NIO's BindException, or the native transport's message). */
    private static boolean addressInUse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException
                    || t.getMessage() != null && t.getMessage().contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    /**
     * After a reload: clients learn what changed of the project's tools, prompts and resources
     * (only if anything did, see {@link ProjectChanges}). The listener, the sessions and telemetry
     * were set up at start, so their settings wait for a restart.
     */
    private static void swapped(ProjectChanges changes, Snapshot old, Snapshot now) {
        // a server that has been searched gets the new version's index at once, so its next search
        // does not wait for it; one never searched keeps waiting for its first search
        if (old.indexingStarted()) {
            now.startIndexing();
        }
        changes.served(now.project());
        if (!old.project().config().server().equals(now.project().config().server())
                || !old.project().config().observability().equals(now.project().config().observability())) {
            LOG.warn("'server' and 'observability' settings changed: they take effect at the next restart");
        }
    }

    private static void registerGauges(Metrics metrics, CurrentSnapshot current, McpEndpoint endpoint) {
        metrics.gauge("sessions.live", "MCP sessions with live state on this node", endpoint::liveSessions);
        metrics.gauge("tools", "Tools of the project being served", () -> current.peek().project().tools().size());
        metrics.gauge("calls.in.flight", "Calls running on the snapshot being served", () -> current.peek().calls().count());
        metrics.gauge("request.body.bytes.in.flight", "Bytes of request bodies held while they arrive",
                endpoint::bodyBytesInFlight);
        metrics.gauge("cache.entries", "Entries in the result cache", cache(current, CacheStats::entries));
        metrics.gauge("cache.size.bytes", "Memory the result cache holds (encoded size)", cache(current, CacheStats::weightBytes));
        metrics.gauge("cache.evictions", "Result cache evictions since the last reload", cache(current, CacheStats::evictions));
    }

    private static java.util.function.DoubleSupplier cache(CurrentSnapshot current, ToDoubleFunction<CacheStats> field) {
        return () -> {
            CacheStats stats = current.peek().cacheStats();
            return stats == null ? 0 : field.applyAsDouble(stats);
        };
    }

    /** Often enough that an idle session ends near its time, rarely enough to cost nothing. */
    private static long sweepMillis(ServerSettings settings) {
        return Math.max(1000, Math.min(30_000, settings.sessions().idleTimeout().toMillis() / 2));
    }

    private static String displayHost(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return listeners.port();
    }

    /** How many HTTP listeners serve the port. */
    public int listeners() {
        return listeners.count();
    }

    public Vertx vertx() {
        return vertx;
    }

    /** The MCP endpoint (e.g. to notify a session on its GET stream). */
    /** The snapshot being served, as requests lease it. */
    CurrentSnapshot snapshots() {
        return current;
    }

    public McpEndpoint mcp() {
        return endpoint;
    }

    /** Calls running on the snapshot being served now. */
    int inFlight() {
        return current.peek().calls().count();
    }

    /** The project being served now. */
    public Project project() {
        return current.peek().project();
    }

    /**
     * Compiles and connects the project folder again and serves it once it is complete; calls
     * running meanwhile finish on the version they started on. Fails, leaving the current version
     * serving, with a {@link StartupException} listing every problem. For {@code --watch}, and for
     * anything else that knows the project changed (another node of a cluster, an operator).
     *
     * @throws IllegalStateException when the server was started without reloads
     */
    public Future<Void> reload() {
        if (reloader == null) {
            return Future.failedFuture(new IllegalStateException("this server was started without reloads"));
        }
        return reloader.reload();
    }

    /** Stops gracefully without a drain period: {@link #shutdown(Duration, Duration)} with none. */
    public Future<Void> shutdown(Duration timeout) {
        return shutdown(Duration.ZERO, timeout);
    }

    /**
     * Stops gracefully, in this order: {@code /ready} turns 503 at once while everything else
     * still serves for {@code drain} (new connections and calls included, answered with
     * {@code Connection: close}), so a load balancer or Kubernetes takes the node out of rotation
     * before it stops listening; then open GET and {@code subscriptions/listen} streams end (their
     * clients reconnect, through the balancer, elsewhere), requests still arriving are refused
     * unrun (503, see {@link StoppingGate}) until none came for {@link #REFUSE_QUIET} (at most
     * {@link #REFUSE_AT_MOST}), and no new connection is accepted; calls
     * still running get until {@code timeout} to finish (their answers are delivered); then
     * whatever still runs is cancelled and every pool is closed.
     */
    public synchronized Future<Void> shutdown(Duration drain, Duration timeout) {
        if (stopped == null) {
            stopped = gracefully(drain, timeout);
        }
        return stopped;
    }

    private Future<Void> gracefully(Duration drain, Duration timeout) {
        gate.drain();
        long drainMillis = Math.max(0, drain.toMillis());
        long millis = Math.max(0, timeout.toMillis());
        if (watcher != null) {
            watcher.stop();
        }
        Promise<Void> drained = Promise.promise();
        if (drainMillis == 0) {
            drained.complete();
        } else {
            LOG.info("draining: /ready answers 503, still serving for {} ms", drainMillis);
            vertx.setTimer(drainMillis, id -> drained.complete());
        }
        return drained.future().compose(x -> {
            if (drainMillis == 0) {
                return Future.succeededFuture();
            }
            // after the drain: requests still arriving are refused, unrun, and the listener closes
            // once they stopped arriving (a balancer that passes refused requests on has then
            // stopped sending), so no connection a balancer just opened is dropped with its request
            endpoint.endStreams();
            gate.refuse();
            long refusing = System.nanoTime();
            return gate.quiet(vertx, REFUSE_QUIET.toMillis(), REFUSE_AT_MOST.toMillis())
                    .onComplete(y -> LOG.info("refused new requests for {} ms", (System.nanoTime() - refusing) / 1_000_000));
        }).compose(x -> {
            vertx.cancelTimer(sweeper);
            Snapshot serving = current.peek();
            int running = serving.calls().count();
            LOG.info("shutting down: no new connections, open streams told to reconnect; {} {} running, "
                    + "waiting up to {} ms", running, running == 1 ? "call" : "calls", millis);
            // streams never end by themselves: ended now, their clients reconnect to a node that stays
            endpoint.endStreams();
            Future<Void> httpClosed = listeners.shutdown(millis);
            Promise<Void> deadline = Promise.promise();
            long timer = vertx.setTimer(Math.max(1, millis), id -> deadline.tryComplete());
            // a stream opened since on a connection kept alive would hold its connection open
            long streams = vertx.setPeriodic(500, id -> endpoint.endStreams());
            // every exchange finishes, not only the calls running on the project: a request still
            // looking up its session, or whose body is still arriving, is answered before sessions end
            return Future.any(Future.all(serving.calls().drain(), httpClosed), deadline.future())
                    .transform(y -> {
                        vertx.cancelTimer(timer);
                        vertx.cancelTimer(streams);
                        int left = serving.calls().count();
                        if (left > 0) {
                            LOG.warn("shutdown deadline passed with {} still running: cancelling them",
                                    Counted.of(left, "call"));
                        }
                        endpoint.closeAll();
                        return httpClosed;
                    });
        })
                .transform(x -> reloader == null ? Future.succeededFuture() : reloader.close())
                .transform(x -> current.peek().close())
                .transform(x -> listeners.undeploy())
                .onComplete(x -> deadlines.stop())
                .onComplete(x -> LOG.info("stopped"));
    }

    /** Stops at once: ends open streams and running calls, stops listening and closes the project's connections. */
    public synchronized Future<Void> close() {
        if (stopped == null) {
            stopped = now();
        }
        return stopped;
    }

    private Future<Void> now() {
        gate.drain();
        if (watcher != null) {
            watcher.stop();
        }
        vertx.cancelTimer(sweeper);
        endpoint.closeAll();
        return listeners.close()
                .transform(x -> reloader == null ? Future.succeededFuture() : reloader.close())
                .transform(x -> current.peek().close())
                .transform(x -> listeners.undeploy())
                .onComplete(x -> deadlines.stop());
    }
}
