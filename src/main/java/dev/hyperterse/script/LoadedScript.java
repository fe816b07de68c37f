package dev.hyperterse.script;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One script module evaluated in its own context, ready to call its export. A context may be
 * entered by one thread at a time, so a loaded script serves one call at a time, on the worker
 * thread running that call; everything that finishes elsewhere (a fetch response on an event
 * loop) is queued as a task and run by that thread. Another thread only ever cancels it.
 */
final class LoadedScript {
    private static final Logger LOG = LoggerFactory.getLogger(LoadedScript.class);

    private final Context context;
    private final String displayName;
    /** The project folder, removed from messages: callers see relative paths. */
    private final String projectDir;
    private final BlockingQueue<Task> tasks = new LinkedBlockingQueue<>();
    private final ScriptConsole console;
    /** How to stop the current call's unfinished fetches: a script's requests end with its call. */
    private final Queue<Runnable> outstanding = new ConcurrentLinkedQueue<>();
    private Value export;
    private Value helpers;
    private Value invoke;
    private Value toJson;
    /** Counts calls, so a task left over from an earlier call (an unawaited fetch) is dropped. */
    private volatile long call;
    /** The current call's way to its client ({@code ctx}). */
    private volatile ClientReach reach = ClientReach.NONE;
    private volatile long deadline;
    private volatile boolean broken;
    /** Why the runtime stopped the current call, when it was not its time limit; null otherwise. */
    private volatile String stopReason;
    /** Guarded by this: true while a call runs, so the watchdog cancels only the call it was set for. */
    private boolean running;
    /**
     * The current call's pending {@code setTimeout} timers, soonest first, and the same by id.
     * They live here rather than as Vert.x timers because only the thread running the call ever
     * touches them: a call that leaves thousands pending ends by dropping two collections, and
     * never hands the event loops one cancellation each (190k of those stalled /heartbeat).
     */
    private final NavigableSet<Timer> timerQueue = new TreeSet<>(LoadedScript::soonerTimer);
    private final Map<Long, Timer> timersById = new HashMap<>();
    /** Ids for {@link #setTimer}, never reused within this context, so a stale id clears nothing. */
    private long lastTimerId;

    /**
     * The most timers one call may have pending at once. Far above what a handler needs (a retry
     * back-off, a few timeouts racing fetches); a loop setting timers it never clears or awaits is
     * a bug, stopped with a script error instead of growing until the call's time limit.
     */
    static final int MAX_PENDING_TIMERS = 10_000;
    /** What {@link #setTimer} returns when {@link #MAX_PENDING_TIMERS} are pending; the sandbox throws. */
    static final long TOO_MANY_TIMERS = -2;

    private record Task(long call, Runnable action) {
    }

    private record Timer(long id, long dueNanos, Value callback) {
    }

    private static int soonerTimer(Timer a, Timer b) {
        int byTime = Long.compare(a.dueNanos() - b.dueNanos(), 0);
        return byTime != 0 ? byTime : Long.compare(a.id(), b.id());
    }

    LoadedScript(Context context, String displayName, String projectDir) {
        this.context = context;
        this.displayName = displayName;
        this.console = new ScriptConsole(displayName);
        this.projectDir = projectDir;
        // no call yet: no time left (a top-level timer or fetch is refused), whatever nanoTime's origin
        this.deadline = System.nanoTime();
    }

    void bind(Value exportFunction, Value hostHelpers) {
        this.export = exportFunction;
        this.helpers = hostHelpers;
        this.invoke = hostHelpers.getMember("invoke");
        this.toJson = hostHelpers.getMember("toJson");
    }

    Context context() {
        return context;
    }

    String displayName() {
        return displayName;
    }

    /** Where the script's {@code console} writes, bounded per call. */
    ScriptConsole console() {
        return console;
    }

    /**
     * Registers how to stop a request call {@code callNumber} started; stops it at once when that
     * call is over already. Safe from any thread.
     */
    void track(long callNumber, Runnable stop) {
        outstanding.add(stop);
        synchronized (this) {
            if (running && call == callNumber) {
                return;
            }
        }
        stopOutstanding();
    }

    private void stopOutstanding() {
        Runnable stop;
        while ((stop = outstanding.poll()) != null) {
            try {
                stop.run();
            } catch (RuntimeException e) {
                LOG.debug("stopping a request of {}", displayName, e);
            }
        }
    }

    /** True once the context was cancelled or failed in a way that leaves it unusable. */
    boolean broken() {
        return broken;
    }

    /** The first character of a result that is content blocks (bootstrap.js): no JSON text starts with it. */
    private static final char CONTENT_MARK = '\u0001';

    /** The current call's way to its client. */
    ClientReach reach() {
        return reach;
    }

    /** Time left for the current call; zero or less when it is over. */
    Duration remaining() {
        return Duration.ofNanos(deadline - System.nanoTime());
    }

    /** Current call number, for {@link #postFor}. */
    long currentCall() {
        return call;
    }

    /**
     * Queues work for the thread running call {@code callNumber}. Safe from any thread; tasks
     * that arrive after their call ended are dropped.
     */
    void postFor(long callNumber, Runnable action) {
        tasks.add(new Task(callNumber, action));
    }

    /**
     * A {@code setTimeout} of the current call: {@code callback} runs on the thread running the
     * call, while it waits, once {@code delayMs} passed. From that thread only (the script's own
     * code).
     *
     * @return the timer's id; -1 when no call is running (it could never run),
     *         {@link #TOO_MANY_TIMERS} when {@link #MAX_PENDING_TIMERS} are pending already
     */
    long setTimer(long delayMs, Value callback) {
        long now = System.nanoTime();
        if (deadline - now <= 0) {
            return -1;
        }
        if (timersById.size() >= MAX_PENDING_TIMERS) {
            return TOO_MANY_TIMERS;
        }
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, Math.min(delayMs, Integer.MAX_VALUE)));
        Timer timer = new Timer(++lastTimerId, now + delayNanos, callback);
        timerQueue.add(timer);
        timersById.put(timer.id(), timer);
        return timer.id();
    }

    /** A {@code clearTimeout} of the current call; an id it did not set is left alone. From that call's thread. */
    void clearTimer(long id) {
        Timer timer = timersById.remove(id);
        if (timer != null) {
            timerQueue.remove(timer);
        }
    }

    /** Drops the call's pending timers: they never run once it ended. */
    private void dropTimers() {
        timerQueue.clear();
        timersById.clear();
    }

    /**
     * Calls the export with the payload and waits (on this worker thread) for its result,
     * running queued tasks meanwhile, until it settles or {@code deadlineNanos} passes.
     *
     * @return the result as JSON: JsonObject, JsonArray, String, Number, Boolean or null; or
     *         {@link ScriptContent} when the script returned content
     */
    Object invoke(JsonObject payload, long deadlineNanos, Duration limit) {
        return invoke(begin(deadlineNanos, ClientReach.NONE), payload, limit);
    }

    /**
     * Starts a call that must end by {@code deadlineNanos} and returns its number. From here on
     * {@link #cancelCall} stops it, so the watchdog is set after this and can never miss the call.
     */
    synchronized long begin(long deadlineNanos, ClientReach callReach) {
        deadline = deadlineNanos;
        reach = callReach;
        running = true;
        console.begin();
        return ++call;
    }

    /** Runs call {@code thisCall}, begun with {@link #begin}; see {@link #invoke(JsonObject, long, Duration)}. */
    Object invoke(long thisCall, JsonObject payload, Duration limit) {
        tasks.clear();
        dropTimers();
        if (broken || System.nanoTime() - deadline >= 0) {
            // cancelled before it began, or its time passed while the context was being loaded
            throw stopped(limit, null);
        }
        try {
            Value json = invoke.execute(export, payload.encode());
            if (!json.isNull() && !json.isString()) {
                json = toJson.execute(await(json, thisCall, limit));
            }
            if (json.isNull()) {
                return null;
            }
            String text = json.asString();
            if (!text.isEmpty() && text.charAt(0) == CONTENT_MARK) {
                return new ScriptContent(new io.vertx.core.json.JsonArray(text.substring(1)));
            }
            return Json.decodeValue(text);
        } catch (PolyglotException e) {
            throw failure(e, limit);
        } catch (DecodeException e) {
            throw new ScriptFailure("the result is not JSON: " + e.getMessage());
        } catch (IllegalStateException e) {
            // the context was closed under us: the watchdog (or the memory guard) cancelled it
            broken = true;
            throw stopped(limit, e);
        }
    }

    private Value await(Value promise, long thisCall, Duration limit) {
        Value[] outcome = new Value[1];
        boolean[] settled = new boolean[2]; // [done, rejected]
        promise.invokeMember("then",
                (ProxyExecutable) args -> {
                    settled[0] = true;
                    outcome[0] = args.length > 0 ? args[0] : null;
                    return null;
                },
                (ProxyExecutable) args -> {
                    settled[0] = true;
                    settled[1] = true;
                    outcome[0] = args.length > 0 ? args[0] : null;
                    return null;
                });
        if (!runTasksUntil(thisCall, () -> settled[0])) {
            cancel();
            throw Thread.currentThread().isInterrupted() ? new ScriptFailure("interrupted", false, null)
                    : stopped(limit, null);
        }
        if (settled[1]) {
            if (outcome[0] != null && outcome[0].isException() && outcome[0].isHostObject()) {
                // a host function's Java exception, rejected through a promise: worded as a thrown one is
                try {
                    outcome[0].throwException();
                } catch (PolyglotException e) {
                    throw failure(e, limit);
                }
            }
            String toolError = toolErrorMessage(outcome[0]);
            if (toolError != null) {
                throw new ScriptFailure(toolError, false, null, ScriptFailure.Kind.TOOL_ERROR);
            }
            String reason = outcome[0] == null ? "undefined" : helpers.invokeMember("describe", outcome[0]).asString();
            throw new ScriptFailure(withoutHostPaths(ScriptErrors.withoutSyntaxSource(reason)), false, null,
                    ScriptFailure.Kind.THROWN);
        }
        return outcome[0];
    }

    /**
     * Runs the current call's queued tasks on this thread (the one running the call, inside a
     * host call from the script) until {@code done} holds: what a synchronous {@code fetch} read
     * waits with. Tasks of an earlier call are dropped.
     *
     * @return false when the call's time ran out (or the thread was interrupted) first
     */
    boolean runTasksUntil(java.util.function.BooleanSupplier done) {
        return runTasksUntil(call, done);
    }

    /**
     * The loop of {@link #runTasksUntil(java.util.function.BooleanSupplier)} for call {@code thisCall}:
     * runs due timers and queued tasks, a timer and then a task in turn, so a timer set again and
     * again with no delay never starves a fetch response.
     */
    private boolean runTasksUntil(long thisCall, java.util.function.BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            if (stopReason != null) {
                return false;
            }
            long now = System.nanoTime();
            long left = deadline - now;
            if (left <= 0) {
                return false;
            }
            Timer next = timerQueue.isEmpty() ? null : timerQueue.first();
            Task task;
            if (next != null && next.dueNanos() - now <= 0) {
                timerQueue.pollFirst();
                timersById.remove(next.id());
                next.callback().execute();
                if (done.getAsBoolean()) {
                    return true;
                }
                task = tasks.poll();
            } else {
                try {
                    // wait for a task until the next timer is due or the call's time ends
                    task = tasks.poll(next == null ? left : Math.min(left, next.dueNanos() - now),
                            TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            if (task != null && task.call() == thisCall) {
                task.action().run();
            }
        }
        return true;
    }

    private ScriptFailure failure(PolyglotException e, Duration limit) {
        if (e.isCancelled() || System.nanoTime() - deadline >= 0 || (stopReason != null && e.isResourceExhausted())) {
            broken = true;
            return stopped(limit, e);
        }
        if (e.isResourceExhausted()) {
            broken = true;
            LOG.warn("script {} ran out of resources: {}", displayName, e.getMessage());
            return new ScriptFailure("ran out of resources (" + e.getMessage() + ")", false, e);
        }
        if (e.isHostException() || e.isInternalError()) {
            LOG.warn("script {} failed inside the host", displayName, e);
            return new ScriptFailure("internal error (see the server log)", false, e);
        }
        if (e.isExit()) {
            broken = true;
            return new ScriptFailure("the script tried to exit", false, e);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("script {} threw: {}\n{}", displayName, e.getMessage(), guestStack(e));
        }
        String toolError = e.isGuestException() ? toolErrorMessage(e.getGuestObject()) : null;
        if (toolError != null) {
            return new ScriptFailure(toolError, false, e, ScriptFailure.Kind.TOOL_ERROR);
        }
        String message = String.valueOf(e.getMessage());
        return new ScriptFailure(withoutHostPaths(e.isSyntaxError() ? ScriptErrors.withoutSource(message)
                : ScriptErrors.withoutSyntaxSource(message)), false, e, ScriptFailure.Kind.THROWN);
    }

    /** The message of a thrown {@code ToolError} (the sandbox's own class), else null. */
    private String toolErrorMessage(Value thrown) {
        if (thrown == null) {
            return null;
        }
        try {
            Value message = helpers.invokeMember("toolErrorMessage", thrown);
            return message.isNull() ? null : withoutHostPaths(message.asString());
        } catch (PolyglotException | IllegalStateException e) {
            // a message getter that throws, or a context closed meanwhile: not a message to forward
            return null;
        }
    }

    private String withoutHostPaths(String message) {
        return ScriptErrors.withoutProjectFolder(message, projectDir);
    }

    private static String guestStack(PolyglotException e) {
        StringBuilder out = new StringBuilder();
        for (PolyglotException.StackFrame frame : e.getPolyglotStackTrace()) {
            if (frame.isGuestFrame()) {
                out.append("    at ").append(frame).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * The failure of a call the runtime stopped: for memory when the guard did (without the
     * cancelled context's exception, which would keep what the script held reachable while the
     * answer travels), else its time limit passed.
     */
    private ScriptFailure stopped(Duration limit, Throwable cause) {
        String reason = stopReason;
        return reason != null ? ScriptFailure.memory(reason) : timedOut(limit, cause);
    }

    private static ScriptFailure timedOut(Duration limit, Throwable cause) {
        return new ScriptFailure("timed out after " + Durations.show(limit), true, cause);
    }

    /**
     * The watchdog's cancel: stops call {@code callNumber} if it is still running. A call that
     * ended meanwhile keeps its context, so a late timer never closes a context that went back
     * to the pool.
     */
    void cancelCall(long callNumber) {
        synchronized (this) {
            if (!running || call != callNumber) {
                return;
            }
            broken = true;
        }
        cancel();
    }

    /**
     * The memory guard's cancel: stops call {@code callNumber} if it is still running, and its
     * caller hears {@code reason}. From any thread; closing the context waits for its code to stop.
     *
     * @return true when the call was running and is now stopped
     */
    boolean stopCall(long callNumber, String reason) {
        synchronized (this) {
            if (!running || call != callNumber || broken) {
                return false;
            }
            stopReason = reason;
            broken = true;
        }
        // wakes a call waiting for its tasks (an awaited fetch), which then sees the reason
        tasks.add(new Task(callNumber, () -> { }));
        cancel();
        return true;
    }

    /** Marks the current call over and stops its unfinished requests; true when the context must not be reused. */
    boolean endCall() {
        boolean wasBroken;
        synchronized (this) {
            running = false;
            wasBroken = broken;
            reach = ClientReach.NONE;
        }
        stopOutstanding();
        dropTimers();
        return wasBroken;
    }

    /**
     * Stops whatever the context runs and closes it; from any thread. The pool replaces a
     * cancelled script with a fresh context.
     */
    void cancel() {
        broken = true;
        stopOutstanding();
        try {
            context.close(true);
        } catch (RuntimeException e) {
            LOG.debug("closing the context of {}", displayName, e);
        }
    }

    /** Closes an idle context. */
    void close() {
        broken = true;
        try {
            context.close();
        } catch (RuntimeException e) {
            LOG.debug("closing the context of {}", displayName, e);
        }
    }
}
