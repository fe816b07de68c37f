package dev.hyperterse.server;

import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.testing.McpSdk.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The quickstart served for real and driven by the MCP Java SDK client. */
class QuickstartMcpClientTest {
    @RegisterExtension
    static final TestServer server = TestServer.quickstart();
    static McpSyncClient client;

    @BeforeAll
    static void connect() {
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(20));
    }

    @AfterAll
    static void disconnect() {
        McpSdk.close(client);
    }

    @Test
    void initializeReportsTheProjectAndCapabilities() {
        McpSchema.InitializeResult init = client.getCurrentInitializationResult();
        assertEquals("quickstart", init.serverInfo().name());
        assertEquals("1.0.0", init.serverInfo().version());
        assertNotNull(init.capabilities().tools());
        assertEquals("2025-11-25", init.protocolVersion());
    }

    @Test
    void toolsListHoldsExactlySearchAndExecute() {
        McpSchema.ListToolsResult tools = client.listTools();
        assertEquals(List.of("search", "execute"), tools.tools().stream().map(McpSchema.Tool::name).toList());
        McpSchema.Tool execute = tools.tools().get(1);
        assertEquals(List.of("tool", "inputs"), execute.inputSchema().get("required"));
        assertEquals(Boolean.FALSE, execute.inputSchema().get("additionalProperties"));
        assertEquals(Boolean.TRUE, tools.tools().get(0).annotations().readOnlyHint());
    }

    @Test
    void searchFindsTheOrdersTool() {
        JsonArray hits = rows(call("search", Map.of("query", "orders by status")));
        JsonObject first = hits.getJsonObject(0);
        assertEquals("list-orders", first.getString("name"));
        int score = first.getInteger("relevance_score");
        assertTrue(score >= 1 && score <= 100, "score in 1..100: " + score);
        assertTrue(first.getString("statement").contains("{{ inputs.status }}"));
        JsonObject status = first.getJsonArray("inputs").getJsonObject(0);
        assertEquals("status", status.getString("name"));
        assertEquals("string", status.getString("type"));
        assertEquals(false, status.getBoolean("optional"));
        assertEquals("date", first.getJsonArray("inputs").getJsonObject(1).getString("type"));
        assertEquals("array", first.getJsonArray("inputs").getJsonObject(2).getString("type"));
        JsonObject limit = first.getJsonArray("inputs").getJsonObject(3);
        assertEquals(50, limit.getInteger("default_value"));
        JsonObject schema = first.getJsonObject("input_schema").getJsonObject("properties");
        assertEquals(new JsonArray().add("pending").add("shipped").add("delivered").add("cancelled"),
                schema.getJsonObject("status").getJsonArray("enum"));
        assertEquals("integer", schema.getJsonObject("customer_ids").getJsonObject("items").getString("type"));
        assertEquals(Boolean.TRUE, first.getJsonObject("annotations").getBoolean("readOnlyHint"));
    }

    @Test
    void theOrdersToolTakesADateAndAnArray() {
        JsonArray all = rows(execute("list-orders", Map.of("status", "pending")));
        JsonArray narrowed = rows(execute("list-orders", Map.of("status", "pending", "since", "2024-06-15",
                "customer_ids", List.of(1, 2, 3, 4, 5, 6, 7, 8))));
        assertTrue(narrowed.size() < all.size() && !narrowed.isEmpty(), all.encode() + " / " + narrowed.encode());
        for (Object o : narrowed) {
            assertTrue(((JsonObject) o).getString("ordered_at").compareTo("2024-06-15") >= 0, narrowed.encode());
        }
        assertEquals(new JsonArray(), rows(execute("list-orders", Map.of("status", "pending",
                "customer_ids", List.of()))));
    }

    @Test
    void executeLooksUpACustomerById() {
        JsonArray rows = rows(execute("get-customer", Map.of("customer_id", 1)));
        assertEquals(1, rows.size());
        JsonObject ada = rows.getJsonObject(0);
        assertEquals(List.of("id", "name", "email", "country", "created_at"), List.copyOf(ada.fieldNames()));
        assertEquals(1, ada.getInteger("id"));
        assertEquals("Ada Lovelace", ada.getString("name"));
    }

    @Test
    void executeCoercesAStringIdAndReturnsEmptyArrayForNoRows() {
        assertEquals("Grace Hopper", rows(execute("get-customer", Map.of("customer_id", "2"))).getJsonObject(0).getString("name"));
        assertEquals(new JsonArray(), rows(execute("get-customer", Map.of("customer_id", 999))));
    }

    @Test
    void executeFiltersOrdersWithTheDefaultLimit() {
        JsonArray rows = rows(execute("list-orders", Map.of("status", "pending")));
        assertEquals(3, rows.size());
        assertEquals(List.of(9, 6, 3), rows.stream().map(r -> ((JsonObject) r).getInteger("id")).toList());
        assertEquals(1, rows(execute("list-orders", Map.of("status", "pending", "limit", 1))).size());
    }

    @Test
    void executeAggregates() {
        JsonArray all = rows(execute("order-stats", Map.of()));
        assertEquals(4, all.size());
        int orders = all.stream().mapToInt(r -> ((JsonObject) r).getInteger("orders")).sum();
        assertEquals(10, orders);
        JsonArray recent = rows(execute("order-stats", Map.of("since", "2024-06-10")));
        assertEquals(3 + 1, recent.stream().mapToInt(r -> ((JsonObject) r).getInteger("orders")).sum());
    }

    @Test
    void placeholdersInsideLiteralsAreBoundNotPasted() {
        assertEquals("Wireless mouse", rows(execute("search-products", Map.of("text", "mouse"))).getJsonObject(0).getString("name"));
        for (String attack : List.of("' OR 1=1 --", "%' OR '1'='1", "x'); DROP TABLE products; --", "\\'", "\u2019 OR 1=1")) {
            assertEquals(new JsonArray(), rows(execute("search-products", Map.of("text", attack))), attack);
        }
        assertEquals(6, rows(execute("search-products", Map.of("text", ""))).size(), "the table is intact");
    }

    @Test
    void anUnknownToolIsAToolErrorNamingIt() {
        ToolError e = failure("no-such-tool", Map.of());
        assertEquals(-32601, e.code(), "the code rpc mode would send: method not found");
        assertEquals("tool not found: no-such-tool", e.message());
        assertEquals("resolution", e.stage());
        assertEquals("no-such-tool", e.tool());
    }

    @Test
    void inputErrorsNameTheField() {
        ToolError missing = failure("get-customer", Map.of());
        assertEquals(-32000, missing.code());
        assertEquals("input validation failed: required input 'customer_id' is missing", missing.message());
        assertEquals("input_validation", missing.stage());
        assertEquals("get-customer", missing.tool());

        ToolError wrongType = failure("get-customer", Map.of("customer_id", "abc"));
        assertTrue(wrongType.message().startsWith(
                "input validation failed: validation error for field 'customer_id': expected int"), wrongType.message());

        ToolError unknown = failure("get-customer", Map.of("customer_id", 1, "x", 2));
        assertEquals("input validation failed: unknown input field 'x'", unknown.message());

        ToolError fraction = failure("get-customer", Map.of("customer_id", 1.5));
        assertTrue(fraction.message().contains("fraction"), fraction.message());
    }

    @Test
    void badMetaToolArgumentsAreToolErrorsTheModelReads() {
        // input validation of search and execute themselves: a result, coded -32602 (invalid params)
        assertEquals(new ToolError("execute: 'inputs' is required (use {} when the tool takes none)", -32602,
                "input_validation", "execute"), ToolError.of(client.callTool(new McpSchema.CallToolRequest("execute",
                Map.of("tool", "get-customer")))));
        assertEquals(new ToolError("search: 'query' must be a string", -32602, "input_validation", "search"),
                ToolError.of(client.callTool(new McpSchema.CallToolRequest("search", Map.of("query", 5)))));
        // a tools/call name the server does not offer is a protocol error, which the SDK throws
        McpError unknownTool = assertThrows(McpError.class, () -> call("nope", Map.of()));
        assertEquals(-32602, unknownTool.getJsonRpcError().code());
    }

    @Test
    void pingAnswers() {
        assertNotNull(client.ping());
    }

    static McpSchema.CallToolResult execute(String tool, Map<String, Object> inputs) {
        return McpSdk.execute(client, tool, inputs);
    }

    /** A call through execute that must fail: the isError result, not an exception. */
    static ToolError failure(String tool, Map<String, Object> inputs) {
        return McpSdk.executeFailure(client, tool, inputs);
    }

    static McpSchema.CallToolResult call(String name, Map<String, Object> arguments) {
        return McpSdk.call(client, name, arguments);
    }
}
