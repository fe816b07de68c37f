package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.telemetry.Metrics;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The contexts one script runs in. A call takes an idle context (or loads a new one), and gives
 * it back afterwards unless it was cancelled; at most one context per worker thread is ever
 * needed. Idle contexts are reused last-in first-out, so the warm ones stay warm.
 */
final class ScriptPool {
    private final ScriptRef script;
    private final Map<String, String> env;
    private final ScriptContexts contexts;
    private final ScheduledExecutorService watchdog;
    private final Metrics metrics;
    /** Stops running calls when the heap stays nearly full (installed with the first pool). */
    private final MemoryGuard memoryGuard = MemoryGuard.shared();
    private final Deque<LoadedScript> idle = new ConcurrentLinkedDeque<>();
    private final Set<LoadedScript> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** The script this pool's contexts load. */
    ScriptRef script() {
        return script;
    }

    ScriptPool(ScriptRef script, Map<String, String> env, ScriptContexts contexts, ScheduledExecutorService watchdog) {
        this(script, env, contexts, watchdog, Metrics.NONE);
    }

    /** @param metrics told how many contexts are loaded */
    ScriptPool(ScriptRef script, Map<String, String> env, ScriptContexts contexts, ScheduledExecutorService watchdog,
               Metrics metrics) {
        this.script = script;
        this.env = Map.copyOf(env);
        this.contexts = contexts;
        this.watchdog = watchdog;
        this.metrics = metrics;
    }

    /**
     * Loads one context ahead of the first call. Runs on a worker thread; the script's top-level
     * code still running after {@code limit} is cancelled and the load fails.
     */
    void warm(Duration limit) throws ScriptLoadException {
        release(load(limit));
    }

    /**
     * Runs one call on the current (worker) thread. The time limit counts from now, loading a
     * fresh context included; when it passes, the watchdog cancels the context and this call fails.
     * The {@link MemoryGuard} cancels it too when the heap stays nearly full while it runs.
     */
    Object run(JsonObject payload, Duration limit) {
        return run(payload, limit, -1, ClientReach.NONE);
    }

    /**
     * Runs one call that must end by {@code deadline} ({@link System#nanoTime()}; -1: the limit
     * from now), so time spent waiting for this thread and loading a fresh context counts; the
     * message names {@code limit}. A fresh context's top-level code still running {@code limit}
     * after it started is cancelled.
     */
    Object run(JsonObject payload, Duration limit, long deadline, ClientReach reach) {
        long end = deadline == -1 ? System.nanoTime() + limit.toNanos() : deadline;
        LoadedScript loaded;
        try {
            // a fresh context's top-level code gets the whole limit from its start, as at start-up:
            // cut at the call's deadline, a load slowed by a busy machine would be thrown away call
            // after call; one that finishes late is kept for the next call (below)
            loaded = acquire(limit);
        } catch (ScriptLoadException e) {
            throw loadFailed(e, limit);
        }
        if (System.nanoTime() - end >= 0) {
            // loading a fresh context used up the time: keep the context for the next call (as
            // for a call that loads its script before its warm-up began, right after a start)
            release(loaded);
            throw new ScriptFailure("timed out after " + Durations.show(limit) + " loading the script "
                    + contexts.displayName(script.file()) + " (it stays loaded: the next call runs at once)", true, null);
        }
        long callNumber = loaded.begin(end, reach);
        MemoryGuard.Call guarded = memoryGuard.began(loaded, callNumber);
        ScheduledFuture<?> timer = null;
        try {
            timer = watchdog.schedule(() -> loaded.cancelCall(callNumber),
                    Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            return loaded.invoke(callNumber, payload, limit);
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            try {
                loaded.endCall();
                release(loaded);
            } finally {
                // only once a stopped call's context is closed and out of the pool can the guard's
                // collection reclaim what its script held
                memoryGuard.ended(guarded);
            }
        }
    }

    /** What a call hears when loading this script for it failed ({@code limit}: the load's). */
    ScriptFailure loadFailed(ScriptLoadException e, Duration limit) {
        if (e.timedOut()) {
            return new ScriptFailure("timed out after " + Durations.show(limit) + " loading the script "
                    + contexts.displayName(script.file()) + ": its top-level code did not finish", true, e);
        }
        return new ScriptFailure("cannot load the script: "
                + ScriptErrors.withoutProjectFolder(e.getMessage(), contexts.root().toString()), false, e);
    }

    private LoadedScript acquire(Duration limit) throws ScriptLoadException {
        LoadedScript loaded = idle.pollFirst();
        while (loaded != null && loaded.broken()) {
            forget(loaded);
            loaded = idle.pollFirst();
        }
        return loaded != null ? loaded : load(limit);
    }

    /**
     * A fresh context, its top-level code cancelled should it still run {@code limit} after it
     * started.
     */
    private LoadedScript load(Duration limit) throws ScriptLoadException {
        if (closed) {
            throw new ScriptLoadException(script.file(), 0, 0, "the server is shutting down");
        }
        LoadedScript loaded = contexts.load(script, env, limit, watchdog);
        if (live.add(loaded)) {
            metrics.scriptContextsChanged(1);
        }
        return loaded;
    }

    /** A context leaves the pool for good (the caller closes or cancels it). */
    private void forget(LoadedScript loaded) {
        if (live.remove(loaded)) {
            metrics.scriptContextsChanged(-1);
        }
    }

    private void release(LoadedScript loaded) {
        if (loaded.broken() || closed) {
            forget(loaded);
            loaded.cancel();
        } else {
            idle.addFirst(loaded);
            if (closed && idle.remove(loaded)) {
                forget(loaded);
                loaded.close();
            }
        }
    }

    /** The script's file. */
    java.nio.file.Path file() {
        return script.file();
    }

    /** Contexts alive now (idle or serving a call). */
    int size() {
        return live.size();
    }

    /** Closes idle contexts and cancels the ones still running a call. */
    void close() {
        closed = true;
        for (LoadedScript loaded : live) {
            loaded.cancel();
            forget(loaded);
        }
        idle.clear();
    }
}
