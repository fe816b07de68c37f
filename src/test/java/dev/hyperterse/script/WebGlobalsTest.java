package dev.hyperterse.script;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web globals npm packages assume: crypto (uuid v11 fails without getRandomValues), text
 * encoding, base64, URL, structuredClone and timers within a call.
 */
class WebGlobalsTest extends ScriptTestBase {
    private Object run(String... lines) throws Exception {
        p.write("h.js", lines);
        return p.callOnce(p.ref("h.js"), new JsonObject().put("inputs", new JsonObject()).put("tool", "t"));
    }

    @Test
    void cryptoAsUuidUsesIt() throws Exception {
        JsonObject out = (JsonObject) run(
                "export default async () => {",
                "  const a = crypto.getRandomValues(new Uint8Array(16));",
                "  const b = crypto.getRandomValues(new Uint32Array(4));",
                "  let quota = 'none';",
                "  try { crypto.getRandomValues(new Uint8Array(65537)); } catch (e) { quota = e.name; }",
                "  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc')));",
                "  const sha1 = new Uint8Array(await crypto.subtle.digest({ name: 'SHA-1' }, new Uint8Array([97, 98, 99]).buffer));",
                "  const hex = (x) => Array.from(x, (n) => n.toString(16).padStart(2, '0')).join('');",
                "  let unsupported = 'none';",
                "  await crypto.subtle.digest('MD5', new Uint8Array(1)).catch((e) => { unsupported = e.name; });",
                "  return { a: Array.from(a), b: b.length, quota, uuid: crypto.randomUUID(), other: crypto.randomUUID(),",
                "    sha256: hex(digest), sha1: hex(sha1), unsupported };",
                "};");
        assertEquals(16, out.getJsonArray("a").size());
        assertEquals("QuotaExceededError", out.getString("quota"));
        assertTrue(out.getString("uuid").matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"),
                out.getString("uuid"));
        assertNotEquals(out.getString("uuid"), out.getString("other"));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", out.getString("sha256"));
        assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", out.getString("sha1"));
        assertEquals("NotSupportedError", out.getString("unsupported"));
    }

    @Test
    void textEncodingAndBase64() throws Exception {
        JsonObject out = (JsonObject) run(
                "export default () => {",
                "  const bytes = new TextEncoder().encode('héllo 👋');",
                "  let fatal = 'none';",
                "  try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xc0, 0xa7])); } catch (e) { fatal = e.name; }",
                "  let bad = 'none';",
                "  try { atob('###'); } catch (e) { bad = e.name; }",
                "  return { bytes: Array.from(bytes), back: new TextDecoder().decode(bytes),",
                "    lenient: new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0x62])), fatal,",
                "    b64: btoa('hello'), plain: atob('aGVsbG8='), unpadded: atob('aGk'), bad };",
                "};");
        assertEquals(new JsonArray().add(104).add(195).add(169).add(108).add(108).add(111).add(32)
                .add(240).add(159).add(145).add(139), out.getJsonArray("bytes"));
        assertEquals("héllo 👋", out.getString("back"));
        assertEquals("a\uFFFDb", out.getString("lenient"));
        assertEquals("TypeError", out.getString("fatal"), "an overlong form is invalid UTF-8");
        assertEquals("aGVsbG8=", out.getString("b64"));
        assertEquals("hello", out.getString("plain"));
        assertEquals("hi", out.getString("unpadded"));
        assertEquals("InvalidCharacterError", out.getString("bad"));
    }

    @Test
    void urlsAndSearchParams() throws Exception {
        JsonObject out = (JsonObject) run(
                "export default () => {",
                "  const u = new URL('https://User:pw@API.Example.com:443/v1/../v2/items?q=a+b&x=1#top');",
                "  u.searchParams.set('page', '2');",
                "  u.searchParams.append('tag', 'a&b');",
                "  const rel = new URL('../other?z=1', 'http://h.test:8080/a/b/c');",
                "  const p = new URLSearchParams({ city: 'São Paulo', n: 3 });",
                "  let invalid = 'none';",
                "  try { new URL('not a url'); } catch (e) { invalid = e.name; }",
                "  return { host: u.host, hostname: u.hostname, port: u.port, path: u.pathname, q: u.searchParams.get('q'),",
                "    href: u.href, origin: u.origin, hash: u.hash, rel: rel.href, form: p.toString(), invalid,",
                "    parsed: Array.from(new URLSearchParams('?a=1&a=2&b=%20x').entries()), can: URL.canParse('/x', 'http://h') };",
                "};");
        assertEquals("api.example.com", out.getString("host"));
        assertEquals("", out.getString("port"));
        assertEquals("/v2/items", out.getString("path"));
        assertEquals("a b", out.getString("q"));
        assertEquals("https://User:pw@api.example.com/v2/items?q=a+b&x=1&page=2&tag=a%26b#top", out.getString("href"));
        assertEquals("https://api.example.com", out.getString("origin"));
        assertEquals("#top", out.getString("hash"));
        assertEquals("http://h.test:8080/a/other?z=1", out.getString("rel"));
        assertEquals("city=S%C3%A3o+Paulo&n=3", out.getString("form"));
        assertEquals("TypeError", out.getString("invalid"));
        assertEquals(new JsonArray("[[\"a\",\"1\"],[\"a\",\"2\"],[\"b\",\" x\"]]"), out.getJsonArray("parsed"));
        assertEquals(true, out.getBoolean("can"));
    }

    @Test
    void structuredCloneAndTimersWithinACall() throws Exception {
        JsonObject out = (JsonObject) run(
                "export default async () => {",
                "  const src = { d: new Date(0), m: new Map([[1, { x: 1 }]]), s: new Set([1, 2]), list: [1, [2]] };",
                "  src.self = src;",
                "  const c = structuredClone(src);",
                "  let fn = 'none';",
                "  try { structuredClone({ f: () => 1 }); } catch (e) { fn = e.name; }",
                "  const order = [];",
                "  const cancelled = setTimeout(() => order.push('cancelled'), 5);",
                "  clearTimeout(cancelled);",
                "  await new Promise((resolve) => { setTimeout(() => { order.push('second'); resolve(); }, 30);",
                "    setTimeout((v) => order.push(v), 1, 'first'); });",
                "  queueMicrotask(() => order.push('micro'));",
                "  await null;",
                "  return { cloned: c !== src && c.self === c && c.d.getTime() === 0 && c.m.get(1).x === 1 && c.m.get(1) !== src.m.get(1)",
                "    && c.s.has(2) && c.list[1][0] === 2, fn, order };",
                "};");
        assertEquals(true, out.getBoolean("cloned"));
        assertEquals("DataCloneError", out.getString("fn"));
        assertEquals(new JsonArray().add("first").add("second").add("micro"), out.getJsonArray("order"));
    }
    /**
     * clearTimeout takes the id of a timer this script set: any other number, such as the id of
     * one of the server's own Vert.x timers (call time limits, connection deadlines) or of another
     * script's timer, is left alone.
     */
    @Test
    void clearTimeoutCancelsOnlyTheScriptsOwnTimers() throws Exception {
        p.write("h.js", "export default ({ inputs }) => { for (const id of inputs.ids) { clearTimeout(id); } return 1; };");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            java.util.concurrent.CompletableFuture<Long> fired = new java.util.concurrent.CompletableFuture<>();
            long hostTimer = p.vertx.setTimer(1000, fired::complete);
            JsonArray ids = new JsonArray();
            for (long id = Math.max(0, hostTimer - 50); id <= hostTimer + 50; id++) {
                ids.add(id);
            }
            assertEquals(1, ScriptFixture.await(runtime.call(p.ref("h.js"), new JsonObject().put("tool", "t")
                    .put("inputs", new JsonObject().put("ids", ids)), java.time.Duration.ofSeconds(5))));
            assertEquals(hostTimer, fired.get(10, java.util.concurrent.TimeUnit.SECONDS), "the server's timer still fires");
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    /**
     * A call may have at most {@link LoadedScript#MAX_PENDING_TIMERS} timers pending: one more is
     * a RangeError naming the limit, clearing one makes room, and the next call starts with none.
     */
    @Test
    void aCallHasAtMostTenThousandTimersPending() throws Exception {
        p.write("h.js",
                "export default () => {",
                "  const ids = [];",
                "  for (let i = 0; i < 10000; i++) { ids.push(setTimeout(() => {}, 3600000)); }",
                "  let refused = 'none';",
                "  try { setTimeout(() => {}, 1); } catch (e) { refused = e.name + ': ' + e.message; }",
                "  clearTimeout(ids[0]);",
                "  setTimeout(() => {}, 1);",
                "  return refused;",
                "};");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            for (int call = 0; call < 2; call++) {
                assertEquals("RangeError: setTimeout: this call already has 10000 timers pending, the most a call may"
                        + " have (clear the ones it no longer needs with clearTimeout)",
                        ScriptFixture.await(runtime.call(p.ref("h.js"), new JsonObject().put("tool", "t")
                                .put("inputs", new JsonObject()), java.time.Duration.ofSeconds(20))),
                        "call " + call + ": the timers of the call before were dropped");
            }
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    /**
     * A script's timers are the call's own, not Vert.x timers: a call that leaves thousands
     * pending gives the event loops nothing to schedule or cancel (four such calls once stalled
     * /heartbeat for a second cancelling 190k timers at their end). Vert.x numbers its timers
     * in sequence, so two host timers around the call show how many it set.
     */
    @Test
    void pendingTimersNeverReachTheEventLoops() throws Exception {
        p.write("h.js",
                "export default async () => {",
                "  for (let i = 0; i < 5000; i++) { setTimeout(() => {}, 3600000); }",
                "  await new Promise((resolve) => setTimeout(resolve, 5));",
                "  return 'done';",
                "};");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            long before = p.vertx.setTimer(60_000, id -> { });
            assertEquals("done", ScriptFixture.await(runtime.call(p.ref("h.js"), new JsonObject().put("tool", "t")
                    .put("inputs", new JsonObject()), java.time.Duration.ofSeconds(20))));
            long after = p.vertx.setTimer(60_000, id -> { });
            p.vertx.cancelTimer(before);
            p.vertx.cancelTimer(after);
            assertTrue(after - before < 100, "Vert.x timers set during the call: " + (after - before - 1));
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }
}
