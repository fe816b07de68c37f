package dev.hyperterse.hardening;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The hot paths under concurrent load: a TypeScript handler, a database tool with both mappers,
 * a plain database tool and a failing call, from 16 clients at once. Every call gets its right
 * answer, each failed call is logged exactly once, and the event loop is never blocked (checked
 * by {@link WatchedServer#close} with a 1 s blocked-thread limit).
 */
class HotPathsTest {
    static final int CLIENTS = 16;
    static final int ROUNDS = 40;

    @TempDir
    Path scratch;

    @Test
    void scriptsAndStatementsUnderLoadKeepTheEventLoopFreeAndLogEachFailureOnce() throws Exception {
        try (WatchedServer server = WatchedServer.quickstartWithScripts(scratch)) {
            RawHttp http = server.http();
            AtomicInteger failedCalls = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                running.add(clients.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        String name = "n" + client + "-" + round;
                        assertEquals(new JsonObject().put("greeting", "hello " + name),
                                rows(http, "hello", new JsonObject().put("name", name)).getJsonObject(0));
                        assertEquals(new JsonObject().put("who", "Ada Lovelace"),
                                rows(http, "get-customer-mapped", new JsonObject().put("customer_id", 1)).getJsonObject(0));
                        assertEquals("Grace Hopper", rows(http, "get-customer", new JsonObject().put("customer_id", 2))
                                .getJsonObject(0).getString("name"));
                        ToolError error = ToolError.ofAnswer(call(http, "hello", new JsonObject().put("name", new JsonArray())));
                        assertEquals(-32000, error.code(), error::toString);
                        failedCalls.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(120, TimeUnit.SECONDS);
            }
            clients.shutdown();
            long logged = server.events().stream().filter(HotPathsTest::failedCallLine).count();
            assertEquals(failedCalls.get(), logged, "one log line per failed call");
        }
    }

    static boolean failedCallLine(ILoggingEvent e) {
        return e.getLoggerName().equals("dev.hyperterse.pipeline.Pipeline") && e.getMessage().equals("call failed");
    }

    static JsonObject call(RawHttp http, String tool, JsonObject inputs) {
        try {
            HttpResponse<String> r = http.mcp(RawHttp.execute(1, tool, inputs));
            assertEquals(200, r.statusCode(), r.body());
            return new JsonObject(r.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonArray rows(RawHttp http, String tool, JsonObject inputs) {
        JsonObject response = call(http, tool, inputs);
        return new JsonArray(response.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
    }
}
