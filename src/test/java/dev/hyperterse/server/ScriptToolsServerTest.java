package dev.hyperterse.server;

import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static dev.hyperterse.testing.McpSdk.rows;
import static dev.hyperterse.testing.ProjectFiles.writeLines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scripts example served for real, plus tools that show each stage's payload, result
 * coercion, script errors and the time limit; driven by the MCP Java SDK client and raw HTTP.
 */
class ScriptToolsServerTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path project = RunningServer.copyExample("scripts", scratch);
        // every stage: the input mapper passes its payload on as an input, the handler returns its
        // payload and a scalar, the output mapper wraps what it got
        writeLines(project, "app/tools/stages/config.terse",
                "inputs:",
                "  name: {type: string}",
                "  count: {type: int, optional: true, default: 2}",
                "  seen_by_input_mapper: {type: string, optional: true}");
        writeLines(project, "app/tools/stages/input.ts",
                "export default (p: { inputs: Record<string, unknown>; tool: string }) =>",
                "  ({ ...p.inputs, seen_by_input_mapper: JSON.stringify(p) });");
        writeLines(project, "app/tools/stages/handler.ts", "export default (p: unknown) => [p, 'scalar'];");
        writeLines(project, "app/tools/stages/output.ts", "export default (p: unknown) => ({ output_mapper_got: p });");

        writeLines(project, "app/tools/coerce/config.terse", "handler: ./handler.js", "inputs:", "  kind: {type: string}");
        writeLines(project, "app/tools/coerce/handler.js",
                "const values = { null: null, undefined: undefined, array: [{ a: 1 }, 2, 'x', null],",
                "  object: { a: 1 }, string: 'text', number: 4.5, boolean: false, empty: [] };",
                "export default async ({ inputs }) => values[inputs.kind];");

        writeLines(project, "app/tools/failing/config.terse", "handler: ./fail.js#handler",
                "mappers:", "  input: ./fail.js#input", "  output: ./fail.js#output",
                "inputs:", "  where: {type: string}");
        writeLines(project, "app/tools/failing/fail.js",
                "export const input = ({ inputs }) => { if (inputs.where === 'input') throw new Error('bad input');",
                "  if (inputs.where === 'not-object') return [1]; return inputs; };",
                "export const handler = async ({ inputs }) => { if (inputs.where === 'handler') throw new TypeError('bad handler');",
                "  return { where: inputs.where }; };",
                "export const output = ({ results }) => { if (results[0].where === 'output') throw new Error('bad output');",
                "  return results; };");

        writeLines(project, "app/tools/spin/config.terse", "handler: handler.js", "timeout: 1s", "inputs:", "  n: {type: int}");
        writeLines(project, "app/tools/spin/handler.js", "export default () => { while (true) {} };");

        writeLines(project, "app/tools/env-echo/config.terse", "env: [GREETING]");
        writeLines(project, "app/tools/env-echo/handler.ts", "export default () => ({ env: process.env });");

        return RunningServer.start(project, Map.of("GREETING", "hello", "OTHER_SECRET", "not passed"), s -> s);
    });
    static McpSyncClient client;

    @BeforeAll
    static void connect() {
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(30));
    }

    @AfterAll
    static void disconnect() {
        McpSdk.close(client);
    }

    @Test
    void theHandlerToolQuotesWithDefaultsAndCoercedInputs() {
        JsonArray rows = rows(execute("quote-order", Map.of("unit_price", "10", "quantity", 3)));
        assertEquals(new JsonArray().add(new JsonObject().put("net", 30).put("vat_rate", 0.2).put("vat", 6)
                .put("gross", 36).put("country", "GB")), rows);
        JsonObject us = rows(execute("quote-order", Map.of("unit_price", 2.5, "country", "us"))).getJsonObject(0);
        assertEquals(2.5, us.getDouble("gross"));
        ToolError missing = McpSdk.executeFailure(client, "quote-order", Map.of());
        assertEquals("handler script failed for tool quote-order: Error: unit_price is required", missing.message());
        assertEquals("handler", missing.stage());
        ToolError thrown = McpSdk.executeFailure(client, "quote-order", Map.of("unit_price", -1));
        assertEquals("handler script failed for tool quote-order: Error: unit_price must not be negative",
                thrown.message());
    }

    @Test
    void theDatabaseToolRunsThroughBothMappers() {
        JsonArray rows = rows(execute("find-customer", Map.of("email", "  GRACE@Example.com ")));
        assertEquals(new JsonArray().add(new JsonObject().put("id", 2)
                .put("display_name", "Grace Hopper <grace@example.com>").put("country", "US")
                .put("customer_since", "2024-02-03")), rows);
        assertEquals(new JsonArray(), rows(execute("find-customer", Map.of("email", "nobody@example.com"))));
    }

    @Test
    void eachStageGetsItsPayload() {
        JsonObject out = rows(execute("stages", Map.of("name", "Ada"))).getJsonObject(0).getJsonObject("output_mapper_got");
        assertEquals("stages", out.getString("tool"));
        JsonArray results = out.getJsonArray("results");
        JsonObject handlerGot = results.getJsonObject(0);
        assertEquals("stages", handlerGot.getString("tool"));
        JsonObject inputs = handlerGot.getJsonObject("inputs");
        assertEquals("Ada", inputs.getString("name"));
        assertEquals(2, inputs.getInteger("count"), "the default is applied before the handler");
        JsonObject inputMapperGot = new JsonObject(inputs.getString("seen_by_input_mapper"));
        assertEquals(new JsonObject().put("inputs", new JsonObject().put("name", "Ada")).put("tool", "stages"),
                inputMapperGot, "the input mapper sees the inputs as sent");
        assertEquals(new JsonObject().put("value", "scalar"), results.getJsonObject(1), "a scalar row is wrapped");
        assertEquals(2, results.size());
    }

    @Test
    void handlerResultsAreCoercedToRows() {
        assertEquals(new JsonArray(), rows(execute("coerce", Map.of("kind", "null"))));
        assertEquals(new JsonArray(), rows(execute("coerce", Map.of("kind", "undefined"))));
        assertEquals(new JsonArray(), rows(execute("coerce", Map.of("kind", "empty"))));
        assertEquals(new JsonArray("[{\"a\":1},{\"value\":2},{\"value\":\"x\"},{\"value\":null}]"),
                rows(execute("coerce", Map.of("kind", "array"))));
        assertEquals(new JsonArray("[{\"a\":1}]"), rows(execute("coerce", Map.of("kind", "object"))));
        assertEquals(new JsonArray("[{\"value\":\"text\"}]"), rows(execute("coerce", Map.of("kind", "string"))));
        assertEquals(new JsonArray("[{\"value\":4.5}]"), rows(execute("coerce", Map.of("kind", "number"))));
        assertEquals(new JsonArray("[{\"value\":false}]"), rows(execute("coerce", Map.of("kind", "boolean"))));
    }

    @Test
    void scriptErrorsNameTheStage() throws Exception {
        assertEquals(new JsonArray("[{\"where\":\"nowhere\"}]"), rows(execute("failing", Map.of("where", "nowhere"))));
        assertFailure("input", "input_transform", "input transform failed for tool failing: Error: bad input");
        assertFailure("not-object", "input_transform",
                "input transform failed for tool failing: the mapper must return an object of inputs");
        assertFailure("handler", "handler", "handler script failed for tool failing: TypeError: bad handler");
        assertFailure("output", "output_transform", "output transform failed for tool failing: Error: bad output");
    }

    private static void assertFailure(String where, String stage, String message) throws Exception {
        JsonObject call = RawHttp.request(1, "tools/call", new JsonObject().put("name", "execute").put("arguments",
                new JsonObject().put("tool", "failing").put("inputs", new JsonObject().put("where", where))));
        assertEquals(new ToolError(message, -32000, stage, "failing"),
                ToolError.ofAnswer(new JsonObject(server.http().mcp(call).body())));
    }

    @Test
    void endlessLoopsTimeOutWhileTheServerKeepsAnswering() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<String>>> spins = new ArrayList<>();
        long started = System.nanoTime();
        // more loops than script workers (4): the rest queue for a worker
        for (int i = 0; i < 6; i++) {
            spins.add(http.sendAsync(mcp(server, "spin", new JsonObject().put("n", i)), HttpResponse.BodyHandlers.ofString()));
        }
        Thread.sleep(200);
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> heartbeat = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/heartbeat"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, heartbeat.statusCode());
            HttpResponse<String> db = http.send(mcp(server, "find-customer", new JsonObject().put("email", "ada@example.com")),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(db.body().contains("Ada Lovelace"), db.body());
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 2000, "heartbeat and the database tool answer promptly");
            Thread.sleep(100);
        }
        // the time limit counts the wait for a worker: the 4 that ran time out running, the 2 that
        // queued behind them time out waiting and never run (or, given a worker just in time, while
        // it loads a fresh context in place of the one the endless loop spoiled)
        int ran = 0;
        int queued = 0;
        for (CompletableFuture<HttpResponse<String>> spin : spins) {
            ToolError error = ToolError.ofAnswer(new JsonObject(spin.get().body()));
            assertEquals(-32000, error.code());
            String message = error.message();
            if (message.equals("handler script failed for tool spin: timed out after 1s")) {
                ran++;
            } else {
                assertTrue(message.equals("handler script failed for tool spin: timed out after 1s waiting for a free "
                        + "script worker") || message.equals("handler script failed for tool spin: timed out after 1s "
                        + "loading the script app/tools/spin/handler.js (it stays loaded: the next call runs at once)"),
                        message);
                queued++;
            }
        }
        assertEquals(6, ran + queued);
        assertTrue(ran >= 4 && queued <= 2, ran + " timed out running, " + queued + " waiting");
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms < 10_000, "6 loops on 4 workers took " + ms + " ms");
        // the replaced contexts serve again
        JsonArray rows = rows(execute("quote-order", Map.of("unit_price", 1)));
        assertEquals(1.2, rows.getJsonObject(0).getDouble("gross"));
    }

    @Test
    void scriptsSeeOnlyTheEnvironmentValuesTheirToolPassesIn() {
        assertEquals(new JsonObject().put("env", new JsonObject().put("GREETING", "hello")),
                rows(execute("env-echo", Map.of())).getJsonObject(0));
    }

    @Test
    void searchListsTheHandlerToolWithoutAStatement() {
        JsonArray hits = rows(call("search", Map.of("query", "quote an order price with VAT")));
        JsonObject first = hits.getJsonObject(0);
        assertEquals("quote-order", first.getString("name"));
        assertFalse(first.containsKey("statement") && first.getValue("statement") != null
                && !first.getString("statement").isEmpty());
    }

    private static HttpRequest mcp(TestServer server, String tool, JsonObject inputs) {
        JsonObject call = RawHttp.request(1, "tools/call", new JsonObject().put("name", "execute").put("arguments",
                new JsonObject().put("tool", tool).put("inputs", inputs)));
        return HttpRequest.newBuilder(URI.create(server.mcpUrl())).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", RawHttp.ACCEPT_BOTH)
                .POST(HttpRequest.BodyPublishers.ofString(call.encode())).build();
    }

    static McpSchema.CallToolResult execute(String tool, Map<String, Object> inputs) {
        return McpSdk.execute(client, tool, inputs);
    }

    static McpSchema.CallToolResult call(String name, Map<String, Object> arguments) {
        return McpSdk.call(client, name, arguments);
    }
}
