package dev.hyperterse.server;

import dev.hyperterse.model.Counted;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectException;
import dev.hyperterse.telemetry.Metrics;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Replaces the served snapshot with a freshly compiled and connected one. The new snapshot is
 * complete (compiled, every adapter connected, every statement prepared, auth started) before a
 * single reference swap puts it in service; calls already running finish on the old one, which
 * is closed once they are done or the drain timeout passed. A project that does not compile or
 * connect leaves the old snapshot serving, and every reason is logged ({@code file:line} where
 * there is one). Reloads never overlap: requests made while one runs are answered together by
 * one more reload after it, which sees the latest files.
 */
public final class Reloader {
    private static final Logger LOG = LoggerFactory.getLogger(Reloader.class);

    private final Vertx vertx;
    private final Callable<Project> compile;
    private final Function<Project, Future<Snapshot>> open;
    private final CurrentSnapshot current;
    private final BiConsumer<Snapshot, Snapshot> swapped;
    private final Duration drainTimeout;
    private final Metrics metrics;
    private final AtomicLong generation = new AtomicLong(1);
    private final Set<Future<Void>> retiring = ConcurrentHashMap.newKeySet();
    // guarded by this
    private List<Promise<Void>> waiting = new ArrayList<>();
    private boolean running;
    private boolean closed;
    private Promise<Void> idle;

    /**
     * @param compile      compiles the project folder again (blocking: it runs on a worker thread)
     *                     and fails with a {@link ProjectException} listing every problem
     * @param open         connects a compiled project into a snapshot, or fails with a {@link StartupException}
     * @param swapped      told (old, new) right after the swap, e.g. to notify sessions
     * @param drainTimeout how long calls running on a replaced snapshot may take before it is closed anyway
     */
    Reloader(Vertx vertx, Callable<Project> compile, Function<Project, Future<Snapshot>> open, CurrentSnapshot current,
             BiConsumer<Snapshot, Snapshot> swapped, Duration drainTimeout, Metrics metrics) {
        this.vertx = vertx;
        this.compile = compile;
        this.open = open;
        this.current = current;
        this.swapped = swapped;
        this.drainTimeout = drainTimeout;
        this.metrics = metrics;
    }

    /** 1 for the snapshot the server started with, +1 per applied reload. */
    public long generation() {
        return generation.get();
    }

    /**
     * Compiles and connects the project again and, when that works, serves it. Completes once the
     * new snapshot serves; fails (with a {@link StartupException} listing every reason) when the
     * old one keeps serving. Callable from any thread (a watcher, an admin call, another node).
     */
    public Future<Void> reload() {
        Promise<Void> done = Promise.promise();
        boolean start;
        synchronized (this) {
            if (closed) {
                return Future.failedFuture(new IllegalStateException("the server is stopping"));
            }
            waiting.add(done);
            start = !running;
            running = true;
        }
        if (start) {
            next();
        }
        return done.future();
    }

    /** Runs one reload for everyone waiting, then again if more asked meanwhile. */
    private void next() {
        List<Promise<Void>> batch;
        synchronized (this) {
            batch = waiting;
            waiting = new ArrayList<>();
            if (batch.isEmpty() || closed) {
                running = false;
                batch.forEach(p -> p.tryFail(new IllegalStateException("the server is stopping")));
                if (idle != null) {
                    idle.tryComplete();
                }
                return;
            }
        }
        attempt().onComplete(ar -> {
            batch.forEach(p -> p.handle(ar));
            next();
        });
    }

    private Future<Void> attempt() {
        long started = System.nanoTime();
        return vertx.executeBlocking(compile, false)
                .recover(e -> Future.failedFuture(e instanceof ProjectException
                        ? new StartupException(((ProjectException) e).problems().stream()
                                .map(ConfigProblem::toString).toList())
                        : e))
                .compose(open)
                .compose(this::swapIn)
                .andThen(ar -> {
                    metrics.reload(ar.succeeded());
                    if (ar.succeeded()) {
                        Snapshot now = current.peek();
                        LOG.info("reloaded '{}' in {} ms: {}, {} (generation {})",
                                now.project().config().name(), (System.nanoTime() - started) / 1_000_000,
                                Counted.of(now.project().tools().size(), "tool"),
                                Counted.of(now.project().adapters().size(), "adapter"), generation.get());
                    } else {
                        logFailure(ar.cause());
                    }
                });
    }

    private Future<Void> swapIn(Snapshot next) {
        synchronized (this) {
            if (closed) {
                return next.close().transform(x -> Future.failedFuture(new IllegalStateException("the server is stopping")));
            }
        }
        Snapshot old = current.swap(next);
        generation.incrementAndGet();
        try {
            swapped.accept(old, next);
        } catch (RuntimeException e) {
            LOG.warn("after the reload: {}", e.toString());
        }
        retire(old);
        return Future.succeededFuture();
    }

    /** Closes a replaced snapshot once the calls it serves are done, or after the drain timeout. */
    void retire(Snapshot old) {
        Promise<Void> deadline = Promise.promise();
        long timer = vertx.setTimer(Math.max(1, drainTimeout.toMillis()), id -> deadline.tryComplete());
        Future<Void> closing = Future.any(old.calls().drain(), deadline.future())
                .transform(x -> {
                    vertx.cancelTimer(timer);
                    int left = old.calls().count();
                    if (left > 0) {
                        LOG.warn("closing the previous version with {} still running after {} ms",
                                Counted.of(left, "call"), drainTimeout.toMillis());
                    }
                    return old.close();
                })
                .recover(e -> {
                    LOG.warn("closing the previous version: {}", e.getMessage());
                    return Future.succeededFuture();
                });
        retiring.add(closing);
        closing.onComplete(x -> retiring.remove(closing));
    }

    private static void logFailure(Throwable e) {
        List<String> reasons = e instanceof StartupException ? ((StartupException) e).reasons()
                : List.of(String.valueOf(e.getMessage()));
        LOG.error("reload failed, still serving the previous version ({} {}):", reasons.size(),
                reasons.size() == 1 ? "problem" : "problems");
        for (String reason : reasons) {
            LOG.error("  {}", reason);
        }
        if (!(e instanceof StartupException)) {
            LOG.debug("reload failure", e);
        }
    }

    /**
     * Takes no more reloads, waits for one in progress, then for replaced snapshots to drain and
     * close. The current snapshot is the server's to close.
     */
    Future<Void> close() {
        Future<Void> quiet;
        synchronized (this) {
            closed = true;
            if (running) {
                idle = Promise.promise();
                quiet = idle.future();
            } else {
                quiet = Future.succeededFuture();
            }
        }
        return quiet.transform(x -> Future.join(new ArrayList<>(retiring)).<Void>mapEmpty())
                .recover(e -> Future.succeededFuture());
    }
}
