package dev.hyperterse.pipeline;

import dev.hyperterse.auth.AuthCheck;
import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.cache.CaffeineResultCache;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.server.ToolAssembly;
import dev.hyperterse.telemetry.Telemetry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A project folder compiled and assembled, its auth checks started and its SQLite adapter
 * {@code db} connected: what a pipeline test over a real database stands on.
 */
final class SqliteProject implements AutoCloseable {
    final Vertx vertx = Vertx.vertx();
    /** The adapter {@code db}. */
    final Connector sqlite;
    private final Project project;
    private final ToolAssembly assembly;

    SqliteProject(Path dir) throws Exception {
        Connectors connectors = Connectors.builtIn();
        AuthPlugins auth = AuthPlugins.builtIn();
        project = new ProjectCompiler(Map.of(), connectors.types(), auth.names()).compile(dir);
        assembly = ToolAssembly.of(project, connectors, auth);
        for (AuthCheck check : assembly.distinctAuthChecks()) {
            await(check.start(vertx));
        }
        sqlite = await(connectors.get("sqlite").connect(vertx, project.adapters().get("db"), dir));
    }

    /** A pipeline of the project's tools whose adapter {@code db} is {@code db}, with a 1 MB result cache. */
    Pipeline pipeline(Connector db) {
        return pipeline(db, Telemetry.NONE);
    }

    /** The same, counting with {@code telemetry}. */
    Pipeline pipeline(Connector db, Telemetry telemetry) {
        return new Pipeline(project.tools(), assembly.statements(), Map.of("db", db), assembly.authChecks(),
                new CaffeineResultCache(vertx, 1 << 20), null, telemetry);
    }

    @Override
    public void close() throws Exception {
        await(sqlite.close());
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
}
