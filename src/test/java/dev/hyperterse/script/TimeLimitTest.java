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
            // calls queued behind the loops get a worker once the loops are cancelled
            List<Future<Object>> oks = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                oks.add(runtime.call(p.ref("h.js", "ok"), payload(i), LIMIT));
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
}
