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
 * script's warm-up (never on an event loop, within the call's own time limit) and then runs.
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

    /** A pool's warm-up, completed (never failed) once it ended, and how messages name its script. */
    private record WarmUp(Future<Void> ended, String script) {
    }

    /** How a call finds its pool: the tool and the script it names. */
    private record UseKey(String tool, Path file, String export) {
    }

    private final Map<UseKey, ScriptPool> pools;
    /**
     * Each pool's warm-up, completed (never failed) once it ended: a call to a pool whose
     * warm-up failed loads the script itself, and answers the reason should it fail again.
     */
    private final Map<ScriptPool, WarmUp> readiness;
    /** Every warm-up: fails with the first {@link ScriptLoadException}. */
    private final Future<Void> warmed;
    /** Set once {@link #close()} began. */
    private final AtomicBoolean closing;
    private final WorkerExecutor workers;
    private final ScheduledExecutorService watchdog;
    private final ScriptFetch fetch;
    private final Vertx vertx;
    private final Metrics metrics;

    private ScriptRuntime(Vertx vertx, Map<UseKey, ScriptPool> pools, Map<ScriptPool, WarmUp> readiness,
                          Future<Void> warmed, AtomicBoolean closing, WorkerExecutor workers,
                          ScheduledExecutorService watchdog, ScriptFetch fetch, Metrics metrics) {
        this.vertx = vertx;
        this.pools = pools;
        this.readiness = readiness;
        this.warmed = warmed;
        this.closing = closing;
        this.workers = workers;
        this.watchdog = watchdog;
        this.fetch = fetch;
        this.metrics = metrics;
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
     * Sets the runtime up and completes at once, each script's warm-up (parse, link, run
     * top-level code) running on the worker pool meanwhile: a call to a script not warmed yet
     * waits for it (see {@link #call}); {@link #ready()} tells when every warm-up has ended. A
     * warm-up that fails is logged, and the script's calls load it themselves (answering the
     * reason should it fail again): the caller is expected to have checked the scripts before.
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
        WorkerExecutor workers = vertx.createSharedWorkerExecutor("hyperterse-scripts-" + POOLS.incrementAndGet(),
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
        long started = System.nanoTime();
        // set by close(): a warm-up it cancels is no failure to report
        AtomicBoolean closing = new AtomicBoolean();
        List<Future<Void>> warming = new ArrayList<>();
        Map<ScriptPool, WarmUp> readiness = new java.util.IdentityHashMap<>();
        distinct.forEach((key, pool) -> {
            String name = contexts.displayName(key.file());
            Future<Void> warm = workers.executeBlocking(() -> {
                long t0 = System.nanoTime();
                pool.warm(warmLimits.get(key));
                LOG.debug("script {}#{} loaded in {} ms", key.file(), key.export(),
                        (System.nanoTime() - t0) / 1_000_000);
                return null;
            }, false);
            if (serving) {
                warm.onFailure(e -> {
                    if (!closing.get()) {
                        LOG.error("scripts: {} could not be loaded: {} (its calls load it again, and answer this "
                                + "error should it persist)", name, e.getMessage());
                    }
                });
            }
            warming.add(warm);
            readiness.put(pool, new WarmUp(warm.otherwiseEmpty(), name));
        });
        Future<Void> warmed = Future.all(warming).mapEmpty();
        ScriptRuntime runtime = new ScriptRuntime(vertx, Map.copyOf(pools), readiness, warmed, closing, workers,
                watchdog, fetch, metrics);
        Future.join(warming).onComplete(ar -> {
            long millis = (System.nanoTime() - started) / 1_000_000;
            long failed = warming.stream().filter(Future::failed).count();
            if (closing.get()) {
                return;
            }
            if (failed == 0) {
                LOG.info("scripts: {} ready in {} ms (loaded and warmed on {}, {})", distinct.size(), millis,
                        engine.mode(), Counted.of(workerCount, "worker"));
            } else if (serving) {
                LOG.info("scripts: {} of {} ready in {} ms ({} could not be loaded)", distinct.size() - failed,
                        distinct.size(), millis, failed);
            }
        });
        return Future.succeededFuture(runtime);
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
     * Runs a call on a worker within {@code timeout} from now. A call to a script whose warm-up
     * has not ended yet waits for it first (a callback, no thread waits), within the same limit:
     * past it, the call fails saying it waited for the script to be ready.
     */
    @Override
    public Future<Object> call(String tool, ScriptRef script, JsonObject payload, Duration timeout, ClientReach reach) {
        ScriptPool pool = pools.get(new UseKey(tool, script.file(), script.exportName()));
        if (pool == null) {
            return Future.failedFuture(new ScriptFailure("the script " + script.file().getFileName() + " was not loaded"));
        }
        long called = System.nanoTime();
        WarmUp warmUp = readiness.get(pool);
        Future<Object> answer = warmUp.ended().isComplete() ? run(tool, script, pool, payload, timeout, called, reach)
                : afterWarmUp(warmUp, tool, script, pool, payload, timeout, called, reach);
        return answer.andThen(ar -> metrics.scriptCall(metricLabel(tool), outcome(ar.cause()),
                System.nanoTime() - called));
    }

    /** A call made while its script's warm-up still runs: it runs once that has ended, if its time allows. */
    private Future<Object> afterWarmUp(WarmUp warmUp, String tool, ScriptRef script, ScriptPool pool,
                                       JsonObject payload, Duration timeout, long called, ClientReach reach) {
        Promise<Object> answer = Promise.promise();
        AtomicBoolean decided = new AtomicBoolean();
        long timer = vertx.setTimer(Math.max(1, timeout.toMillis()), id -> {
            if (decided.compareAndSet(false, true)) {
                answer.fail(notReadyInTime(warmUp, timeout));
            }
        });
        warmUp.ended().onComplete(x -> {
            if (!decided.compareAndSet(false, true)) {
                return; // the timer answered already
            }
            vertx.cancelTimer(timer);
            if (System.nanoTime() - (called + timeout.toNanos()) >= 0) {
                answer.fail(notReadyInTime(warmUp, timeout));
                return;
            }
            run(tool, script, pool, payload, timeout, called, reach).onComplete(answer);
        });
        return answer.future();
    }

    private static ScriptFailure notReadyInTime(WarmUp warmUp, Duration timeout) {
        return new ScriptFailure("timed out after " + Durations.show(timeout) + " waiting for the script "
                + warmUp.script() + " to be ready: the server is still loading it", true, null);
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
            return null;
        }, false).transform(x -> Future.join(workers.close(), fetch.close()).mapEmpty());
    }
}
