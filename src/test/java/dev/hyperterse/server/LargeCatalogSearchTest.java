package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A catalog large enough that search ranks on a worker thread: answers are the same as on the
 * event loop, also for many searches at once.
 */
class LargeCatalogSearchTest {
    @TempDir
    Path scratch;

    @Test
    void searchesOfALargeCatalogAreRankedOnWorkersWithTheSameAnswers() throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        String[] nouns = {"orders", "invoices", "payments", "tickets", "refunds", "coupons"};
        for (int i = 0; i < 600; i++) {
            String noun = nouns[i % nouns.length];
            RunningServer.writeTool(project, "count-" + noun + "-" + i, "description: 'Count " + noun + " number " + i
                    + "'\nuse: shop\nstatement: SELECT COUNT(*) AS n FROM customers WHERE id > {{ inputs.min }}\n"
                    + "inputs:\n  min: { type: int, description: 'Smallest id' }\n");
        }
        try (RunningServer server = RunningServer.start(project)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals("count-refunds-424", firstHit(http, "count-refunds-424"));
            List<CompletableFuture<String>> parallel = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                String name = "count-" + nouns[i % nouns.length] + "-" + (i * 18 + i % nouns.length);
                parallel.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return firstHit(http, name);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (int i = 0; i < parallel.size(); i++) {
                assertEquals("count-" + nouns[i % nouns.length] + "-" + (i * 18 + i % nouns.length), parallel.get(i).join());
            }
        }
    }

    private static String firstHit(RawHttp http, String query) throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.request(1, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject().put("query", query))));
        JsonObject result = new JsonObject(r.body()).getJsonObject("result");
        JsonArray hits = new JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text"));
        return hits.getJsonObject(0).getString("name");
    }
}
