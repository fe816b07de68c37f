package dev.hyperterse.cli;

import dev.hyperterse.conformance.ConformanceExtension;
import dev.hyperterse.mcp.McpExtension;
import dev.hyperterse.model.Counted;
import dev.hyperterse.model.Durations;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.OperatorLayer;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectException;
import dev.hyperterse.script.TypeScriptStripper;
import dev.hyperterse.server.ClusterMember;
import dev.hyperterse.server.HyperterseServer;
import dev.hyperterse.server.ServeOptions;
import dev.hyperterse.server.StartupException;
import dev.hyperterse.telemetry.TelemetrySetup;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

@Command(name = "start", mixinStandardHelpOptions = true,
        // written out: picocli's synopsis of the cluster group broke inside HOST[:PORT]
        customSynopsis = {
            "hyperterse start [PATH] [-f FILE] [-p PORT] [--host HOST]",
            "        [--config FILE] [--print-config]",
            "        [--log-level 1-4] [--verbose] [--log-format text|json]",
            "        [--watch [--watch-interval DURATION]] [--typescript auto|swc|typescript]",
            "        [--strict] [--console] [--drain-period DURATION]",
            "        [--conformance-fixtures]",
            "        [--cluster [--cluster-members HOST[:PORT],...] [--cluster-host HOST]",
            "         [--cluster-port PORT] [--cluster-name NAME] [--cluster-multicast]",
            "         [--cluster-kubernetes-dns NAME]]"},
        description = {"Compile a project and serve it over MCP Streamable HTTP at /mcp.",
                "A start-up cache made by aot-cache (hyperterse.aot; hyperterse.jsa before JDK 25) in the current "
                        + "folder, the project's or the jar's is used without a flag on JDK 22 and later under Linux "
                        + "and macOS (the JVM starts again with it in place); HYPERTERSE_AOT_CACHE=off turns that off, "
                        + "HYPERTERSE_AOT_CACHE=FILE names another."})
final class StartCommand implements java.util.concurrent.Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(StartCommand.class);
    /**
     * What a stop may take beyond {@code server.drain_period} and {@code server.shutdown_timeout}: closing pools, Vert.x, the span
     * exporter and the script engine. Past it the process halts (see {@link BoundedShutdown}).
     */
    static final Duration SHUTDOWN_CLOSING = Duration.ofSeconds(45);
    static final Duration DEFAULT_WATCH_INTERVAL = Duration.ofSeconds(1);

    @Mixin
    ProjectLocation location;

    @Mixin
    TypeScriptFlag typescript;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Operator settings (server, observability, cluster) under the project's own. "
                    + "Default: conf/hyperterse.yaml beside the jar, if it exists. HYPERTERSE_* variables override it.")
    Path config;

    @Option(names = "--print-config",
            description = "Print the effective settings (secrets masked) and where they were read from, then exit.")
    boolean printConfig;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT",
            description = "Port to listen on. Default: server.port, else $PORT, else 8080.")
    Integer port;

    @Option(names = "--host", paramLabel = "HOST",
            description = "Address to bind. Default: server.host, else 127.0.0.1 (use 0.0.0.0 in containers).")
    String host;

    @Option(names = "--log-level", paramLabel = "1-4",
            description = "1 error, 2 warn, 3 info, 4 debug. Default: server.log_level, else 3.")
    Integer logLevel;

    @Option(names = "--verbose", description = "Debug logging (same as --log-level 4).")
    boolean verbose;

    @Option(names = "--log-format", paramLabel = "text|json",
            description = "text for terminals, json for one JSON object per line. Default: observability.logs.format, else text.")
    String logFormat;

    @Option(names = "--watch",
            description = "Reload the project when its files change (polls the folder; works on NFS and mounted ConfigMaps).")
    boolean watch;

    @Option(names = "--watch-interval", paramLabel = "DURATION",
            description = "How often --watch scans the project folder, e.g. 500ms, 2s. Default: 1s.")
    String watchInterval;

    @Option(names = "--strict",
            description = "Refuse to start (and to reload) when a statement does not prepare on its database. "
                    + "Without it, as in Hyperterse, that tool answers an error saying so, the others serve, "
                    + "and the log and /ready name it.")
    boolean strict;

    @Option(names = "--console",
            description = "Serve the web console at /console: try tools, search, prompts and resources with a key "
                    + "you paste, and watch calls live (same as server.console: true; see docs/console.md).")
    boolean console;

    @Option(names = "--drain-period", paramLabel = "DURATION",
            description = "On SIGTERM/SIGINT, how long to keep serving with /ready answering 503 before "
                    + "no longer accepting connections, e.g. 5s; 0 stops at once. Default: server.drain_period, else 5s.")
    String drainPeriod;

    // Test scaffolding for the official MCP conformance suite, off unless given: the fixture
    // tools are never listed otherwise.
    @picocli.CommandLine.ArgGroup(exclusive = false, heading = "Clustering:%n")
    ClusterFlags cluster = new ClusterFlags();

    @Option(names = "--conformance-fixtures",
            description = "Also serve the fixture tools the official MCP conformance suite calls (testing only).")
    boolean conformanceFixtures;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** This node's cluster member once Vert.x runs on it; null when alone. */
    private volatile ClusterMember joined;

    /** Standard output and error when run without the command-line library ({@link #callDirectly}). */
    private PrintWriter directOut;
    private PrintWriter directErr;

    /**
     * Runs a command {@link StartArguments} read, as the command-line library would run it: its
     * exit status, or 1 after printing an exception this throws.
     */
    int callDirectly() {
        directOut = new PrintWriter(System.out, true);
        directErr = new PrintWriter(System.err, true);
        try {
            return call();
        } catch (Exception e) {
            e.printStackTrace(directErr);
            return 1;
        }
    }

    private PrintWriter out() {
        return spec != null ? spec.commandLine().getOut() : directOut;
    }

    private PrintWriter err() {
        return spec != null ? spec.commandLine().getErr() : directErr;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = err();
        if (logLevel != null && (logLevel < 1 || logLevel > 4)) {
            err.println("--log-level must be 1 (error), 2 (warn), 3 (info) or 4 (debug)");
            return 2;
        }
        if (logFormat != null && Logging.format(logFormat) == null) {
            err.println("--log-format must be text or json");
            return 2;
        }
        Duration interval = watchInterval();
        if (watchInterval != null && interval == null) {
            err.println("--watch-interval must be a duration of at least 10ms, such as 500ms or 2s");
            return 2;
        }
        Duration drainFlag = drainPeriod == null ? null : Durations.parse(drainPeriod);
        if (drainPeriod != null && drainFlag == null) {
            err.println("--drain-period must be a duration such as 5s or 500ms, or 0 for none, at most 8760h");
            return 2;
        }
        TypeScriptStripper.Choice stripper = typescript.choiceOrExplain(err);
        if (stripper == null) {
            return 2;
        }
        Logging.setLevel(logLevel != null ? logLevel : verbose ? 4 : 3);
        Logging.setFormat(Logging.format(logFormat));
        if (!printConfig) {
            // Netty's platform probe costs a start ~0.1-0.2 s on one thread: it runs while the project compiles
            NetworkWarmUp.startInBackground();
        }
        // reading the operator's settings logs nothing: its warnings wait for the log format
        OperatorLayer operator = OperatorConfig.layer(config, Main.jarFile(), err);
        if (operator == null) {
            return OperatorConfig.failedStatus(config);
        }
        ProjectLoader loader = new ProjectLoader(operator, stripper);
        Path path = location.resolve();
        // compiling logs (the script engine, warnings), so the format and level the settings ask
        // for are taken as written before it; the compiled project sets them again, checked
        Integer writtenLevel = Logging.level(loader.writtenSetting(path, "server", "log_level"));
        Logging.setLevel(logLevel != null ? logLevel : verbose ? 4 : writtenLevel != null ? writtenLevel : 3);
        if (logFormat == null) {
            Logging.setFormat(Logging.format(loader.writtenSetting(path, "observability", "logs", "format")));
        }
        operator.logWarnings();
        List<String> jvmArguments = jvmArguments();
        String unusedCache = unusedCacheWarning(jvmArguments, System.getProperty("java.vm.info"));
        if (unusedCache != null) {
            LOG.warn(unusedCache);
        }
        if (CacheRelaunch.failure() != null) {
            LOG.warn(CacheRelaunch.failure());
        }
        String cacheSetting = CacheRelaunch.setting(System.getenv());
        AotCacheCommand.Flags cacheFlags = AotCacheCommand.Flags.forJdk(Runtime.version().feature());
        if (!cacheSetting.isEmpty() && !CacheRelaunch.off(cacheSetting)
                && CacheRelaunch.cache(cacheSetting, cacheFlags, List.of()) == null) {
            LOG.warn("{} names {}, which is not a file", CacheRelaunch.VARIABLE, cacheSetting);
        }
        Path jar = Main.jarFile();
        String cacheHint = cacheNotGivenHint(jvmArguments, CacheRelaunch.cache(cacheSetting, cacheFlags,
                CacheRelaunch.cacheCandidates(projectFolder(path), jar)), jar, cacheFlags);
        if (cacheHint != null) {
            LOG.info(cacheHint);
        }
        // joining a cluster takes seconds: it runs while the project compiles
        ClusterMember early = printConfig ? null : joinEarly(loader, path, operator);
        try {
            return serve(err, operator, loader, path, interval, drainFlag, early);
        } finally {
            // after a failed start-up nobody should wait for this member (after serving, the
            // shutdown has left the cluster already, and this does nothing)
            if (joined != null) {
                joined.leave();
            } else if (early != null) {
                early.leave();
            }
        }
    }

    /**
     * Starts this node's cluster member before the project is compiled, with the settings the
     * command line, the operator and the project's written {@code server.host} give; null when the
     * node runs alone or the settings are wrong (compiling first reports that, as without this).
     */
    private ClusterMember joinEarly(ProjectLoader loader, Path path, OperatorLayer operator) {
        dev.hyperterse.server.ClusterOptions options;
        try {
            String written = loader.writtenSetting(path, "server", "host");
            options = clusterFlags().resolve(host != null ? host : written != null ? written : "127.0.0.1", operator);
        } catch (RuntimeException e) {
            return null;
        }
        if (options == null) {
            return null;
        }
        try {
            return joining(options);
        } catch (IllegalArgumentException addOnMissing) {
            return null; // said when the node joins after compiling, as a configuration error
        }
    }

    private Integer serve(PrintWriter err, OperatorLayer operator, ProjectLoader loader, Path path, Duration interval,
                          Duration drainFlag, ClusterMember early) throws InterruptedException {
        // scripts are checked below, after --print-config and the configuration's own errors
        Project project = loader.loadWithoutScripts(path, err);
        if (project == null) {
            loader.close();
            return 1;
        }
        ServerSettings configured = project.config().server();
        Logging.setLevel(logLevel != null ? logLevel : verbose ? 4 : configured.logLevel());
        if (logFormat == null) {
            Logging.setFormat(project.config().observability().logFormat());
        }
        ServerSettings.Builder flagged = configured.toBuilder();
        if (host != null) {
            flagged.network(n -> n.host(host));
        }
        if (console) {
            flagged.console(true);
        }
        if (drainFlag != null) {
            flagged.timeouts(t -> t.drainPeriod(drainFlag));
        }
        ServerSettings settings = flagged.build();
        int listenPort;
        try {
            listenPort = Listen.port(port, configured.network().port(), System.getenv("PORT"));
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            loader.close();
            return 1;
        }

        if (printConfig) {
            dev.hyperterse.server.ClusterOptions clusterOptions;
            try {
                clusterOptions = clusterFlags().resolve(settings.network().host(), operator);
            } catch (IllegalArgumentException e) {
                err.println("error: " + e.getMessage());
                loader.close();
                return 1;
            }
            java.util.List<String> layers = new java.util.ArrayList<>();
            layers.add("packaged defaults");
            layers.addAll(operator.sources());
            layers.add(project.config().location().file().toString());
            layers.add("command-line flags");
            out().print(EffectiveConfig.render(new EffectiveConfig.Effective(project.config(),
                    settings, listenPort,
                    logFormat == null ? project.config().observability().logFormat() : Logging.format(logFormat),
                    logLevel != null ? logLevel : verbose ? 4 : configured.logLevel(), clusterOptions), layers));
            out().flush();
            loader.close();
            return 0;
        }

        TelemetrySetup telemetry;
        try {
            telemetry = TelemetrySetup.create(project.config().observability(), System.getenv(),
                    project.config().name(), project.config().version());
        } catch (RuntimeException e) {
            // the SDK rejects OTEL_* values it cannot use (an unknown exporter, a malformed header)
            err.println("cannot start '" + project.config().name() + "': tracing: " + e.getMessage());
            loader.close();
            return 1;
        }
        Vertx vertx;
        try {
            joined = member(settings.network().host(), operator, early);
            vertx = newVertx(telemetry, joined);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            telemetry.close();
            loader.close();
            return 1;
        } catch (RuntimeException | ExecutionException e) {
            err.println("cannot join the cluster: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
            telemetry.close();
            loader.close();
            return 1;
        }
        ServeOptions options = ServeOptions.DEFAULTS
                .withMcpExtension(conformanceFixtures ? new ConformanceExtension() : McpExtension.NONE).withTelemetry(telemetry)
                .withScriptEngine(loader.scriptEngineFor(project)).withStrictStatements(strict)
                // the scripts are checked once the server listens (the GraalJS engine's first start,
                // seconds of CPU, would otherwise hold up the first call to a database tool): it
                // serves its other tools meanwhile and is not ready (/ready 503) until they pass; a
                // call to a script waits for it. One that fails its check stops the server, below
                .withScriptChecks(() -> loader.checkScripts(project));
        if (watch) {
            options = options.withReloads(() -> loader.compile(path), interval);
        }
        HyperterseServer server;
        try {
            server = HyperterseServer.start(vertx, project, settings, listenPort, loader.connectors, loader.authPlugins,
                            options)
                    .toCompletionStage().toCompletableFuture().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof StartupException) {
                StartupException startup = (StartupException) cause;
                err.println("cannot start '" + project.config().name() + "':");
                startup.reasons().forEach(r -> err.println("  " + r));
                if (startup.portInUse()) {
                    String env = System.getenv("PORT");
                    err.println(portHint(port != null, configured.network().port() != null,
                            env != null && !env.isBlank()));
                }
            } else {
                err.println("cannot start '" + project.config().name() + "': " + cause.getMessage());
                LOG.debug("start-up failure", cause);
            }
            err.flush();
            vertx.close();
            telemetry.close();
            loader.close();
            return 1;
        }

        Duration drain = settings.timeouts().drainPeriod();
        Duration running = settings.timeouts().shutdownTimeout();
        Duration stopping = drain.plus(running);
        CountDownLatch stopped = new CountDownLatch(1);
        // what a stop does, given what to do should it overrun its deadline
        java.util.function.Function<java.util.function.IntConsumer, Runnable> stopAll = overrun -> () -> {
            // sequentially, off any Vert.x thread: vertx.close() chained inside a Vert.x callback
            // would wait for the context it is closing; under one deadline, since closing a script
            // context waits for a worker that may be stuck in host code
            new BoundedShutdown(stopping.plus(SHUTDOWN_CLOSING), overrun).run(List.of(
                    // a server never ready (its scripts still checked, or failed) has no drain period
                    new BoundedShutdown.Step("draining the server", () -> await(server.shutdown(
                            server.scriptsPassed() ? drain : Duration.ZERO, running),
                            stopping.plusSeconds(15))),
                    // a clustered node leaves the cluster here, handing its partitions over first
                    new BoundedShutdown.Step("closing Vert.x", () -> await(vertx.close(), Duration.ofSeconds(10))),
                    // then the cluster: its partitions (sessions) handed to the others first
                    new BoundedShutdown.Step("leaving the cluster", () -> {
                        if (joined != null) {
                            joined.leave();
                        }
                    }),
                    // last, so the spans of the shutdown itself are exported too
                    new BoundedShutdown.Step("flushing spans", telemetry::close),
                    new BoundedShutdown.Step("closing the script engine", loader::close)));
            stopped.countDown();
        };
        Thread shutdown = new Thread(stopAll.apply(Runtime.getRuntime()::halt), "hyperterse-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        List<ConfigProblem> scriptProblems;
        try {
            scriptProblems = server.scriptChecks().toCompletionStage().toCompletableFuture().get();
        } catch (ExecutionException e) {
            err.println("cannot start '" + project.config().name() + "': scripts: " + (e.getCause().getMessage() != null
                    ? e.getCause().getMessage() : e.getCause().toString()));
            LOG.debug("script check failure", e.getCause());
            scriptProblems = null;
        }
        if (scriptProblems == null || !scriptProblems.isEmpty()) {
            if (scriptProblems != null) {
                ProjectLoader.print(new ProjectException(scriptProblems.stream().sorted().toList()), err);
            }
            err.flush();
            // stopped here, at once (it was never ready), unless the process is already stopping
            try {
                Runtime.getRuntime().removeShutdownHook(shutdown);
            } catch (IllegalStateException stoppingAlready) {
                stopped.await();
                return 1;
            }
            // the caller exits with 1 (or, in-process, carries on): a step past the deadline is
            // left behind rather than halting the process
            stopAll.apply(status -> LOG.error("stopping after the scripts' checks failed took longer than {} s",
                    stopping.plus(SHUTDOWN_CLOSING).toSeconds())).run();
            return 1;
        }
        stopped.await();
        return 0;
    }

    /**
     * A warning when the JVM was given a start-up cache ({@code -XX:AOTCache} or
     * {@code -XX:SharedArchiveFile}) it could not use, as when it was made for another build of the
     * jar or another JVM: the JVM then starts without it (it says why on stderr); null otherwise.
     *
     * @param jvmArguments the JVM's arguments (command line and option variables)
     * @param vmInfo       {@code java.vm.info}, which says "sharing" when a class archive is in use
     *                     (on JDK 17 to 24 the JDK's own archive counts, so a stale AppCDS archive
     *                     goes unnoticed here; the JVM itself warns about it)
     */
    static String unusedCacheWarning(List<String> jvmArguments, String vmInfo) {
        String cache = givenCache(jvmArguments);
        if (cache == null || vmInfo != null && vmInfo.contains("sharing")) {
            return null;
        }
        return "the start-up cache " + cache + " is not in use (it was made for another build of the jar or "
                + "another JVM, or cannot be read), so this start is not faster: make it again with "
                + Main.launchCommand() + " aot-cache";
    }

    /** The folder the project lies in: {@code path} itself, or the folder of a project file. */
    private static List<Path> projectFolder(Path path) {
        Path folder = Files.isDirectory(path) ? path : path.toAbsolutePath().getParent();
        return folder == null ? List.of() : List.of(folder);
    }

    /**
     * A hint when there is a start-up cache a start would use ({@code cache}: the one
     * {@code HYPERTERSE_AOT_CACHE} names, or {@code hyperterse.aot} on JDK 25+, {@code hyperterse.jsa}
     * before, where {@code aot-cache} puts one) but the JVM was started without any: that it is
     * older than the jar (made for an earlier build: make it again), or else the flag to start
     * with (the JVM takes a cache only from its command line; {@code start} adds it by itself on
     * JDK 22+ under Linux and macOS); null otherwise.
     *
     * @param cache the cache found ({@link CacheRelaunch#cache}), or null
     * @param jar   the jar this runs from, or null
     * @param flags the running JDK's cache flags
     */
    static String cacheNotGivenHint(List<String> jvmArguments, Path cache, Path jar, AotCacheCommand.Flags flags) {
        if (cache == null || givenCache(jvmArguments) != null) {
            return null;
        }
        if (CacheRelaunch.olderThan(cache, jar)) {
            return "the start-up cache " + cache + " is older than the jar (made for an earlier build), so this start "
                    + "does not use it: make it again with " + Main.launchCommand() + " aot-cache … -o "
                    + Main.shellWord(cache.toString());
        }
        return "a start-up cache lies at " + cache + " but this JVM was not started with it; start with "
                + flags.use() + Main.shellWord(cache.toAbsolutePath().toString())
                + " before -jar for a faster start (should it be stale, the JVM says so and starts without it)";
    }

    /** The start-up cache the JVM was given ({@code -XX:AOTCache} or {@code -XX:SharedArchiveFile}, the last one wins), or null. */
    private static String givenCache(List<String> jvmArguments) {
        String cache = null;
        for (String a : jvmArguments) {
            if (a.startsWith("-XX:AOTCache=") || a.startsWith("-XX:SharedArchiveFile=")) {
                cache = a.substring(a.indexOf('=') + 1);
            }
        }
        return cache;
    }

    /** The JVM's arguments as given: its command line and the variables the launcher reads options from. */
    private static List<String> jvmArguments() {
        List<String> all = new java.util.ArrayList<>();
        ProcessHandle.current().info().arguments().ifPresent(a -> all.addAll(List.of(a)));
        for (String variable : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")) {
            String value = System.getenv(variable);
            if (value != null) {
                all.addAll(List.of(value.trim().split("\\s+")));
            }
        }
        return all;
    }

    /** What to do about a port in use, naming where the port came from (precedence as in {@link Listen#port}). */
    static String portHint(boolean fromFlag, boolean fromConfig, boolean fromEnvironment) {
        if (fromFlag) {
            return "the port came from --port; give another free one with -p/--port PORT";
        }
        if (fromConfig) {
            return "the port came from server.port in .hyperterse; choose another with -p/--port PORT, "
                    + "or remove server.port to let $PORT choose";
        }
        return "the port came from " + (fromEnvironment ? "$PORT" : "the default (8080)")
                + "; choose another with -p/--port PORT or $PORT";
    }

    private ClusterFlags clusterFlags() {
        return cluster != null ? cluster : new ClusterFlags(); // picocli leaves an unused group null
    }

    /** {@code --watch-interval}, or the default; null when written but not a duration of at least 10ms. */
    Duration watchInterval() {
        if (watchInterval == null) {
            return DEFAULT_WATCH_INTERVAL;
        }
        Duration d = Durations.parse(watchInterval);
        return d == null || d.toMillis() < 10 ? null : d;
    }

    private static void await(io.vertx.core.Future<Void> future, Duration limit) {
        try {
            future.toCompletionStage().toCompletableFuture().get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("shutdown did not finish cleanly: {}", e.toString());
        }
    }

    /**
     * This node's cluster member: the one started early when the settings, now that the project
     * is compiled, are still the same; else (a host the project's settings computed) the early one
     * leaves and another starts. Null when the node runs alone.
     */
    private ClusterMember member(String bindHost, OperatorLayer operator, ClusterMember early) {
        dev.hyperterse.server.ClusterOptions options = clusterFlags().resolve(bindHost, operator);
        if (early != null && early.options().equals(options)) {
            return early;
        }
        if (early != null) {
            early.leave();
        }
        if (options == null) {
            return null;
        }
        return joining(options);
    }

    /**
     * Starts this node's cluster member, in the background.
     *
     * @throws IllegalArgumentException saying what is missing when the cluster add-on is not there
     */
    private static ClusterMember joining(dev.hyperterse.server.ClusterOptions options) {
        String missing = dev.hyperterse.server.ClusterAddOn.missing();
        if (missing != null) {
            throw new IllegalArgumentException(missing);
        }
        warnOfAnotherAddOnVersion();
        logJoining(options);
        return ClusterMember.start(options);
    }

    /** A warning when the cluster add-on comes from another build than this server. */
    private static void warnOfAnotherAddOnVersion() {
        String serverVersion = Main.class.getPackage().getImplementationVersion();
        String addOnVersion = dev.hyperterse.server.ClusterAddOn.otherVersion(serverVersion);
        if (addOnVersion != null) {
            LOG.warn("{} is version {}, this server {}: take both from the same release",
                    dev.hyperterse.server.ClusterAddOn.FILE, addOnVersion, serverVersion);
        }
    }

    private static void logJoining(dev.hyperterse.server.ClusterOptions options) {
        LOG.info("joining cluster '{}' as {}:{} (members: {}{})", options.name(), options.host(), options.port(),
                options.kubernetesDns() != null ? "looked up at " + options.kubernetesDns()
                        : options.members().isEmpty() ? "none yet" : String.join(", ", options.members()),
                options.multicast() ? ", multicast on" : "");
    }

    /** A plain Vert.x, or a clustered one on {@code member} (waiting for its join). */
    private static Vertx newVertx(TelemetrySetup telemetry, ClusterMember member)
            throws ExecutionException, InterruptedException {
        if (member == null) {
            return telemetry.newVertx(new VertxOptions());
        }
        return telemetry.newClusteredVertx(
                        dev.hyperterse.server.Clustering.withEventBus(new VertxOptions(), member.options().host()),
                        member.clusterManager())
                .toCompletionStage().toCompletableFuture().get();
    }
}
