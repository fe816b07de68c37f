package dev.hyperterse.script;

import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fetch against a local HTTP server: method, headers, body, status, ok, headers, text(), json(), time limit. */
class FetchTest {
    static ScriptEngine engine;
    @TempDir
    Path dir;
    ScriptFixture p;
    HttpServer server;
    String base;

    @BeforeAll
    static void engine() {
        engine = ScriptEngine.create();
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    @BeforeEach
    void start() throws Exception {
        p = new ScriptFixture(dir, engine);
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
                default:
                    // /slow: never answers
                    break;
            }
        }).listen(0, "127.0.0.1"));
        base = "http://127.0.0.1:" + server.actualPort();
    }

    @AfterEach
    void close() throws Exception {
        p.close();
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
}
