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

    /**
     * A name whose answer changes between the check and the connection (DNS rebinding: first a
     * public address, then this machine's) cannot reach this server: the request connects to the
     * address that was checked, on each redirect hop too. A tiny DNS server in the test gives the
     * answers, one per A query, and the client's resolver caches nothing.
     */
    @Test
    void aNameThatRebindsToThisMachineAfterTheCheckDoesNotReachIt() throws Exception {
        java.util.concurrent.atomic.AtomicInteger reached = new java.util.concurrent.atomic.AtomicInteger();
        HttpServer own = ScriptFixture.await(p.vertx.createHttpServer().requestHandler(req -> {
            reached.incrementAndGet();
            req.response().end("this server");
        }).listen(0, "127.0.0.1"));
        HttpServer other = ScriptFixture.await(p.vertx.createHttpServer().requestHandler(req -> {
            if (req.path().equals("/host")) {
                req.response().end(String.valueOf(req.getHeader("host")));
            } else {
                req.response().setStatusCode(302).putHeader("location", req.getParam("to")).end();
            }
        }).listen(0, "127.0.0.1"));
        // each A query takes the next answer; the last one stays
        java.util.Deque<String> answers = new java.util.concurrent.ConcurrentLinkedDeque<>();
        io.vertx.core.datagram.DatagramSocket dns = p.vertx.createDatagramSocket();
        dns.handler(packet -> {
            io.vertx.core.buffer.Buffer query = packet.data();
            boolean a = query.getUnsignedShort(questionEnd(query) - 4) == 1;
            String answer = !a ? null : answers.size() > 1 ? answers.poll() : answers.peek();
            dns.send(dnsAnswer(query, answer), packet.sender().port(), packet.sender().host());
        });
        ScriptFixture.await(dns.listen(0, "127.0.0.1"));
        io.vertx.core.Vertx resolving = io.vertx.core.Vertx.vertx(new io.vertx.core.VertxOptions()
                .setAddressResolverOptions(new io.vertx.core.dns.AddressResolverOptions()
                        .setServers(java.util.List.of("127.0.0.1:" + dns.localAddress().port()))
                        .setCacheMinTimeToLive(0).setCacheMaxTimeToLive(0).setCacheNegativeTimeToLive(0)
                        .setOptResourceEnabled(false).setSearchDomains(java.util.List.of()).setNdots(1)
                        .setHostsValue(io.vertx.core.buffer.Buffer.buffer("127.0.0.1 localhost\n"))));
        p.write("h.js", "export default async ({ inputs }) => {",
                "  try { const r = await fetch(inputs.url); return r.status + ' ' + await r.text(); }",
                "  catch (e) { return e.message; } };");
        ScriptRuntime runtime = ScriptFixture.await(ScriptRuntime.start(resolving, engine, dir,
                java.util.List.of(new ScriptRuntime.Use("", p.ref("h.js"), java.util.Map.of())), 1,
                Duration.ofSeconds(5), dev.hyperterse.telemetry.Metrics.NONE,
                new ScriptAccess(java.util.List.of(dir), new FetchRules(java.util.List.of(), () -> own.actualPort()))));
        try {
            // a name is connected to as it resolved, and keeps its name in the Host header
            answers.clear();
            answers.add("127.0.0.1");
            String url = "http://rebind.test:" + other.actualPort() + "/host";
            assertEquals("200 rebind.test:" + other.actualPort(), call(runtime, url));

            String self = "http://rebind.test:" + own.actualPort() + "/";
            for (String first : java.util.List.of(self, "http://127.0.0.1:" + other.actualPort() + "/?to="
                    + java.net.URLEncoder.encode(self, java.nio.charset.StandardCharsets.UTF_8))) {
                answers.clear();
                answers.add("192.0.2.1"); // TEST-NET-1: not this machine, and nothing answers there
                answers.add("127.0.0.1");
                Object out = call(runtime, first);
                assertTrue(!String.valueOf(out).startsWith("200"), first + ": " + out);
                assertEquals(0, reached.get(), first + " reached this server: " + out);
            }
            // the name as it resolves now is refused
            answers.clear();
            answers.add("127.0.0.1");
            assertTrue(String.valueOf(call(runtime, self)).contains("this server's own address"));
            assertEquals(0, reached.get());
        } finally {
            ScriptFixture.await(runtime.close());
            resolving.close().toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
            ScriptFixture.await(dns.close());
        }
    }

    private Object call(ScriptRuntime runtime, String url) throws Exception {
        try {
            return ScriptFixture.await(runtime.call(p.ref("h.js"), new JsonObject().put("tool", "t")
                    .put("inputs", new JsonObject().put("url", url)), Duration.ofSeconds(2)));
        } catch (ScriptFailure e) {
            // a connection to an address where nothing answers may last until the call's time is up
            return e.getMessage();
        }
    }

    /** Where the question of a DNS query ends: after its name, QTYPE and QCLASS. */
    private static int questionEnd(io.vertx.core.buffer.Buffer query) {
        int end = 12;
        while (query.getByte(end) != 0) {
            end += 1 + (query.getByte(end) & 0xff);
        }
        return end + 5;
    }

    /** A DNS response to {@code query}: {@code ipv4} as its one answer, none when null. */
    private static io.vertx.core.buffer.Buffer dnsAnswer(io.vertx.core.buffer.Buffer query, String ipv4) {
        int end = questionEnd(query);
        boolean a = ipv4 != null;
        io.vertx.core.buffer.Buffer out = io.vertx.core.buffer.Buffer.buffer()
                .appendBytes(query.getBytes(0, 2))
                .appendUnsignedShort(0x8180) // a response, recursion desired and available, no error
                .appendUnsignedShort(1).appendUnsignedShort(a ? 1 : 0).appendUnsignedShort(0).appendUnsignedShort(0)
                .appendBytes(query.getBytes(12, end));
        if (a) {
            out.appendUnsignedShort(0xc00c).appendUnsignedShort(1).appendUnsignedShort(1).appendInt(0)
                    .appendUnsignedShort(4);
            for (String part : ipv4.split("\\.")) {
                out.appendByte((byte) Integer.parseInt(part));
            }
        }
        return out;
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
