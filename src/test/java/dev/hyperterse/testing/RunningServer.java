package dev.hyperterse.testing;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.server.HyperterseServer;
import dev.hyperterse.server.ServeOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/** A real server on a free loopback port, serving a project folder; for end-to-end tests. */
public final class RunningServer implements AutoCloseable {
    private final Vertx vertx;
    private final HyperterseServer server;
    private final Project project;
    private final List<AutoCloseable> alsoClose = new ArrayList<>();

    private RunningServer(Vertx vertx, HyperterseServer server, Project project) {
        this.vertx = vertx;
        this.server = server;
        this.project = project;
    }

    public static RunningServer start(Path projectDir) throws Exception {
        return start(projectDir, Map.of(), s -> s);
    }

    public static RunningServer start(Path projectDir, Map<String, String> env, UnaryOperator<ServerSettings.Builder> tweak)
            throws Exception {
        return start(projectDir, env, tweak, ServeOptions.DEFAULTS);
    }

    public static RunningServer start(Path projectDir, UnaryOperator<ServerSettings.Builder> tweak, ServeOptions options)
            throws Exception {
        return start(projectDir, Map.of(), tweak, options);
    }

    public static RunningServer start(Path projectDir, Map<String, String> env, UnaryOperator<ServerSettings.Builder> tweak,
                                      ServeOptions options) throws Exception {
        return start(projectDir, env, Connectors.builtIn(), tweak, options);
    }

    /**
     * With these connectors, and a Vert.x instance from the options' telemetry setup (so its HTTP
     * server and SQL clients report into it). Tests that reload pass {@link #recompile}.
     */
    public static RunningServer start(Path projectDir, Map<String, String> env, Connectors connectors,
                                      UnaryOperator<ServerSettings.Builder> tweak, ServeOptions options) throws Exception {
        return start(projectDir, env, connectors, tweak, options, new VertxOptions().setMaxEventLoopExecuteTime(2)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS));
    }

    /** With Vert.x options of the test's own (e.g. a stricter blocked-thread check). */
    public static RunningServer start(Path projectDir, Map<String, String> env, Connectors connectors,
                                      UnaryOperator<ServerSettings.Builder> tweak, ServeOptions options,
                                      VertxOptions vertxOptions) throws Exception {
        AuthPlugins auth = AuthPlugins.builtIn();
        Project project = new ProjectCompiler(env, connectors.types(), auth.names()).compile(projectDir);
        Vertx vertx = options.telemetry().newVertx(vertxOptions);
        ServerSettings settings = tweak.apply(project.config().server().toBuilder()).build();
        try {
            HyperterseServer server = HyperterseServer.start(vertx, project, settings, 0, connectors, auth, options)
                    .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            return new RunningServer(vertx, server, project);
        } catch (Exception e) {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Compiles {@code projectDir} again, as {@code start --watch} does on a change. */
    public static java.util.concurrent.Callable<Project> recompile(Path projectDir, Map<String, String> env,
                                                                  Connectors connectors) {
        AuthPlugins auth = AuthPlugins.builtIn();
        return () -> {
            Project p = new ProjectCompiler(env, connectors.types(), auth.names()).compile(projectDir);
            dev.hyperterse.server.ToolAssembly.of(p, connectors, auth);
            return p;
        };
    }

    /** The built-in connectors plus {@code connector: delay}. */
    public static Connectors withDelay(DelayConnectors delay) {
        return new Connectors(java.util.List.of(new dev.hyperterse.connector.sqlite.SqliteConnectorFactory(), delay));
    }

    /** Adds (or replaces) a tool folder {@code app/tools/<name>} with this config. */
    public static void writeTool(Path projectDir, String name, String config) {
        ProjectFiles.write(projectDir, "app/tools/" + name + "/config.terse", config);
    }

    /** Copies an example project from {@code tools-examples/} into a scratch folder. */
    public static Path copyExample(String name, Path into) {
        Path source = Path.of("tools-examples", name);
        Path target = into.resolve(name);
        try {
            Files.walkFileTree(source, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    if (dir.getFileName().toString().equals("data") || dir.getFileName().toString().equals("node_modules")) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    Files.createDirectories(target.resolve(source.relativize(dir)));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".aot") || name.endsWith(".jsa")) {
                        return FileVisitResult.CONTINUE; // a start-up cache made beside the example
                    }
                    Files.copy(file, target.resolve(source.relativize(file)));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    public HyperterseServer server() {
        return server;
    }

    public int port() {
        return server.port();
    }

    public String mcpUrl() {
        return "http://127.0.0.1:" + port() + "/mcp";
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    public Project project() {
        return project;
    }

    /** Closes {@code resource} (a telemetry set-up, say) once the server and its Vert.x are closed; returns this. */
    public RunningServer alsoClosing(AutoCloseable resource) {
        alsoClose.add(resource);
        return this;
    }

    @Override
    public void close() throws Exception {
        // one after the other from this thread: a vertx.close() chained inside a Vert.x callback
        // would wait for the very context it is closing
        try {
            server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        for (AutoCloseable resource : alsoClose) {
            resource.close();
        }
    }
}
