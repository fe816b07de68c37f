package dev.hyperterse.server;

import dev.hyperterse.cli.CliRunner;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.mongodb.MongoConnectorFactory;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.MongoTestServer;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestDatabases;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.testing.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tools-examples/mongodb} served for real over HTTP: its documents are loaded from
 * {@code db/seed.json} (twice, to show the seed is idempotent) into a database of this run's own,
 * on the in-process MongoDB server or {@code HYPERTERSE_TEST_MONGODB_URL}, and its tools are
 * called through the MCP Java SDK client.
 */
class MongoShopExampleTest {
    @TempDir
    static Path scratch;
    static MongoTestServer mongodb;
    static Vertx vertx;
    static Connector seeder;
    static String database;
    static RunningServer server;
    static McpSyncClient client;

    @BeforeAll
    static void start() throws Exception {
        mongodb = MongoTestServer.start();
        vertx = Vertx.vertx();
        database = TestDatabases.uniqueName("hyperterse_shop");
        MongoConnectorFactory factory = new MongoConnectorFactory();
        seeder = await(factory.connect(vertx, new AdapterDef("seed", "mongodb", mongodb.url(), Map.of(),
                SourceLocation.of(Path.of("seed.terse"))), Path.of(".")));
        JsonArray seed = new JsonArray(Files.readString(Path.of("tools-examples/mongodb/db/seed.json")));
        for (int round = 0; round < 2; round++) {
            for (Object command : seed) {
                String statement = ((JsonObject) command).copy().put("database", database).encode();
                await(seeder.execute(factory.compile(statement, Map.of()), List.of(),
                        QueryOptions.of(10, Duration.ofSeconds(10))));
            }
        }
        Path project = RunningServer.copyExample("mongodb", scratch);
        server = RunningServer.start(project, Map.of("SHOP_MONGODB_URL", mongodb.url(), "SHOP_MONGODB_DB", database),
                s -> s);
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            McpSdk.close(client);
            if (server != null) {
                server.close();
            }
        } finally {
            await(seeder.execute(new MongoConnectorFactory().compile("{\"database\": \"" + database
                    + "\", \"command\": {\"dropDatabase\": 1}}", Map.of()), List.of(), QueryOptions.of(1, Duration.ofSeconds(10))));
            await(seeder.close());
            await(vertx.close());
            mongodb.close();
        }
    }

    private static McpSchema.CallToolResult call(String tool, Map<String, Object> inputs) {
        return client.callTool(new McpSchema.CallToolRequest("execute", Map.of("tool", tool, "inputs", inputs)));
    }

    private static JsonArray execute(String tool, Map<String, Object> inputs) {
        McpSchema.CallToolResult result = McpSdk.execute(client, tool, inputs);
        // MongoDB replies declare no columns, so its tools have no output schema
        org.junit.jupiter.api.Assertions.assertNull(result.structuredContent(), tool);
        return McpSdk.firstRows(result);
    }

    @Test
    void findsWithTypedValues() {
        JsonArray ada = execute("find-customer-by-email", Map.of("email", "ada@example.com"));
        assertEquals(1, ada.size());
        assertEquals("Ada Lovelace", ada.getJsonObject(0).getString("name"));
        assertEquals(0, execute("find-customer-by-email", Map.of("email", "{\"$gt\": \"\"}")).size(),
                "an operator given as a string is compared as text");
        assertEquals(0, execute("find-customer-by-email", Map.of("email", "ada@example.com\", \"$where\": \"1")).size());
        JsonArray orders = execute("list-orders", Map.of("customer_id", 1));
        assertEquals(2, orders.size());
        JsonObject newest = orders.getJsonObject(0);
        assertEquals("665f1a000000000000000002", newest.getString("_id"), "ObjectId as hex");
        assertEquals("2024-06-01T14:00:00Z", newest.getString("placed_at"), "dates as RFC 3339");
        assertEquals(1, execute("list-orders", Map.of("customer_id", 1, "limit", 1)).size());
        JsonObject order = execute("get-order", Map.of("order_id", "665f1a000000000000000003")).getJsonObject(0);
        assertEquals(2, order.getInteger("customer_id"));
        assertEquals(new JsonArray().add("Wireless mouse").add("Noise-cancelling headphones"),
                new JsonArray(execute("products-by-tag", Map.of("tag", "wireless")).stream()
                        .map(p -> ((JsonObject) p).getString("name")).collect(java.util.stream.Collectors.toList())));
    }

    @Test
    void aggregatesAndWrites() {
        JsonArray byStatus = execute("sales-by-status", Map.of("since", "2024-05-01T00:00:00Z"));
        assertEquals(2, byStatus.size(), byStatus.encode());
        assertEquals("pending", byStatus.getJsonObject(0).getString("_id"));
        assertEquals("shipped", byStatus.getJsonObject(1).getString("_id"));
        assertEquals(2, byStatus.getJsonObject(1).getInteger("orders"));
        JsonObject changed = execute("set-order-status", Map.of("order_id", "665f1a000000000000000004",
                "status", "refunded")).getJsonObject(0);
        assertEquals(1, changed.getInteger("n"));
        assertEquals("refunded", execute("get-order", Map.of("order_id", "665f1a000000000000000004"))
                .getJsonObject(0).getString("status"));
    }

    @Test
    void aValueThatIsNoObjectIdIsAToolError() {
        dev.hyperterse.testing.ToolError e = McpSdk.executeFailure(client, "get-order",
                Map.of("order_id", "{\"$ne\": null}"));
        assertEquals("execution", e.stage(), "the connector reads the value as an ObjectId");
        assertTrue(e.message().contains("input 'order_id' must be an ObjectId (24 hex digits)"), e.message());
    }

    @Test
    void validateReadsAndChecksTheProject() throws Exception {
        Path copy = RunningServer.copyExample("mongodb", scratch.resolve("validate"));
        Files.writeString(copy.resolve(".env.local"), "SHOP_MONGODB_URL=" + mongodb.url() + "\nSHOP_MONGODB_DB="
                + database + "\n");
        CliRunner.Run ok = CliRunner.run("validate", "--check-db", copy.toString());
        assertEquals(0, ok.code(), ok.err());
        Path broken = Files.createDirectories(copy.resolve("app/tools/broken"));
        Files.writeString(broken.resolve("config.terse"), "use: docs\ndescription: 'x'\nstatement: |\n"
                + "  {\"database\": \"shop\",\n   \"command\": {\"find\": \"orders\", \"filter\": {\"{{ inputs.field }}\": 1}}}\n"
                + "inputs:\n  field:\n    type: string\n");
        CliRunner.Run bad = CliRunner.run("validate", copy.toString());
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.err().contains("tools/broken/config.terse:5: tool 'broken': statement: a placeholder cannot be a key"),
                bad.err());
        Files.writeString(broken.resolve("config.terse"), "use: docs\ndescription: 'x'\nstatement: |\n"
                + "  {\"database\": \"shop\", \"command\": {\"find\": \"orders\", \"filter\": {\"a\": \"{{ inputs.nope }}\"}}}\n");
        CliRunner.Run undeclared = CliRunner.run("validate", copy.toString());
        assertEquals(1, undeclared.code(), undeclared.out());
        assertTrue(undeclared.err().contains("declares no input 'nope'"), undeclared.err());
    }
}
