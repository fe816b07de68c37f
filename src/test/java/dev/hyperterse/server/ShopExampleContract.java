package dev.hyperterse.server;

import dev.hyperterse.cli.CliRunner;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.testing.Futures;
import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SeedFiles;
import dev.hyperterse.testing.SqlDatabase;
import dev.hyperterse.testing.TestDatabases;
import dev.hyperterse.testing.ToolError;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shop example served for real, on PostgreSQL and on MariaDB: a database of the run's own is
 * created and seeded from the example's {@code db/schema.sql} and {@code db/seed.sql}, the server
 * starts on a copy of the example with its connection string pointing there, and the MCP Java SDK
 * client calls every tool. Both subclasses run the same calls; only the few answers where the
 * databases' types differ (booleans, time zones, JSON columns, RETURNING) are theirs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ShopExampleContract {
    @TempDir
    static Path scratch;
    private Vertx vertx;
    private Connector admin;
    private String database;
    private Path project;
    private RunningServer server;
    private McpSyncClient client;
    private final SqlDatabase sqlDatabase;
    private final String example;
    private final String urlVariable;

    /**
     * @param sqlDatabase the server the example's database is made on
     * @param example     the example folder under tools-examples
     * @param urlVariable the example's connection-string variable
     */
    protected ShopExampleContract(SqlDatabase sqlDatabase, String example, String urlVariable) {
        this.sqlDatabase = sqlDatabase;
        this.example = example;
        this.urlVariable = urlVariable;
    }

    /** The URL of a database on the server. */
    private String databaseUrl(String database) {
        return TestDatabases.withDatabase(sqlDatabase.url(), database);
    }

    protected abstract void dropDatabase(Connector admin, String database);

    protected abstract JsonObject expectedAda();

    /** The newest delivered order's {@code ordered_at} (order 4, 2024-05-20 15:45 UTC). */
    protected abstract String expectedOrderedAt();

    protected abstract JsonObject expectedKeyboard();

    /** What place-order answers for customer 2, product 4, 2 items, ship by 2024-07-01. */
    protected abstract JsonArray expectedPlacedOrder();

    @BeforeAll
    void start() throws Exception {
        vertx = Vertx.vertx();
        admin = await(sqlDatabase.factory().connect(vertx, adapter(sqlDatabase.url()), Path.of(".")));
        database = TestDatabases.uniqueName("hyperterse_shop");
        run(admin, "CREATE DATABASE " + database);
        Connector shop = await(sqlDatabase.factory().connect(vertx, adapter(databaseUrl(database)), Path.of(".")));
        try {
            Path source = Path.of("tools-examples", example, "db");
            for (String file : List.of("schema.sql", "seed.sql")) {
                for (String statement : SeedFiles.sqlStatements(source.resolve(file))) {
                    run(shop, statement);
                }
            }
        } finally {
            await(shop.close());
        }
        project = RunningServer.copyExample(example, scratch);
        Map<String, String> env = new HashMap<>();
        env.put(urlVariable, databaseUrl(database));
        server = RunningServer.start(project, env, s -> s);
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(30));
    }

    @AfterAll
    void stop() throws Exception {
        try {
            McpSdk.close(client);
            if (server != null) {
                server.close();
            }
        } finally {
            if (admin != null) {
                dropDatabase(admin, database);
                await(admin.close());
            }
            await(vertx.close());
        }
    }

    private AdapterDef adapter(String url) {
        return new AdapterDef("admin", sqlDatabase.factory().type(), url, Map.of(), SourceLocation.of(Path.of("admin.terse")));
    }

    protected void run(Connector c, String sql) {
        try {
            await(c.execute(sqlDatabase.factory().compile(sql, Map.of()), List.of(), QueryOptions.of(1000, Duration.ofSeconds(60))));
        } catch (dev.hyperterse.connector.StatementException e) {
            throw new AssertionError(e);
        }
    }

    protected static <T> T await(Future<T> future) {
        return Futures.await(future, Duration.ofSeconds(60));
    }

    /** The rows a tool returns; its structured result, when it has one, must hold the same rows. */
    private JsonArray execute(String tool, Map<String, Object> inputs) {
        McpSchema.CallToolResult result = McpSdk.execute(client, tool, inputs);
        JsonArray rows = McpSdk.firstRows(result);
        if (result.structuredContent() != null) {
            JsonObject structured = new JsonObject(io.vertx.core.json.Json.encode(result.structuredContent()));
            assertEquals(rows, structured.getJsonArray("rows"), tool + ": structuredContent holds the text's rows");
            JsonObject schema = outputSchemaOf(tool);
            assertEquals(List.of(), dev.hyperterse.testing.OutputSchemas.problems(schema, structured),
                    tool + ": " + structured.encode() + " against " + schema.encode());
            structuredTools.add(tool);
        }
        return rows;
    }

    private final java.util.Set<String> structuredTools = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The output schema search shows for the tool (found by its name's words). */
    private JsonObject outputSchemaOf(String tool) {
        JsonArray hits = McpSdk.firstRows(McpSdk.call(client, "search", Map.of("query", tool.replace('-', ' '))));
        for (Object hit : hits) {
            if (tool.equals(((JsonObject) hit).getString("name"))) {
                JsonObject schema = ((JsonObject) hit).getJsonObject("output_schema");
                assertTrue(schema != null, tool + " has structured results but search shows no output_schema");
                return schema;
            }
        }
        throw new AssertionError("search '" + tool.replace('-', ' ') + "' does not find " + tool + ": " + hits.encode());
    }

    /**
     * Every statement of the example is described by its database, so every tool answers with
     * structured rows that fit the output schema search shows (checked in {@link #execute}).
     */
    @Test
    void everyToolAnswersWithStructuredRowsThatFitItsOutputSchema() {
        List<String> tools = List.of("get-customer", "find-customer-by-email", "search-products", "list-orders",
                "order-stats", "product-details");
        execute("get-customer", Map.of("customer_id", 1));
        execute("find-customer-by-email", Map.of("email", "grace@example.com"));
        execute("search-products", Map.of("text", "mouse"));
        execute("list-orders", Map.of("status", "delivered", "limit", 2));
        execute("order-stats", Map.of());
        execute("product-details", Map.of("sku", "7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e01"));
        execute("cancel-order", Map.of("order_id", 999_999));
        for (String tool : tools) {
            assertTrue(structuredTools.contains(tool), tool + " answered without structuredContent");
        }
        assertTrue(structuredTools.contains("cancel-order"), "a write: {rows: [{rows_affected}]}");
    }

    /** A call that must fail: the isError result a model reads. */
    private ToolError failure(String tool, Map<String, Object> inputs) {
        return McpSdk.executeFailure(client, tool, inputs);
    }

    // ---- the tools ----

    @Test
    void searchFindsTheTools() {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("search",
                Map.of("query", "orders by status")));
        JsonArray hits = new JsonArray(((McpSchema.TextContent) result.content().get(0)).text());
        assertEquals("list-orders", hits.getJsonObject(0).getString("name"));
    }

    @Test
    void aBarePlaceholder() {
        assertEquals(new JsonArray().add(expectedAda()), execute("get-customer", Map.of("customer_id", 1)));
        assertEquals(new JsonArray(), execute("get-customer", Map.of("customer_id", 999)));
    }

    @Test
    void aPlaceholderThatIsAWholeLiteral() {
        assertEquals("[{\"id\":2,\"name\":\"Grace Hopper\",\"email\":\"grace@example.com\"}]",
                execute("find-customer-by-email", Map.of("email", "grace@example.com")).encode());
        for (String attack : List.of("' OR 1=1 --", "grace@example.com' OR '1'='1", "\\' OR 1=1 --", "\u2019 OR 1=1 --",
                "x'; DELETE FROM customers; --")) {
            assertEquals(new JsonArray(), execute("find-customer-by-email", Map.of("email", attack)), attack);
        }
        assertEquals(expectedAda(), execute("get-customer", Map.of("customer_id", 1)).getJsonObject(0), "intact");
    }

    @Test
    void aPlaceholderInsideALikePattern() {
        assertEquals(new JsonArray("[{\"id\":2,\"name\":\"Wireless mouse\",\"category\":\"peripherals\",\"price\":39.90}]"),
                execute("search-products", Map.of("text", "MOUSE")));
        for (String attack : List.of("' OR 1=1 --", "%' OR '1'='1", "1; DROP TABLE products", "\\'", "\u2019 OR 1=1")) {
            assertEquals(new JsonArray(), execute("search-products", Map.of("text", attack)), attack);
        }
        assertEquals(6, execute("search-products", Map.of("text", "")).size(), "the table is intact");
    }

    @Test
    void optionalFiltersDefaultsAndLimits() {
        JsonArray pending = execute("list-orders", Map.of("status", "pending"));
        assertEquals(List.of(9, 6, 3), pending.stream().map(r -> ((JsonObject) r).getInteger("id")).toList());
        assertEquals(List.of(9, 6), execute("list-orders", Map.of("status", "pending", "since", "2024-06-15"))
                .stream().map(r -> ((JsonObject) r).getInteger("id")).toList());
        assertEquals(List.of(9), execute("list-orders", Map.of("status", "pending", "since", "2024-06-15T10:00:00Z"))
                .stream().map(r -> ((JsonObject) r).getInteger("id")).toList());
        assertEquals(1, execute("list-orders", Map.of("status", "pending", "limit", 1)).size());
        JsonObject delivered = execute("list-orders", Map.of("status", "delivered", "limit", 1)).getJsonObject(0);
        assertEquals(expectedOrderedAt(), delivered.getString("ordered_at"));
        assertEquals("Grace Hopper", delivered.getString("customer"));
        assertEquals(119.70, delivered.getDouble("total"));
    }

    @Test
    void aggregatesAreExactNumbers() {
        assertEquals(new JsonArray("[{\"status\":\"delivered\",\"orders\":4,\"items\":6,\"revenue\":736.70},"
                        + "{\"status\":\"pending\",\"orders\":3,\"items\":3,\"revenue\":362.90},"
                        + "{\"status\":\"shipped\",\"orders\":2,\"items\":4,\"revenue\":357.00},"
                        + "{\"status\":\"cancelled\",\"orders\":1,\"items\":1,\"revenue\":199.00}]"),
                execute("order-stats", Map.of()));
    }

    @Test
    void typedColumns() {
        assertEquals(new JsonArray().add(expectedKeyboard()),
                execute("product-details", Map.of("sku", "7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e01")));
        assertEquals(new JsonArray(), execute("product-details", Map.of("sku", "00000000-0000-0000-0000-000000000000")));
    }

    @Test
    void writes() {
        assertEquals(expectedPlacedOrder(), execute("place-order",
                Map.of("customer_id", 2, "product_id", 4, "quantity", 2, "ship_by", "2024-07-01")));
        JsonArray pending = execute("list-orders", Map.of("status", "pending", "limit", 10));
        int placed = pending.stream().map(r -> ((JsonObject) r).getInteger("id")).max(Integer::compare).orElseThrow();
        assertEquals("[{\"rows_affected\":1}]", execute("cancel-order", Map.of("order_id", placed)).encode());
        assertEquals("[{\"rows_affected\":0}]", execute("cancel-order", Map.of("order_id", placed)).encode(),
                "only pending orders are cancelled");
        ToolError missingProduct = failure("place-order", Map.of("customer_id", 2, "product_id", 999));
        assertEquals(-32000, missingProduct.code());
        assertEquals("execution", missingProduct.stage());
        assertEquals("place-order", missingProduct.tool());
        assertTrue(missingProduct.message().startsWith("execution failed: "), missingProduct.message());
    }

    // ---- validate --check-db ----

    @Test
    void validateChecksStatementsAgainstTheDatabase() throws Exception {
        Path copy = RunningServer.copyExample(example, scratch.resolve("validate"));
        Files.writeString(copy.resolve(".env.local"), urlVariable + "=" + databaseUrl(database) + "\n");
        CliRunner.Run ok = CliRunner.run("validate", "--check-db", copy.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("(statements checked against the databases)"), ok.out());

        Path broken = Files.createDirectories(copy.resolve("app/tools/broken"));
        Files.writeString(broken.resolve("config.terse"), "use: shop\ndescription: 'x'\nstatement: |\n"
                + "  SELECT nope FROM customers WHERE id = {{ inputs.id }}\ninputs:\n  id:\n    type: int\n");
        CliRunner.Run bad = CliRunner.run("validate", "--check-db", copy.toString());
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.err().contains("tools/broken/config.terse:4: tool 'broken': the statement does not prepare on"
                + " adapter 'shop': "), bad.err());
        assertTrue(bad.err().contains("nope"), bad.err());

        // an unreachable database fails the check: its statements could not be checked
        String unreachable = TestDatabases.withAddress(sqlDatabase.url(), "127.0.0.1", 1);
        Files.writeString(copy.resolve(".env.local"), urlVariable + "=" + unreachable + "\n");
        CliRunner.Run down = CliRunner.run("validate", "--check-db", copy.toString());
        assertEquals(1, down.code(), down.err());
        assertTrue(down.err().contains("adapters/shop.terse: adapter 'shop' (") && down.err().contains(
                ") cannot connect, so ") && down.err().contains("went unchecked"), down.err());
    }
}
