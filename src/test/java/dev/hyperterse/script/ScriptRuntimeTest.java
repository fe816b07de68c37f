package dev.hyperterse.script;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Calling scripts: payloads in, JSON out, async functions, errors, TypeScript and relative imports. */
class ScriptRuntimeTest extends ScriptTestBase {
    static JsonObject payload() {
        return new JsonObject().put("inputs", new JsonObject().put("name", "Ada").put("n", 3)).put("tool", "greet");
    }

    @Test
    void theDefaultExportGetsThePayloadAndItsObjectComesBackAsJson() throws Exception {
        p.write("h.js", "export default function (payload) {",
                "  return { echo: payload, keys: Object.keys(payload), greeting: 'hi ' + payload.inputs.name };",
                "}");
        Object out = p.callOnce(p.ref("h.js"), payload());
        JsonObject result = assertInstanceOf(JsonObject.class, out);
        assertEquals(payload(), result.getJsonObject("echo"));
        assertEquals(new JsonArray().add("inputs").add("tool"), result.getJsonArray("keys"));
        assertEquals("hi Ada", result.getString("greeting"));
    }

    @Test
    void aNamedExportIsCalled() throws Exception {
        p.write("h.js", "export default function () { return 'default'; }",
                "export function other({ inputs }) { return inputs.n * 2; }");
        assertEquals(6, p.callOnce(p.ref("h.js", "other"), payload()));
    }

    @Test
    void resultsConvertToJsonValues() throws Exception {
        p.write("h.js",
                "export const nothing = () => undefined;",
                "export const nul = () => null;",
                "export const str = () => 'text';",
                "export const num = () => 2.5;",
                "export const int = () => 42;",
                "export const bool = () => true;",
                "export const arr = () => [1, 'a', { b: [true, null] }];",
                "export const date = () => ({ at: new Date(Date.UTC(2024, 0, 2)) });",
                "export const fn = () => ({ keep: 1, drop: () => 1, undef: undefined });",
                "export const big = () => 10n;",
                "export const cyclic = () => { const o = {}; o.o = o; return o; };");
        ScriptRuntime runtime = p.start(1, p.ref("h.js", "nothing"), p.ref("h.js", "nul"), p.ref("h.js", "str"),
                p.ref("h.js", "num"), p.ref("h.js", "int"), p.ref("h.js", "bool"), p.ref("h.js", "arr"),
                p.ref("h.js", "date"), p.ref("h.js", "fn"), p.ref("h.js", "big"), p.ref("h.js", "cyclic"));
        try {
            assertNull(call(runtime, "nothing"));
            assertNull(call(runtime, "nul"));
            assertEquals("text", call(runtime, "str"));
            assertEquals(2.5, call(runtime, "num"));
            assertEquals(42, call(runtime, "int"));
            assertEquals(true, call(runtime, "bool"));
            assertEquals(new JsonArray("[1,\"a\",{\"b\":[true,null]}]"), call(runtime, "arr"));
            assertEquals(new JsonObject().put("at", "2024-01-02T00:00:00.000Z"), call(runtime, "date"));
            assertEquals(new JsonObject().put("keep", 1), call(runtime, "fn"));
            ScriptFailure big = assertInstanceOf(ScriptFailure.class,
                    ScriptFixture.failure(runtime.call(p.ref("h.js", "big"), payload(), Duration.ofSeconds(5))));
            assertTrue(big.getMessage().contains("BigInt"), big.getMessage());
            ScriptFailure cyclic = assertInstanceOf(ScriptFailure.class,
                    ScriptFixture.failure(runtime.call(p.ref("h.js", "cyclic"), payload(), Duration.ofSeconds(5))));
            assertTrue(cyclic.getMessage().contains("circular") || cyclic.getMessage().contains("cyclic"),
                    cyclic.getMessage());
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    private Object call(ScriptRuntime runtime, String export) throws Exception {
        return ScriptFixture.await(runtime.call(p.ref("h.js", export), payload(), Duration.ofSeconds(5)));
    }

    @Test
    void asyncFunctionsAndPromisesAreAwaited() throws Exception {
        p.write("h.js",
                "const later = (v) => Promise.resolve().then(() => v);",
                "export default async function ({ inputs }) {",
                "  const a = await later(inputs.n);",
                "  const b = await new Promise((resolve) => resolve(a + 1));",
                "  return { sum: a + b };",
                "}",
                "export function plainPromise() { return later([1, 2]); }",
                "export async function rejects() { await later(0); throw new RangeError('too far'); }",
                "export function rejectsWithText() { return Promise.reject('just text'); }");
        ScriptRuntime runtime = p.start(2, p.ref("h.js"), p.ref("h.js", "plainPromise"), p.ref("h.js", "rejects"),
                p.ref("h.js", "rejectsWithText"));
        try {
            assertEquals(new JsonObject().put("sum", 7),
                    ScriptFixture.await(runtime.call(p.ref("h.js"), payload(), Duration.ofSeconds(5))));
            assertEquals(new JsonArray().add(1).add(2),
                    ScriptFixture.await(runtime.call(p.ref("h.js", "plainPromise"), payload(), Duration.ofSeconds(5))));
            assertEquals("RangeError: too far", ScriptFixture.failure(
                    runtime.call(p.ref("h.js", "rejects"), payload(), Duration.ofSeconds(5))).getMessage());
            assertEquals("just text", ScriptFixture.failure(
                    runtime.call(p.ref("h.js", "rejectsWithText"), payload(), Duration.ofSeconds(5))).getMessage());
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void aThrownErrorFailsTheCallWithItsMessageOnly() throws Exception {
        p.write("h.js", "export default function () { throw new Error('boom'); }");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            Throwable e = ScriptFixture.failure(runtime.call(p.ref("h.js"), payload(), Duration.ofSeconds(5)));
            assertInstanceOf(ScriptFailure.class, e);
            assertEquals("Error: boom", e.getMessage());
            // the context survives a thrown error and serves the next call
            assertEquals(1, runtime.contexts(p.ref("h.js")));
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void typeScriptIsStrippedAndRelativeImportsResolve() throws Exception {
        p.write("app/lib/math.ts", "export const twice = (n: number): number => n * 2;",
                "export enum Unit { One = 1 }");
        p.write("app/tools/t/util.ts", "import { twice, Unit } from '../../lib/math.js';",
                "export function calc(n: number): number { return twice(n) + Unit.One; }");
        p.write("app/tools/t/plain.mjs", "export const label = 'plain';");
        p.write("app/tools/t/handler.ts",
                "import { calc } from './util';",
                "import { label } from './plain.mjs';",
                "interface Payload { inputs: { n: number }; tool: string }",
                "type Out = { value: number; label: string; tool: string };",
                "export default async ({ inputs, tool }: Payload): Promise<Out> => ({ value: calc(inputs.n as number), label, tool });");
        assertEquals(new JsonObject().put("value", 7).put("label", "plain").put("tool", "greet"),
                p.callOnce(p.ref("app/tools/t/handler.ts"), payload()));
    }

    @Test
    void eachContextKeepsItsModuleStateAndCallsDoNotShareIt() throws Exception {
        p.write("h.js", "let calls = 0;", "export default () => ++calls;");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            // one worker: the same context serves every call, so module state persists within it
            for (int i = 1; i <= 3; i++) {
                assertEquals(i, ScriptFixture.await(runtime.call(p.ref("h.js"), payload(), Duration.ofSeconds(5))));
            }
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void consoleWritesToTheServerLogTaggedWithTheFile() throws Exception {
        ch.qos.logback.classic.Logger console = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
                .getLogger("dev.hyperterse.script.console");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events =
                new ch.qos.logback.core.read.ListAppender<>();
        events.start();
        console.addAppender(events);
        ch.qos.logback.classic.Level before = console.getLevel();
        console.setLevel(ch.qos.logback.classic.Level.DEBUG);
        try {
            p.write("app/tools/t/handler.ts", "export default ({ inputs }: { inputs: { name: string } }) => {",
                    "  console.log('hello', inputs.name, { n: 1 }, [2], null, undefined);",
                    "  console.debug('details'); console.info('info'); console.warn('careful'); console.error(new Error('bad'));",
                    "  return 1;", "};");
            p.callOnce(p.ref("app/tools/t/handler.ts"), payload());
            java.util.List<String> lines = new java.util.ArrayList<>();
            for (ch.qos.logback.classic.spi.ILoggingEvent e : events.list) {
                lines.add(e.getLevel() + " " + e.getFormattedMessage());
            }
            String file = "app/tools/t/handler.ts";
            assertEquals(java.util.List.of(
                    "INFO [" + file + "] hello Ada {\"n\":1} [2] null undefined",
                    "DEBUG [" + file + "] details",
                    "INFO [" + file + "] info",
                    "WARN [" + file + "] careful",
                    "ERROR [" + file + "] Error: bad"), lines);
        } finally {
            console.detachAppender(events);
            console.setLevel(before);
        }
    }

    @Test
    void aScriptThatIsNotLoadedFails() throws Exception {
        p.write("h.js", "export default () => 1;");
        p.write("other.js", "export default () => 2;");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            assertInstanceOf(ScriptFailure.class,
                    ScriptFixture.failure(runtime.call(p.ref("other.js"), payload(), Duration.ofSeconds(5))));
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    /**
     * A context loaded for a call (here, the one replacing a cancelled context) that cannot load
     * fails the call naming files as callers see them: relative to the project, never its path.
     */
    @Test
    void aContextThatCannotLoadForACallNamesFilesRelativeToTheProject() throws Exception {
        p.write("lib/util.js", "export const one = 1;");
        p.write("h.js", "import { one } from './lib/util.js';",
                "export default ({ inputs }) => { while (inputs.spin) {} return one; };");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            JsonObject spin = new JsonObject().put("inputs", new JsonObject().put("spin", true)).put("tool", "t");
            assertTrue(((ScriptFailure) ScriptFixture.failure(runtime.call(p.ref("h.js"), spin,
                    Duration.ofMillis(300)))).timedOut());
            java.nio.file.Files.delete(dir.resolve("lib/util.js"));
            Throwable e = ScriptFixture.failure(runtime.call(p.ref("h.js"), payload(), Duration.ofSeconds(5)));
            assertTrue(e.getMessage().startsWith("cannot load the script: "), e.getMessage());
            assertTrue(e.getMessage().contains("lib/util.js"), e.getMessage());
            assertTrue(!e.getMessage().contains(dir.toRealPath().toString()), "no host paths: " + e.getMessage());
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    /** Prepared for a server that serves meanwhile: a call that comes before the warm-up loads its script itself. */
    @Test
    void aPreparedRuntimeLoadsAScriptAtItsFirstCallWhenNoWarmUpHasBegun() throws Exception {
        p.write("h.js", "export default () => 'first';");
        ScriptRuntime runtime = ScriptFixture.await(ScriptRuntime.prepare(p.vertx, p.engine, p.dir,
                java.util.List.of(new ScriptRuntime.Use("", p.ref("h.js"), java.util.Map.of())), 1,
                Duration.ofSeconds(5), dev.hyperterse.telemetry.Metrics.NONE,
                new ScriptAccess(java.util.List.of(p.dir), FetchRules.OPEN)));
        try {
            assertTrue(!runtime.ready().isComplete(), "nothing is loaded before the warm-up or a call");
            assertEquals("first", ScriptFixture.await(runtime.call(p.ref("h.js"), payload(), Duration.ofSeconds(5))));
            assertTrue(runtime.ready().succeeded(), "the call's load counts as the script's warm-up");
            runtime.warmUp();
            assertEquals("first", ScriptFixture.await(runtime.call(p.ref("h.js"), payload(), Duration.ofSeconds(5))));
            assertEquals(1, runtime.contexts(p.ref("h.js")), "the warm-up loaded nothing more");
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    private ScriptRuntime prepared(String file, Duration warmUpLimit) throws Exception {
        return ScriptFixture.await(ScriptRuntime.prepare(p.vertx, p.engine, p.dir,
                java.util.List.of(new ScriptRuntime.Use("", p.ref(file), java.util.Map.of())), 1,
                warmUpLimit, dev.hyperterse.telemetry.Metrics.NONE,
                new ScriptAccess(java.util.List.of(p.dir), FetchRules.OPEN)));
    }

    /**
     * A script's first load is the server's start-up work: a call that makes it, or waits for the
     * warm-up making it, gets its whole time limit once the script is ready.
     */
    @Test
    void theFirstLoadOfAScriptDoesNotCountTowardTheCallThatWaitsForIt() throws Exception {
        p.write("slow.js", "const end = Date.now() + 1500; while (Date.now() < end) {}",
                "export default () => 'ready';");
        Duration callLimit = Duration.ofSeconds(1);
        ScriptRuntime makesIt = prepared("slow.js", Duration.ofSeconds(10));
        try {
            assertEquals("ready", ScriptFixture.await(makesIt.call(p.ref("slow.js"), payload(), callLimit)),
                    "the call that loads the script itself");
            assertTrue(makesIt.ready().succeeded());
        } finally {
            ScriptFixture.await(makesIt.close());
        }
        ScriptRuntime waits = prepared("slow.js", Duration.ofSeconds(10));
        try {
            waits.warmUp();
            Thread.sleep(200); // the warm-up has begun loading
            assertEquals("ready", ScriptFixture.await(waits.call(p.ref("slow.js"), payload(), callLimit)),
                    "the call that waits for the warm-up");
            assertEquals(1, waits.contexts(p.ref("slow.js")), "the call ran in the warm-up's context");
        } finally {
            ScriptFixture.await(waits.close());
        }
    }

    /** The first load still has its own bound, and a call that made it hears why it failed. */
    @Test
    void aCallThatMakesAFailingFirstLoadHearsWhy() throws Exception {
        p.write("spin.js", "while (true) {}", "export default () => 1;");
        p.write("bad.js", "throw new Error('no config');", "export default () => 1;");
        ScriptRuntime spin = prepared("spin.js", Duration.ofMillis(500));
        try {
            ScriptFailure e = assertThrows(ScriptFailure.class,
                    () -> ScriptFixture.await(spin.call(p.ref("spin.js"), payload(), Duration.ofSeconds(5))));
            assertEquals("timed out after 500ms loading the script spin.js: its top-level code did not finish",
                    e.getMessage());
            assertTrue(spin.ready().failed(), "the failed load is the warm-up's outcome");
        } finally {
            ScriptFixture.await(spin.close());
        }
        ScriptRuntime bad = prepared("bad.js", Duration.ofSeconds(5));
        try {
            ScriptFailure e = assertThrows(ScriptFailure.class,
                    () -> ScriptFixture.await(bad.call(p.ref("bad.js"), payload(), Duration.ofSeconds(5))));
            assertTrue(e.getMessage().startsWith("cannot load the script: ") && e.getMessage().contains("no config"),
                    e.getMessage());
        } finally {
            ScriptFixture.await(bad.close());
        }
    }

    /** A warm-up that meets a syntax error (the file changed since its check) logs it at its position. */
    @Test
    void aWarmUpThatFailsOnASyntaxErrorSaysWhere() throws Exception {
        p.write("broken.js", "export default () => {", "  return 1 +;", "};");
        ScriptRuntime runtime = prepared("broken.js", Duration.ofSeconds(5));
        try (dev.hyperterse.testing.LogCapture log = dev.hyperterse.testing.LogCapture.of(ScriptRuntime.class)) {
            runtime.warmUp();
            assertThrows(Exception.class, () -> ScriptFixture.await(runtime.ready()));
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (log.messagesContaining("could not be loaded: ").isEmpty() && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            List<String> logged = log.messagesContaining("could not be loaded: ");
            assertEquals(1, logged.size(), String.valueOf(log.messages()));
            assertTrue(logged.get(0).startsWith("scripts: broken.js:2:"), logged.get(0));
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void startFailsForAMissingExport() {
        p.write("h.js", "export function a() {}", "export const b = 1;");
        ScriptLoadException e = assertThrows(ScriptLoadException.class, () -> p.start(1, p.ref("h.js", "c")));
        assertEquals("has no export 'c' (it exports: a, b)", e.getMessage());
        ScriptLoadException notFunction = assertThrows(ScriptLoadException.class, () -> p.start(1, p.ref("h.js", "b")));
        assertTrue(notFunction.getMessage().contains("export 'b' is not a function"), notFunction.getMessage());
    }
}
