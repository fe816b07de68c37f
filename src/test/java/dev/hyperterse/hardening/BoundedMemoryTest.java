package dev.hyperterse.hardening;

import dev.hyperterse.testing.RawHttp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many big-but-allowed requests (each just under the 4 MB body limit, four at a time) leave the
 * heap where it was: nothing a request brings is kept once it is answered. Measured with the
 * heap-in-use after a full GC in this JVM (the server runs in-process), against a generous bound,
 * so the test does not depend on the collector's timing or the machine's speed.
 */
class BoundedMemoryTest {
    /** Rounds before measuring, so buffer pools and caches reach their steady size first. */
    private static final int WARM_UP_ROUNDS = 2;
    private static final int ROUNDS = 8;
    /** A little under the default body limit of 4 MB, with room for the envelope. */
    private static final int BIG = 3_500_000;
    /** What the heap may grow by: less than 30 of the 56 requests would cost if each were kept. */
    private static final long ALLOWED_GROWTH = 96L * 1024 * 1024;

    @TempDir
    Path scratch;

    @Test
    void bigRequestsDoNotAccumulate() throws Exception {
        try (WatchedServer server = WatchedServer.quickstart(scratch)) {
            RawHttp http = server.http();
            List<String> bodies = bodies();
            ExecutorService clients = Executors.newFixedThreadPool(4);
            long before;
            long after;
            try {
                send(clients, http, bodies, WARM_UP_ROUNDS);
                before = heapAfterGc();
                send(clients, http, bodies, ROUNDS);
                after = heapAfterGc();
            } finally {
                clients.shutdownNow();
            }
            long grown = after - before;
            System.out.printf("heap in use after GC: %d MB before, %d MB after %d requests%n",
                    before >> 20, after >> 20, ROUNDS * bodies.size());
            assertTrue(grown < ALLOWED_GROWTH, "heap grew by " + (grown >> 20) + " MB");
            server.assertServing();
        }
    }

    /** One of each kind of big request: answered with rows, refused by validation, not found, parse error. */
    private static List<String> bodies() {
        String big = "x".repeat(BIG);
        JsonArray batch = new JsonArray();
        for (int i = 0; i < 100; i++) {
            batch.add(RawHttp.execute(i, "echo", new JsonObject().put("s", "y".repeat(BIG / 100))));
        }
        return List.of(
                RawHttp.execute(1, "echo", new JsonObject().put("s", big)).encode(),
                RawHttp.execute(2, "echo", new JsonObject().put("i", big)).encode(),
                RawHttp.execute(3, big, new JsonObject()).encode(),
                RawHttp.request(4, "tools/call", new JsonObject().put("name", "search")
                        .put("arguments", new JsonObject().put("query", big))).encode(),
                batch.encode(),
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"x\":\"" + big + "\"",
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\",\"params\":{\"x\":" + "[".repeat(990) + "]".repeat(990)
                        + ",\"pad\":\"" + "z".repeat(BIG) + "\"}}");
    }

    private static void send(ExecutorService clients, RawHttp http, List<String> bodies, int rounds) throws Exception {
        List<Future<?>> sent = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (String body : bodies) {
                sent.add(clients.submit(() -> {
                    Answers.wellFormed(post(http, body), "big request");
                    return null;
                }));
            }
        }
        for (Future<?> f : sent) {
            f.get(2, TimeUnit.MINUTES);
        }
    }

    private static HttpResponse<String> post(RawHttp http, String body) throws Exception {
        return http.post("/mcp", body, "Content-Type", "application/json", "Accept", RawHttp.ACCEPT_BOTH);
    }

    private static long heapAfterGc() throws InterruptedException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
