package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.testing.ProjectFiles;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** A scratch project folder with scripts, and helpers to run them on a real runtime. */
final class ScriptFixture implements AutoCloseable {
    final Path dir;
    final Vertx vertx = Vertx.vertx(new VertxOptions().setMaxEventLoopExecuteTime(2)
            .setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS));
    final ScriptEngine engine;

    ScriptFixture(Path dir, ScriptEngine engine) {
        this.dir = dir;
        this.engine = engine;
    }

    Path write(String relative, String... lines) {
        return ProjectFiles.writeLines(dir, relative, lines);
    }

    ScriptRef ref(String relative) {
        return ref(relative, "default");
    }

    ScriptRef ref(String relative, String export) {
        Path file = dir.resolve(relative).toAbsolutePath().normalize();
        return new ScriptRef(file, export, SourceLocation.of(Path.of("config.terse")));
    }

    ScriptRuntime start(int workers, ScriptRef... scripts) throws Exception {
        return await(ScriptRuntime.startScripts(vertx, engine, dir, List.of(scripts), workers, Duration.ofSeconds(5)));
    }

    /** A runtime whose scripts fetch under {@code rules}. */
    ScriptRuntime start(FetchRules rules, ScriptRef... scripts) throws Exception {
        List<ScriptRuntime.Use> uses = new java.util.ArrayList<>();
        for (ScriptRef script : scripts) {
            uses.add(new ScriptRuntime.Use("", script, java.util.Map.of()));
        }
        return await(ScriptRuntime.start(vertx, engine, dir, uses, 1, Duration.ofSeconds(5),
                dev.hyperterse.telemetry.Metrics.NONE, new ScriptAccess(List.of(dir), rules)));
    }

    /** Starts a runtime for one script, calls it once, closes the runtime. */
    Object callOnce(ScriptRef script, JsonObject payload) throws Exception {
        ScriptRuntime runtime = start(1, script);
        try {
            return await(runtime.call(script, payload, Duration.ofSeconds(5)));
        } finally {
            await(runtime.close());
        }
    }

    /** The failure a call ends with. */
    static Throwable failure(Future<?> future) throws InterruptedException {
        try {
            future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the call did not finish", e);
        }
        throw new AssertionError("the call succeeded");
    }

    static <T> T await(Future<T> future) throws Exception {
        try {
            return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
