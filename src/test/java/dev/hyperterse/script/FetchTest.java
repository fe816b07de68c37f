package dev.hyperterse.script;

import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fetch against a local HTTP server: method, headers, body, status, ok, headers, text(), json(), time limit. */
class FetchTest extends ScriptTestBase {
    HttpServer server;
    String base;
    java.util.concurrent.CompletableFuture<Long> slowStarted = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<Long> slowClosed = new java.util.concurrent.CompletableFuture<>();

    @BeforeEach
    void start() throws Exception {
        server = ScriptFixture.await(p.vertx.createHttpServer().requestHandler(req -> {
            switch (req.path()) {
                case "/json":
                    req.response().putHeader("content-type", "application/json").putHeader("x-test", "yes")
                            .end(new JsonObject().put("a", 1).encode());
                    break;
                case "/echo":
                    req.body().onSuccess(body -> req.response().setStatusCode(201).end(new JsonObject()
                            .put("method", req.method().name())
                            .put("auth", req.getHeader("authorization"))
                            .put("type", req.getHeader("content-type"))
                            .put("body", body.toString()).encode()));
                    break;
                case "/missing":
                    req.response().setStatusCode(404).end("not here");
                    break;
                case "/after-slow":
                    // answers once /slow has arrived, so a script awaiting it knows its /slow request is out
                    slowStarted.thenRun(() -> p.vertx.runOnContext(v -> req.response().end("ok")));
                    break;
                case "/big":
                    // more than a script may read, sent without a length
                    req.response().setChunked(true);
                    for (int i = 0; i < 17; i++) {
                        req.response().write(io.vertx.core.buffer.Buffer.buffer(new byte[1024 * 1024]));
                    }
                    req.response().end();
                    break;
                case "/redirect-home":
                    req.response().setStatusCode(302).putHeader("location", req.getParam("to")).end();
                    break;
                default:
                    // /slow: never answers; tells when its connection goes
                    req.connection().closeHandler(v -> slowClosed.complete(System.nanoTime()));
                    slowStarted.complete(System.nanoTime());
                    break;
            }
        }).listen(0, "127.0.0.1"));
        base = "http://127.0.0.1:" + server.actualPort();
    }

    static JsonObject payload(String base) {
        return new JsonObject().put("inputs", new JsonObject().put("base", base)).put("tool", "t");
    }

    @Test
    void getPostAndErrorStatuses() throws Exception {
        p.write("h.ts",
                "export default async ({ inputs }: { inputs: { base: string } }) => {",
                "  const r = await fetch(inputs.base + '/json');",
                "  const data = await r.json();",
                "  const posted = await fetch(inputs.base + '/echo', { method: 'post',",
                "    headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },",
                "    body: JSON.stringify({ q: 1 }) });",
                "  const missing = await fetch(inputs.base + '/missing');",
                "  return { status: r.status, ok: r.ok, header: r.headers.get('X-Test'), raw: r.headers['x-test'], data,",
                "    posted: { status: posted.status, ok: posted.ok, echo: await posted.json() },",
                "    missing: { status: missing.status, ok: missing.ok, text: await missing.text() } };",
                "};");
        JsonObject out = (JsonObject) p.callOnce(p.ref("h.ts"), payload(base));
        assertEquals(200, out.getInteger("status"));
        assertEquals(true, out.getBoolean("ok"));
        assertEquals("yes", out.getString("header"));
        assertEquals("yes", out.getString("raw"));
        assertEquals(new JsonObject().put("a", 1), out.getJsonObject("data"));
        JsonObject posted = out.getJsonObject("posted");
        assertEquals(201, posted.getInteger("status"));
        assertEquals(new JsonObject().put("method", "POST").put("auth", "Bearer t").put("type", "application/json")
                .put("body", "{\"q\":1}"), posted.getJsonObject("echo"));
        assertEquals(new JsonObject().put("status", 404).put("ok", false).put("text", "not here"),
                out.getJsonObject("missing"));
    }

    /** Hyperterse's handlers use fetch synchronously: a plain (not async) handler reads the response at once. */
    @Test
    void fetchWorksSynchronouslyAsInHyperterse() throws Exception {
        p.write("h.ts",
                "export default ({ inputs }: { inputs: { base: string } }) => {",
                "  const r = fetch(inputs.base + '/json');",
                "  if (!r.ok) { throw new Error('status ' + r.status); }",
                "  const missing = fetch(inputs.base + '/missing');",
                "  let refused = 'fetched';",
                "  try { fetch('http://127.0.0.1:1/').status; } catch (e) { refused = e.name + ': ' + e.message; }",
                "  return { status: r.status, header: r.headers.get('x-test'), data: r.json(), again: r.text(),",
                "    missing: { status: missing.status, ok: missing.ok, text: missing.text() }, refused };",
                "};");
        JsonObject out = (JsonObject) p.callOnce(p.ref("h.ts"), payload(base));
        assertEquals(200, out.getInteger("status"));
        assertEquals("yes", out.getString("header"));
        assertEquals(new JsonObject().put("a", 1), out.getJsonObject("data"));
        assertEquals("{\"a\":1}", out.getString("again"));
        assertEquals(new JsonObject().put("status", 404).put("ok", false).put("text", "not here"),
                out.getJsonObject("missing"));
        assertTrue(out.getString("refused").startsWith("TypeError: fetch failed:"), out.encode());
    }

    /** The same fetch awaited, chained with then, and several at once: requests still run side by side. */
    @Test
    void fetchIsStillAPromiseForThoseWhoAwaitIt() throws Exception {
        p.write("h.js",
                "export default async ({ inputs }) => {",
                "  const chained = await fetch(inputs.base + '/json').then((r) => r.json());",
                "  const [slowSide, other] = await Promise.all([fetch(inputs.base + '/after-slow'),",
                "    (async () => { const r = fetch(inputs.base + '/slow'); return 'started'; })()]);",
                "  const caught = await fetch('http://127.0.0.1:1/').then(() => 'fetched', (e) => e.name);",
                "  return { chained, afterSlow: await slowSide.text(), other, caught };",
                "};");
        JsonObject out = (JsonObject) p.callOnce(p.ref("h.js"), payload(base));
        assertEquals(new JsonObject().put("a", 1), out.getJsonObject("chained"));
        assertEquals("ok", out.getString("afterSlow"), "a request answered only once another one arrived");
        assertEquals("started", out.getString("other"));
        assertEquals("TypeError", out.getString("caught"));
    }

    @Test
    void fetchIsBoundByTheScriptsTimeLimit() throws Exception {
        p.write("h.js", "export default async ({ inputs }) => (await fetch(inputs.base + '/slow')).status;");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            long started = System.nanoTime();
            ScriptFailure e = (ScriptFailure) ScriptFixture.failure(
                    runtime.call(p.ref("h.js"), payload(base), Duration.ofMillis(700)));
            assertTrue(e.timedOut(), e.getMessage());
            assertTrue((System.nanoTime() - started) / 1_000_000 < 5000);
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void unsupportedUrlsAndRefusedConnectionsRejectWithTypeError() throws Exception {
        p.write("h.js",
                "const attempt = async (url) => { try { await fetch(url); return 'fetched'; } catch (e) { return e.name + ': ' + e.message; } };",
                "export default async () => [await attempt('file:///etc/passwd'), await attempt('not a url'),",
                "  await attempt('http://127.0.0.1:1/')];");
        io.vertx.core.json.JsonArray out = (io.vertx.core.json.JsonArray) p.callOnce(p.ref("h.js"), payload(base));
        assertTrue(out.getString(0).startsWith("TypeError: fetch failed: only absolute http and https URLs"), out.encode());
        assertTrue(out.getString(1).startsWith("TypeError: fetch failed:"), out.encode());
        assertTrue(out.getString(2).startsWith("TypeError: fetch failed:"), out.encode());
    }

    /** A method that is no HTTP token rejects like any other bad request, in the script's words. */
    @Test
    void anInvalidMethodRejectsWithTypeError() throws Exception {
        p.write("h.js", "export default async ({ inputs }) => {",
                "  try { await fetch(inputs.base + '/echo', { method: 'GE T' }); return 'fetched'; }",
                "  catch (e) { return e.name + ': ' + e.message; } };");
        String out = (String) p.callOnce(p.ref("h.js"), payload(base));
        assertEquals("TypeError: fetch failed: 'GE T' is not a valid HTTP method", out);
    }

    /** A body past the limit fails the fetch saying so, however it was sent. */
    @Test
    void aBodyLargerThanTheLimitRejectsSayingSo() throws Exception {
        p.write("h.js", "export default async ({ inputs }) => {",
                "  try { await fetch(inputs.base + '/big'); return 'fetched'; } catch (e) { return e.message; } };");
        assertEquals("fetch failed: the response body is larger than " + ScriptFetch.MAX_BODY_BYTES + " bytes",
                p.callOnce(p.ref("h.js"), payload(base)));
    }

    /** A handler that fetches its own server is refused, by every name of this machine, redirects included. */
    @Test
    void theServersOwnAddressIsRefused() throws Exception {
        int port = server.actualPort();
        p.write("h.js",
                "const attempt = async (url) => { try { return (await fetch(url)).status; } catch (e) { return e.message; } };",
                "export default async ({ inputs }) => [await attempt('http://127.0.0.1:' + inputs.port + '/json'),",
                "  await attempt('http://localhost:' + inputs.port + '/json'), await attempt('http://0.0.0.0:' + inputs.port + '/json'),",
                "  await attempt('http://[::1]:' + inputs.port + '/json'),",
                "  await attempt('http://127.0.0.1:' + inputs.other + '/redirect-home?to=' + encodeURIComponent('http://localhost:' + inputs.port + '/json'))];");
        HttpServer other = ScriptFixture.await(p.vertx.createHttpServer().requestHandler(req -> req.response()
                .setStatusCode(302).putHeader("location", req.getParam("to")).end()).listen(0, "127.0.0.1"));
        JsonObject payload = new JsonObject().put("tool", "t").put("inputs", new JsonObject().put("port", port)
                .put("other", other.actualPort()));
        ScriptRuntime runtime = p.start(new FetchRules(java.util.List.of(), () -> port), p.ref("h.js"));
        try {
            io.vertx.core.json.JsonArray out = (io.vertx.core.json.JsonArray) ScriptFixture.await(
                    runtime.call(p.ref("h.js"), payload, Duration.ofSeconds(10)));
            for (int i = 0; i < out.size(); i++) {
                assertTrue(String.valueOf(out.getValue(i)).contains("this server's own address"), out.encode());
            }
        } finally {
            ScriptFixture.await(runtime.close());
        }
        // an entry naming the address with its port allows it deliberately
        ScriptRuntime allowed = p.start(new FetchRules(java.util.List.of(dev.hyperterse.model.HostPattern.parse(
                "127.0.0.1:" + port)), () -> port), p.ref("h.js"));
        try {
            io.vertx.core.json.JsonArray out = (io.vertx.core.json.JsonArray) ScriptFixture.await(
                    allowed.call(p.ref("h.js"), payload, Duration.ofSeconds(10)));
            assertEquals(200, out.getInteger(0));
            assertTrue(out.getString(1).contains("is not in tools.fetch.allow_hosts"), out.encode());
        } finally {
            ScriptFixture.await(allowed.close());
        }
    }

    /**
     * The check resolves a name as the connection does: a fully qualified name (a trailing dot),
     * which the JDK's resolver does not know but the client's does, is this server too.
     */
    @Test
    void theServersOwnAddressIsRefusedByItsFullyQualifiedName() throws Exception {
        int port = server.actualPort();
        p.write("h.js", "export default async ({ inputs }) => { try { return (await fetch('http://localhost.:' + inputs.port",
                "  + '/json')).status; } catch (e) { return e.message; } };");
        ScriptRuntime runtime = p.start(new FetchRules(java.util.List.of(), () -> port), p.ref("h.js"));
        try {
            Object out = ScriptFixture.await(runtime.call(p.ref("h.js"), new JsonObject().put("tool", "t")
                    .put("inputs", new JsonObject().put("port", port)), Duration.ofSeconds(10)));
            assertTrue(String.valueOf(out).contains("this server's own address"), String.valueOf(out));
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void anAllowListLimitsTheHosts() throws Exception {
        p.write("h.js", "export default async ({ inputs }) => { try { return (await fetch(inputs.base + '/json')).status; }",
                "  catch (e) { return e.message; } };");
        ScriptRuntime runtime = p.start(new FetchRules(java.util.List.of(dev.hyperterse.model.HostPattern.parse(
                "*.example.com")), () -> -1), p.ref("h.js"));
        try {
            assertEquals("fetch failed: 127.0.0.1:" + server.actualPort() + " is not in tools.fetch.allow_hosts "
                    + "(*.example.com)", ScriptFixture.await(runtime.call(p.ref("h.js"), payload(base), Duration.ofSeconds(5))));
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    /** A request the script did not await ends with its call, not when the call's time would have run out. */
    @Test
    void requestsEndWithTheCall() throws Exception {
        p.write("h.js", "export default async ({ inputs }) => { fetch(inputs.base + '/slow').catch(() => {});",
                "  await (await fetch(inputs.base + '/after-slow')).text(); return 1; };");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            assertEquals(1, ScriptFixture.await(runtime.call(p.ref("h.js"), payload(base), Duration.ofSeconds(60))));
            long started = slowStarted.get(10, java.util.concurrent.TimeUnit.SECONDS);
            long closed = slowClosed.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue((closed - started) / 1_000_000 < 15_000, "the request lived " + (closed - started) / 1_000_000 + " ms");
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }
}
