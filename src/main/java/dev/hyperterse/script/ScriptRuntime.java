package dev.hyperterse.script;

import dev.hyperterse.model.Counted;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.telemetry.Metrics;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a project's handler and mapper scripts: one {@link ScriptPool} of contexts per script on
 * the shared {@link ScriptEngine}, calls on a Vert.x worker pool of {@code tools.script_workers}
 * threads (never on an event loop), each call cancelled when its time limit passes. The limit
 * counts from the call, waiting for a free worker included, so a caller hears back in time even
 * while runaway scripts hold every worker; a call whose limit passed while it waited never runs.
 *
 * <p>Each script is loaded once ahead of its first call (the warm-up). {@link #start} completes
 * once every script is ready; {@link #prepare} completes at once, the warm-ups running on, so a
 * server can answer its database tools meanwhile: a call to a script not ready yet waits for that
 * script's warm-up (never on an event loop) and then runs, its time limit counted from then.
 */
public final class ScriptRuntime implements ScriptInvoker {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptRuntime.class);
    /** How long past its limit a running call may take to stop before its caller is answered anyway. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** Starts the tool name of a {@link Use} that is an auth block's script rather than a tool's. */
    public static final String AUTH_USE_PREFIX = "auth@";
    /** Numbers the worker pools, one per runtime. */
    private static final java.util.concurrent.atomic.AtomicLong POOLS = new java.util.concurrent.atomic.AtomicLong();

    /**
     * One script as one tool uses it, with the environment values that tool passes in and the
     * time limit of its calls (null: the runtime's longest), which also bounds its warm-up.
     */
    public record Use(String tool, ScriptRef script, Map<String, String> env, Duration timeout) {
        public Use {
            env = Map.copyOf(env);
        }

        public Use(String tool, ScriptRef script, Map<String, String> env) {
            this(tool, script, env, null);
        }
    }

    /** Contexts are shared by uses of the same export with the same environment. */
    private record PoolKey(Path file, String export, Map<String, String> env) {
    }

    /**
     * One pool's warm-up: loading its script once ahead of the first call. Whoever claims it loads
     * the script: the warm-up task, or a call that comes before the task began (then the task
     * does nothing). {@code outcome} fails with the {@link ScriptLoadException} when the load did.
     */
    private static final class WarmUp {
        final ScriptPool pool;
        final Duration limit;
        /** How messages name the script: relative to the project folder. */
        final String script;
        final AtomicBoolean claimed = new AtomicBoolean();
        final Promise<Void> outcome = Promise.promise();
        /** Completes (never fails) once the load ended, whoever made it. */
        final Future<Void> ended = outcome.future().otherwiseEmpty();

        WarmUp(ScriptPool pool, Duration limit, String script) {
            this.pool = pool;
            this.limit = limit;
            this.script = script;
        }
    }

    /** How a call finds its pool: the tool and the script it names. */
    private record UseKey(String tool, Path file, String export) {
    }

    private final Map<UseKey, ScriptPool> pools;
    /** The warm-ups, in the order the scripts are named. */
    private final List<WarmUp> warmUps;
    private final Map<ScriptPool, WarmUp> readiness;
    /** Every warm-up: fails with the first {@link ScriptLoadException}. */
    private final Future<Void> warmed;
    private final AtomicBoolean warmUpBegun = new AtomicBoolean();
    /** Set once {@link #close()} began: a warm-up it cancels is no failure to report. */
    private final AtomicBoolean closing = new AtomicBoolean();
    private final WorkerExecutor workers;
    /** Where warm-ups run: {@link #workers} when nothing is served meanwhile, else a smaller pool of their own. */
    private final WorkerExecutor warmer;
    private final ScheduledExecutorService watchdog;
    private final ScriptFetch fetch;
    private final Vertx vertx;
    private final Metrics metrics;
    /** How the log describes the runtime once every script is ready (GraalJS has started by then). */
    private final java.util.function.Supplier<String> description;

    private ScriptRuntime(Vertx vertx, Map<UseKey, ScriptPool> pools, List<WarmUp> warmUps, WorkerExecutor workers,
                          WorkerExecutor warmer, ScheduledExecutorService watchdog, ScriptFetch fetch, Metrics metrics,
                          java.util.function.Supplier<String> description) {
        this.vertx = vertx;
        this.pools = pools;
        this.warmUps = List.copyOf(warmUps);
        Map<ScriptPool, WarmUp> byPool = new java.util.IdentityHashMap<>();
        List<Future<Void>> outcomes = new ArrayList<>();
        for (WarmUp w : warmUps) {
            byPool.put(w.pool, w);
            outcomes.add(w.outcome.future());
        }
        this.readiness = byPool;
        this.warmed = Future.all(outcomes).mapEmpty();
        this.workers = workers;
        this.warmer = warmer;
        this.watchdog = watchdog;
        this.fetch = fetch;
        this.metrics = metrics;
        this.description = description;
    }

    /**
     * Loads every script once (the warm-up: parse, link, run top-level code) on the worker pool
     * and completes when all are ready, or fails with the first {@link ScriptLoadException}.
     * Parameters as {@link #prepare}.
     */
    public static Future<ScriptRuntime> start(Vertx vertx, ScriptEngine engine, Path projectDir,
                                              Collection<Use> uses, int workerCount, Duration longestTimeout,
                                              Metrics metrics, ScriptAccess access) {
        return open(vertx, engine, projectDir, uses, workerCount, longestTimeout, metrics, access, false)
                .compose(runtime -> runtime.warmed.transform(ar -> ar.succeeded() ? Future.succeededFuture(runtime)
                        : runtime.close().transform(x -> Future.<ScriptRuntime>failedFuture(ar.cause()))));
    }

    /**
     * Sets the runtime up and completes at once; the scripts' warm-ups (parse, link, run
     * top-level code) begin with {@link #warmUp()}, one script after another on a pool of their
     * own (half the processors), so the calls' workers and the event loops keep the rest of the
     * machine. A call to a script whose warm-up has not begun makes it itself; one whose warm-up
     * is under way waits for it (see {@link #call}); {@link #ready()} tells when every one has
     * ended. A warm-up that fails is logged, and the script's calls load it themselves (answering
     * the reason should it fail again): the caller is expected to have checked the scripts before.
     *
     * @param workerCount    threads for script calls
     * @param longestTimeout the longest script time limit, so Vert.x's blocked-thread checker
     *                       only warns about workers held longer than any limit allows; a script's
     *                       warm-up, whose top-level code is cancelled when it passes, has the
     *                       longest limit of the uses sharing its contexts (this, for a use without one)
     * @param metrics        where calls, busy workers, queueing and loaded contexts are reported
     * @param access         what the scripts may reach: module folders and where {@code fetch} may go
     */
    public static Future<ScriptRuntime> prepare(Vertx vertx, ScriptEngine engine, Path projectDir,
                                                Collection<Use> uses, int workerCount, Duration longestTimeout,
                                                Metrics metrics, ScriptAccess access) {
        return open(vertx, engine, projectDir, uses, workerCount, longestTimeout, metrics, access, true);
    }

    /** @param serving whether calls may come before the warm-ups end (then a failed one is logged) */
    private static Future<ScriptRuntime> open(Vertx vertx, ScriptEngine engine, Path projectDir,
                                              Collection<Use> uses, int workerCount, Duration longestTimeout,
                                              Metrics metrics, ScriptAccess access, boolean serving) {
        ScriptFetch fetch = new ScriptFetch(vertx, access.fetch());
        ScriptContexts contexts;
        try {
            contexts = new ScriptContexts(engine, projectDir, ScriptAccess.foldersWith(access.moduleFolders(),
                    uses.stream().map(Use::script).toList()), fetch);
        } catch (IOException e) {
            fetch.close();
            return Future.failedFuture(new ScriptLoadException(projectDir, 0, 0, "cannot open the project folder: "
                    + e.getMessage()));
        }
        // A context switch per call is the price of never running scripts on an event loop.
        long maxExecute = longestTimeout.plusSeconds(30).toMillis();
        // a name of its own: Vert.x reuses a live pool of the same name with its old size, and on a
        // reload the outgoing version's pool is still open when this one starts
        long number = POOLS.incrementAndGet();
        WorkerExecutor workers = vertx.createSharedWorkerExecutor("hyperterse-scripts-" + number,
                workerCount, maxExecute, TimeUnit.MILLISECONDS);
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hyperterse-script-watchdog");
            t.setDaemon(true);
            return t;
        });
        Map<PoolKey, ScriptPool> distinct = new LinkedHashMap<>();
        Map<PoolKey, Duration> warmLimits = new java.util.HashMap<>();
        Map<UseKey, ScriptPool> pools = new LinkedHashMap<>();
        for (Use use : uses) {
            ScriptRef script = use.script();
            PoolKey key = new PoolKey(script.file(), script.exportName(), use.env());
            ScriptPool pool = distinct.computeIfAbsent(key,
                    k -> new ScriptPool(script, use.env(), contexts, watchdog, metrics));
            warmLimits.merge(key, use.timeout() != null ? use.timeout() : longestTimeout,
                    (a, b) -> a.compareTo(b) >= 0 ? a : b);
            pools.put(new UseKey(use.tool(), script.file(), script.exportName()), pool);
        }
        List<WarmUp> warmUps = new ArrayList<>();
        distinct.forEach((key, pool) -> warmUps.add(new WarmUp(pool, warmLimits.get(key),
                contexts.displayName(key.file()))));
        // while serving, warm-ups leave the calls' workers and half the processors to the calls
        int warmThreads = Math.max(1, Math.min(workerCount, Runtime.getRuntime().availableProcessors() / 2));
        WorkerExecutor warmer = serving ? vertx.createSharedWorkerExecutor("hyperterse-script-warm-up-" + number,
                warmThreads, maxExecute, TimeUnit.MILLISECONDS) : workers;
        ScriptRuntime runtime = new ScriptRuntime(vertx, Map.copyOf(pools), warmUps, workers, warmer, watchdog, fetch,
                metrics, () -> "loaded and warmed on " + engine.mode() + ", " + Counted.of(workerCount, "worker"));
        if (!serving) {
            runtime.warmUp();
        }
        return Future.succeededFuture(runtime);
    }

    /**
     * Begins loading every script once, ahead of its first call (a script a call has begun
     * loading already is left to it); does nothing after the first time. {@link #start} begins
     * it itself; after {@link #prepare}, the server does once it serves.
     */
    public void warmUp() {
        if (!warmUpBegun.compareAndSet(false, true)) {
            return;
        }
        long started = System.nanoTime();
        for (WarmUp w : warmUps) {
            warmer.executeBlocking(() -> {
                if (!w.claimed.compareAndSet(false, true)) {
                    return false; // a call is loading it
                }
                long t0 = System.nanoTime();
                w.pool.warm(w.limit);
                LOG.debug("script {} loaded in {} ms", w.script, (System.nanoTime() - t0) / 1_000_000);
                return true;
            }, false).onComplete(ar -> {
                if (ar.failed() || ar.result()) {
                    settle(w, ar.cause());
                }
            });
        }
        Future.join(warmUps.stream().map(w -> (Future<Void>) w.outcome.future()).toList()).onComplete(ar -> {
            if (closing.get()) {
                return;
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            long failed = warmUps.stream().filter(w -> w.outcome.future().failed()).count();
            if (failed == 0) {
                LOG.info("scripts: {} ready in {} ms ({})", warmUps.size(), millis, description.get());
            } else if (warmer != workers) {
                LOG.info("scripts: {} of {} ready in {} ms ({} could not be loaded)", warmUps.size() - failed,
                        warmUps.size(), millis, failed);
            }
        });
    }

    /**
     * A warm-up's load ended, {@code failure} null when it succeeded: its outcome is set, and a
     * failure said as an error while serving (when no start-up waits to report it).
     */
    private void settle(WarmUp w, Throwable failure) {
        if (failure == null) {
            w.outcome.tryComplete();
        } else if (w.outcome.tryFail(failure) && warmer != workers && !closing.get()) {
            // at the error's position when it has one (a syntax error), as the start-up check reports it
            String at = failure instanceof ScriptLoadException le && le.line() > 0 && le.file() != null
                    && le.file().equals(w.pool.script().file()) ? w.script + ":" + le.line() + ":" + le.column() : w.script;
            LOG.error("scripts: {} could not be loaded: {} (its calls load it again, and answer this error should "
                    + "it persist)", at, failure.getMessage());
        }
    }

    /**
     * Completes once every script's warm-up has ended, or fails with the first
     * {@link ScriptLoadException} (the calls to that script load it again themselves).
     */
    public Future<Void> ready() {
        return warmed;
    }

    /** Starts a runtime for scripts that no tool passes environment values to (tests, checks). */
    public static Future<ScriptRuntime> startScripts(Vertx vertx, ScriptEngine engine, Path projectDir,
                                                     Collection<ScriptRef> scripts, int workerCount,
                                                     Duration longestTimeout) {
        List<Use> uses = new ArrayList<>();
        scripts.forEach(s -> uses.add(new Use("", s, Map.of())));
        return start(vertx, engine, projectDir, uses, workerCount, longestTimeout, Metrics.NONE,
                new ScriptAccess(List.of(projectDir), FetchRules.OPEN));
    }

    /** A call for scripts started with {@link #startScripts}. */
    public Future<Object> call(ScriptRef script, JsonObject payload, Duration timeout) {
        return call("", script, payload, timeout);
    }

    /**
     * Runs a call on a worker within {@code timeout}. A call to a script whose warm-up has not
     * ended yet waits for it first (a callback, no thread waits), or makes it itself when it has not
     * begun; either way its limit counts from the end of the warm-up, since loading a script the
     * first time is the server's start-up work, not the call's (the warm-up is bounded on its own:
     * top-level code still running at its limit is cancelled).
     */
    @Override
    public Future<Object> call(String tool, ScriptRef script, JsonObject payload, Duration timeout, ClientReach reach) {
        ScriptPool pool = pools.get(new UseKey(tool, script.file(), script.exportName()));
        if (pool == null) {
            return Future.failedFuture(new ScriptFailure("the script " + script.file().getFileName() + " was not loaded"));
        }
        long called = System.nanoTime();
        WarmUp warmUp = readiness.get(pool);
        Future<Object> answer;
        if (warmUp.ended.isComplete()) {
            answer = run(tool, script, pool, payload, timeout, called, reach);
        } else if (warmUp.claimed.compareAndSet(false, true)) {
            // its warm-up has not begun: this call makes it (on a call worker), then runs
            answer = warmUpFor(warmUp).transform(ar -> ar.succeeded()
                    ? run(tool, script, pool, payload, timeout, System.nanoTime(), reach)
                    : Future.failedFuture(ar.cause() instanceof ScriptLoadException load
                            ? pool.loadFailed(load, warmUp.limit) : ar.cause()));
        } else {
            // under way: the call runs once it has ended (should it have failed, the call loads the
            // script again and answers the reason if it persists)
            answer = warmUp.ended.transform(x -> run(tool, script, pool, payload, timeout, System.nanoTime(), reach));
        }
        return answer.andThen(ar -> metrics.scriptCall(metricLabel(tool), outcome(ar.cause()),
                System.nanoTime() - called));
    }

    /** A warm-up a call claimed, made on a call worker; its outcome is the script's warm-up's. */
    private Future<Void> warmUpFor(WarmUp warmUp) {
        long queued = System.nanoTime();
        return workers.<Void>executeBlocking(() -> {
            metrics.scriptWorkerBusy(System.nanoTime() - queued);
            try {
                warmUp.pool.warm(warmUp.limit);
            } finally {
                metrics.scriptWorkerIdle();
            }
            return null;
        }, false).andThen(ar -> settle(warmUp, ar.cause()));
    }

    /** Runs a call on a worker, its time limit counted from {@code called}. */
    private Future<Object> run(String tool, ScriptRef script, ScriptPool pool, JsonObject payload, Duration timeout,
                               long called, ClientReach reach) {
        long deadline = called + timeout.toNanos();
        Promise<Object> answer = Promise.promise();
        // the timer answers a call still waiting for a worker; once running, the watchdog stops it
        AtomicBoolean decided = new AtomicBoolean();
        long[] timer = new long[1];
        timer[0] = vertx.setTimer(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), id -> {
            if (decided.compareAndSet(false, true)) {
                metrics.scriptQueueTimedOut(System.nanoTime() - called);
                answer.tryFail(waitedTooLong(timeout));
            } else {
                // running: the watchdog stops it; should the script not stop, the caller still hears
                timer[0] = vertx.setTimer(STOP_GRACE.toMillis(), late -> {
                    if (answer.tryFail(new ScriptFailure("timed out after " + Durations.show(timeout), true, null))) {
                        LOG.warn("a script for tool {} did not stop {} after its time limit; its worker stays busy",
                                tool.isEmpty() ? script.file().getFileName() : tool, Durations.show(STOP_GRACE));
                    }
                });
            }
        });
        workers.executeBlocking(() -> {
            if (!decided.compareAndSet(false, true)) {
                // the timer answered already: its time passed while it waited
                throw waitedTooLong(timeout);
            }
            long now = System.nanoTime();
            if (now >= deadline) {
                // starting it now would only hold a worker
                metrics.scriptQueueTimedOut(now - called);
                throw waitedTooLong(timeout);
            }
            metrics.scriptWorkerBusy(now - called);
            try {
                return pool.run(payload, timeout, deadline, reach);
            } finally {
                metrics.scriptWorkerIdle();
            }
        }, false).onComplete(ar -> {
            vertx.cancelTimer(timer[0]);
            if (ar.succeeded()) {
                answer.tryComplete(ar.result());
            } else {
                answer.tryFail(ar.cause());
            }
        });
        return answer.future();
    }

    /** How a call ended, for metrics: {@code ok}, {@code timeout}, {@code memory} (stopped by the memory guard) or {@code error}. */
    private static String outcome(Throwable failure) {
        if (failure == null) {
            return "ok";
        }
        if (failure instanceof ScriptFailure scriptFailure) {
            return scriptFailure.timedOut() ? "timeout" : scriptFailure.memory() ? "memory" : "error";
        }
        return "error";
    }

    /** Tool names label script metrics; auth scripts, which belong to no one tool, count as {@code (auth)}. */
    private static String metricLabel(String tool) {
        return tool.startsWith(AUTH_USE_PREFIX) ? "(auth)" : tool;
    }

    private static ScriptFailure waitedTooLong(Duration timeout) {
        return new ScriptFailure("timed out after " + Durations.show(timeout) + " waiting for a free script worker",
                true, null);
    }

    /** Contexts alive now for a script (for tests and metrics). */
    public int contexts(ScriptRef script) {
        ScriptPool pool = pools.get(new UseKey("", script.file(), script.exportName()));
        return pool == null ? 0 : pool.size();
    }

    /**
     * Cancels running calls, closes every context and stops the worker pool. Closing contexts
     * waits for cancelled code to stop, so it runs on Vert.x's own worker pool: the script
     * workers may all be busy, and an event loop must not wait.
     */
    public Future<Void> close() {
        closing.set(true);
        return vertx.executeBlocking(() -> {
            new java.util.HashSet<>(pools.values()).forEach(ScriptPool::close);
            watchdog.shutdownNow();
            // calls still waiting for a warm-up that will not run now go on, and hear the pool is closed
            warmUps.forEach(w -> w.outcome.tryFail(new ScriptLoadException(w.pool.file(), 0, 0,
                    "the server is shutting down")));
            return null;
        }, false).transform(x -> Future.join(workers.close(), warmer == workers ? Future.succeededFuture()
                : warmer.close(), fetch.close()).mapEmpty());
    }
}
