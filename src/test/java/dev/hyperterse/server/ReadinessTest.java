package dev.hyperterse.server;

import dev.hyperterse.testing.DelayConnectors;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /ready}: every adapter pinged; 503 with the failing one named (no secret) or while
 * stopping; the details only for a caller presenting the metrics token; behind the MCP
 * Origin/Host checks and without CORS headers.
 */
class ReadinessTest {
    static final String[] TOKEN = {"Authorization", "Bearer probe-s3cret"};

    @Test
    void readyWhileEveryAdapterAnswersAndUnavailableWhenOneDoesNot(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        Files.writeString(project.resolve("app/adapters/slow.terse"), "connector: delay\nconnection_string: 'delay://x'\n");
        DelayConnectors delay = new DelayConnectors();
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay),
                s -> s.metricsToken("probe-s3cret"), ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            HttpResponse<String> ok = http.send("GET", "/ready", TOKEN);
            assertEquals(200, ok.statusCode(), ok.body());
            JsonObject body = new JsonObject(ok.body());
            assertTrue(body.getBoolean("ready"));
            assertEquals("quickstart", body.getString("project"));
            assertEquals(1L, body.getLong("generation"));
            JsonArray adapters = body.getJsonArray("adapters");
            assertEquals(2, adapters.size());
            assertEquals(new JsonObject().put("name", "shop").put("connector", "sqlite").put("status", "up"),
                    withoutLatency(adapters.getJsonObject(0)));
            assertEquals("up", adapters.getJsonObject(1).getString("status"));

            delay.down.set(true);
            HttpResponse<String> down = http.send("GET", "/ready", TOKEN);
            assertEquals(503, down.statusCode(), down.body());
            JsonObject failing = new JsonObject(down.body()).getJsonArray("adapters").getJsonObject(1);
            assertEquals("slow", failing.getString("name"));
            assertEquals("down", failing.getString("status"));
            assertTrue(failing.getString("error").startsWith("connection refused"), failing.encode());
            assertFalse(down.body().contains("hunter2"), "no secret in the readiness answer: " + down.body());
            assertEquals(200, http.send("GET", "/heartbeat").statusCode(), "liveness is not readiness");

            delay.down.set(false);
            assertEquals(200, http.send("GET", "/ready").statusCode());

            server.server().shutdown(Duration.ofSeconds(5));
            // the listener stops accepting at once, so only an open connection could still ask
        }
    }

    @Test
    void withoutTheTokenAProbeLearnsOnlyWhetherTheServerIsReady(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        Files.writeString(project.resolve("app/adapters/slow.terse"), "connector: delay\nconnection_string: 'delay://x'\n");
        DelayConnectors delay = new DelayConnectors();
        for (String token : new String[] {null, "probe-s3cret"}) {
            try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay),
                    s -> s.metricsToken(token), ServeOptions.DEFAULTS)) {
                RawHttp http = new RawHttp(server.baseUrl());
                String[][] asked = token == null ? new String[][] {{}, TOKEN}
                        : new String[][] {{}, {"Authorization", "Bearer wrong"}};
                for (String[] headers : asked) {
                    delay.down.set(false);
                    HttpResponse<String> ok = http.send("GET", "/ready", headers);
                    assertEquals(200, ok.statusCode(), ok.body());
                    // no project name, version, tool count or adapter names
                    assertEquals(new JsonObject().put("ready", true).put("status", "ready"), new JsonObject(ok.body()));
                    delay.down.set(true);
                    HttpResponse<String> down = http.send("GET", "/ready", headers);
                    assertEquals(503, down.statusCode(), down.body());
                    // nor which adapter failed or why (its error may name the database's host and port)
                    assertEquals(new JsonObject().put("ready", false).put("status", "unavailable"),
                            new JsonObject(down.body()));
                }
                delay.down.set(false);
            }
        }
    }

    @Test
    void readinessIsBehindTheMcpOriginAndHostChecksWithoutCors(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        try (RunningServer server = RunningServer.start(project)) {
            RawHttp http = new RawHttp(server.baseUrl());
            // the server is bound to loopback: a rebinding page names its own host
            assertEquals(403, http.send("GET", "/ready", "Host", "evil.example").statusCode());
            assertEquals(403, http.send("GET", "/ready", "Origin", "https://evil.example").statusCode());
            HttpResponse<String> local = http.send("GET", "/ready", "Origin", "http://localhost:3000");
            assertEquals(200, local.statusCode(), local.body());
            // for probes, not pages: a browser page may not read it, whatever server.cors_origins says
            assertTrue(local.headers().firstValue("access-control-allow-origin").isEmpty(), local.headers().toString());
            assertEquals(java.util.Optional.of("*"), http.send("GET", "/heartbeat", "Origin", "http://localhost:3000")
                    .headers().firstValue("access-control-allow-origin"), "the other paths keep their CORS headers");
            HttpResponse<String> preflight = http.send("OPTIONS", "/ready", "Origin", "http://localhost:3000",
                    "Access-Control-Request-Method", "GET");
            assertTrue(preflight.headers().firstValue("access-control-allow-origin").isEmpty(),
                    preflight.headers().toString());
        }
    }

    private static JsonObject withoutLatency(JsonObject adapter) {
        JsonObject copy = adapter.copy();
        assertTrue(copy.getLong("latency_ms") >= 0);
        copy.remove("latency_ms");
        return copy;
    }
}
