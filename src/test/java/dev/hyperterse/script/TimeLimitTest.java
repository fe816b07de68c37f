package dev.hyperterse.script;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A call that runs too long is cancelled, fails, and its context is replaced. */
class TimeLimitTest extends ScriptTestBase {
    static final Duration LIMIT = Duration.ofMillis(500);

    @BeforeEach
    void handlers() {
        p.write("h.js",
                "let calls = 0;",
                "export function spin() { while (true) {} }",
                "export async function spinLater() { await null; for (;;) { calls++; } }",
                "export function never() { return new Promise(() => {}); }",
                "export function ok({ inputs }) { return { ok: true, calls: ++calls, n: inputs.n }; }");
    }

    static JsonObject payload(int n) {
        return new JsonObject().put("inputs", new JsonObject().put("n", n)).put("tool", "t");
    }

    @Test
    void theLimitCountsTheWaitForAWorkerAndAnExpiredCallNeverRuns() throws Exception {
        ScriptRuntime runtime = p.start(1, p.ref("h.js", "spin"), p.ref("h.js", "ok"));
        try {
            // the only worker spins for 2 s; a call with a shorter limit cannot wait that long
            Future<Object> hog = runtime.call(p.ref("h.js", "spin"), payload(1), Duration.ofSeconds(2));
            Throwable queued = ScriptFixture.failure(runtime.call(p.ref("h.js", "ok"), payload(2), Duration.ofMillis(300)));
            ScriptFailure failure = assertInstanceOf(ScriptFailure.class, queued);
            assertTrue(failure.timedOut());
            assertEquals("timed out after 300ms waiting for a free script worker", failure.getMessage());
            assertEquals("timed out after 2s", ScriptFixture.failure(hog).getMessage());
            // the expired call was skipped when the worker came free: this is the first call of 'ok'
            Object first = ScriptFixture.await(runtime.call(p.ref("h.js", "ok"), payload(3), LIMIT));
            assertEquals(new JsonObject().put("ok", true).put("calls", 1).put("n", 3), first);
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void anEndlessLoopIsCancelledAndTheContextReplaced() throws Exception {
        ScriptRuntime runtime = p.start(1, p.ref("h.js", "spin"), p.ref("h.js", "spinLater"), p.ref("h.js", "never"));
        try {
            for (String export : List.of("spin", "spinLater", "never")) {
                long started = System.nanoTime();
                Throwable e = ScriptFixture.failure(runtime.call(p.ref("h.js", export), payload(1), LIMIT));
                long ms = (System.nanoTime() - started) / 1_000_000;
                ScriptFailure failure = assertInstanceOf(ScriptFailure.class, e, export);
                assertTrue(failure.timedOut(), export);
                assertEquals("timed out after 500ms", failure.getMessage(), export);
                assertTrue(ms >= 450 && ms < 5000, export + " took " + ms + " ms");
                assertEquals(0, runtime.contexts(p.ref("h.js", export)), "the cancelled context is gone");
            }
            // a fresh context serves the next call (module state starts over)
            Throwable again = ScriptFixture.failure(runtime.call(p.ref("h.js", "spin"), payload(1), LIMIT));
            assertTrue(((ScriptFailure) again).timedOut());
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void endlessLoopsUnderConcurrentLoadCostOneWorkerEachForTheLimit() throws Exception {
        int workers = 2;
        ScriptRuntime runtime = p.start(workers, p.ref("h.js", "spin"), p.ref("h.js", "ok"));
        try {
            long started = System.nanoTime();
            List<Future<Object>> loops = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                loops.add(runtime.call(p.ref("h.js", "spin"), payload(i), LIMIT));
            }
            // the event loop stays free meanwhile: a timer fires on time
            CompletableFuture<Long> timer = new CompletableFuture<>();
            long timerSet = System.nanoTime();
            p.vertx.setTimer(100, id -> timer.complete((System.nanoTime() - timerSet) / 1_000_000));
            assertTrue(timer.get(5, TimeUnit.SECONDS) < 1000, "the event loop was not held up");
            // calls queued behind the loops get a worker once the loops are cancelled (their own
            // limit is long enough to outlast that wait on a busy machine: the wait counts)
            List<Future<Object>> oks = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                oks.add(runtime.call(p.ref("h.js", "ok"), payload(i), Duration.ofSeconds(10)));
            }
            for (Future<Object> loop : loops) {
                assertTrue(((ScriptFailure) ScriptFixture.failure(loop)).timedOut());
            }
            for (int i = 0; i < oks.size(); i++) {
                JsonObject ok = (JsonObject) ScriptFixture.await(oks.get(i));
                assertEquals(i, ok.getInteger("n"));
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            // 4 loops on 2 workers: two rounds of the limit, plus the ok calls and context start-ups
            assertTrue(ms < 2 * LIMIT.toMillis() + 8000, "took " + ms + " ms");
            assertTrue(runtime.contexts(p.ref("h.js", "spin")) <= workers);
            assertTrue(runtime.contexts(p.ref("h.js", "ok")) <= workers);
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    /**
     * A context loaded for a call (here, the one replacing a cancelled context) runs its module's
     * top-level code within the limit: endless top-level code is cancelled, the call fails
     * naming the script, and the worker is free for the next call.
     */
    @Test
    void topLevelCodeOfAContextLoadedForACallCountsTowardTheCallsLimit() throws Exception {
        p.write("loop.js", "export default ({ inputs }) => { while (inputs.n === 0) {} return { n: inputs.n }; };");
        ScriptRuntime runtime = p.start(1, p.ref("loop.js"), p.ref("h.js", "ok"));
        try {
            assertTrue(((ScriptFailure) ScriptFixture.failure(runtime.call(p.ref("loop.js"), payload(0),
                    Duration.ofMillis(300)))).timedOut());
            assertEquals(0, runtime.contexts(p.ref("loop.js")), "the cancelled context is gone");
            // the context that replaces it loads the module as it is now
            p.write("loop.js", "while (true) {}", "export default () => 1;");
            for (int i = 0; i < 2; i++) {
                long started = System.nanoTime();
                ScriptFailure failure = assertInstanceOf(ScriptFailure.class,
                        ScriptFixture.failure(runtime.call(p.ref("loop.js"), payload(1), LIMIT)));
                long ms = (System.nanoTime() - started) / 1_000_000;
                assertTrue(failure.timedOut());
                assertEquals("timed out after 500ms loading the script loop.js: its top-level code did not finish",
                        failure.getMessage());
                assertTrue(ms >= 450 && ms < 2000, "took " + ms + " ms");
                assertEquals(0, runtime.contexts(p.ref("loop.js")), "the cancelled load left no context");
                // the only worker is free again: another script's call runs at once
                JsonObject ok = (JsonObject) ScriptFixture.await(runtime.call(p.ref("h.js", "ok"), payload(i), LIMIT));
                assertEquals(i, ok.getInteger("n"));
            }
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    /**
     * Start-up loads every script within the limit: top-level code that does not finish (an endless
     * loop, in the script or a package it imports, or awaiting without end) fails it, naming the script.
     */
    @Test
    void endlessTopLevelCodeFailsStartUpInsteadOfHangingIt() throws Exception {
        p.write("loop.ts", "let n: number = 0;", "for (;;) { n++; }", "export default () => n;");
        // in a package the script imports, too
        p.write("node_modules/spinner/package.json", "{\"name\": \"spinner\", \"main\": \"index.js\"}");
        p.write("node_modules/spinner/index.js", "while (true) {}", "module.exports = { spin: 1 };");
        p.write("imports.js", "import spinner from 'spinner';", "export default () => spinner.spin;");
        // and top-level await that never ends
        p.write("awaits.js", "for (;;) { await null; }", "export default () => 1;");
        for (String script : List.of("loop.ts", "imports.js", "awaits.js")) {
            long started = System.nanoTime();
            Throwable e = startUpFailure(script, List.of(p.ref(script), p.ref("h.js", "ok")));
            long ms = (System.nanoTime() - started) / 1_000_000;
            ScriptLoadException failure = assertInstanceOf(ScriptLoadException.class, e, script);
            assertTrue(failure.timedOut(), script + ": " + failure.getMessage());
            assertEquals(dir.resolve(script).toAbsolutePath().normalize(), failure.file());
            assertEquals("its top-level code did not finish within 500ms (the script's time limit; the modules it "
                    + "imports included)", failure.getMessage());
            assertTrue(ms < 10_000, script + " took " + ms + " ms");
        }
    }

    /**
     * Top-level code that awaits something only a call could settle (a timer, a fetch, a promise
     * nobody resolves), its own or an imported module's, leaves the module unfinished when loading
     * ends: the load fails saying so, neither with the engine's "*default* is not defined" nor by
     * serving a hoisted handler whose module never finished initialising.
     */
    @Test
    void topLevelAwaitThatDoesNotSettleWhileLoadingIsNamed() throws Exception {
        p.write("never.js", "await new Promise(() => {});", "export default () => 1;");
        p.write("timer.js", "await new Promise((resolve) => setTimeout(resolve, 10));", "export default () => 2;");
        // a function declaration is bound before any top-level code runs: the export exists, the
        // module around it (here `ready`) is not initialised
        p.write("hoisted.js", "const ready = await new Promise(() => {});",
                "export default function handler() { return ready; }");
        p.write("waits-for-it.js", "await new Promise(() => {});", "export const unused = 1;");
        p.write("imports-waiting.js", "import './waits-for-it.js';", "export default function handler() { return 3; }");
        for (String script : List.of("never.js", "timer.js", "hoisted.js", "imports-waiting.js")) {
            Throwable e = startUpFailure(script, List.of(p.ref(script)));
            ScriptLoadException failure = assertInstanceOf(ScriptLoadException.class, e, script);
            assertEquals("its top-level code (or that of a module it imports) awaits something that had not settled"
                    + " when loading ended: timers and fetch run within calls, not while a script loads",
                    failure.getMessage(), script);
        }
    }

    /** Why starting the scripts failed; an error when it succeeded or did not end within 20 s. */
    private Throwable startUpFailure(String script, List<dev.hyperterse.model.ScriptRef> scripts) throws Exception {
        Future<ScriptRuntime> start = ScriptRuntime.startScripts(p.vertx, engine, dir, scripts, 1, LIMIT);
        try {
            start.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            throw new AssertionError(script + ": start-up succeeded");
        } catch (java.util.concurrent.ExecutionException failed) {
            return failed.getCause();
        } catch (java.util.concurrent.TimeoutException hung) {
            throw new AssertionError(script + ": start-up did not finish", hung);
        }
    }
}
