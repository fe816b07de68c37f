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

/** {@code /ready}: every adapter pinged; 503 with the failing one named (no secret) or while stopping. */
class ReadinessTest {

    @Test
    void readyWhileEveryAdapterAnswersAndUnavailableWhenOneDoesNot(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        Files.writeString(project.resolve("app/adapters/slow.terse"), "connector: delay\nconnection_string: 'delay://x'\n");
        DelayConnectors delay = new DelayConnectors();
        try (RunningServer server = RunningServer.start(project, Map.of(), RunningServer.withDelay(delay), s -> s,
                ServeOptions.DEFAULTS)) {
            RawHttp http = new RawHttp(server.baseUrl());
            HttpResponse<String> ok = http.send("GET", "/ready");
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
            HttpResponse<String> down = http.send("GET", "/ready");
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

    private static JsonObject withoutLatency(JsonObject adapter) {
        JsonObject copy = adapter.copy();
        assertTrue(copy.getLong("latency_ms") >= 0);
        copy.remove("latency_ms");
        return copy;
    }
}
