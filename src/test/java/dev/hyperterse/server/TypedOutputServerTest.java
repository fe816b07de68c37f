package dev.hyperterse.server;

import dev.hyperterse.testing.OutputSchemas;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.ToolError;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Typed output through the running server (SQLite, {@code tools.exposure: both}): each database
 * tool's outputSchema described from its statement, {@code structuredContent} beside the text
 * block in {@code execute} and in a direct {@code tools/call}, both validated against the schema
 * by a JSON Schema validator and by the MCP Java SDK client; a handler's declared output, kept and
 * broken; rows that stop fitting after the database changed; and clients at 2025-03-26, which
 * get neither.
 */
class TypedOutputServerTest {
    private static final String V0618 = "2025-06-18";

    @TempDir
    static Path scratch;
    static RunningServer server;
    static RawHttp http;

    @BeforeAll
    static void start() throws Exception {
        Path dir = scratch.resolve("project");
        write(dir, ".hyperterse", "name: typed-output\ntools:\n  exposure: both\n");
        write(dir, "app/adapters/db.terse", "connector: sqlite\nconnection_string: 'sqlite::memory:'\n"
                + "options:\n  init_sql: init.sql\n");
        write(dir, "init.sql", "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL);\n"
                + "INSERT INTO items VALUES (1, 'pen', 1.5), (2, 'ink', NULL);\n"
                + "CREATE TABLE notes (text TEXT);\n"
                + "CREATE TABLE drift (v TEXT);\nINSERT INTO drift VALUES ('x');\n");
        write(dir, "app/tools/list-items/config.terse", "description: 'Items from an id on'\nuse: db\n"
                + "statement: SELECT id, name, price FROM items WHERE id >= {{ inputs.min }} ORDER BY id\n"
                + "inputs:\n  min: {type: int}\n");
        write(dir, "app/tools/first-item/config.terse", "description: 'The first item only'\nuse: db\nrow_limit: 1\n"
                + "statement: SELECT id, name FROM items ORDER BY id\n");
        write(dir, "app/tools/add-item/config.terse", "description: 'Adds an item'\nuse: db\n"
                + "statement: INSERT INTO notes (text) VALUES ({{ inputs.name }})\ninputs:\n  name: {type: string}\n");
        write(dir, "app/tools/mapped-items/config.terse", "description: 'Item names, mapped'\nuse: db\n"
                + "statement: SELECT name FROM items\n");
        write(dir, "app/tools/mapped-items/output.ts", "export default ({ results }: any) => results.map("
                + "(r: any) => r.name);\n");
        write(dir, "app/tools/quote/config.terse", "description: 'Quotes a price'\n"
                + "inputs:\n  broken: {type: boolean}\n"
                + "output:\n  type: object\n  description: 'A quote'\n  properties:\n"
                + "    total: {type: float, minimum: 0}\n    currency: {type: string, enum: [EUR, USD]}\n"
                + "    note: {type: string, optional: true}\n");
        write(dir, "app/tools/quote/handler.ts", "export default ({ inputs }: any) => inputs.broken\n"
                + "  ? { total: 'lots', currency: 'EUR' }\n  : { total: 12.5, currency: 'EUR', note: null };\n");
        write(dir, "app/tools/numbers/config.terse", "description: 'Some numbers'\n"
                + "output: {type: array, items: {type: int, maximum: 10}}\n");
        write(dir, "app/tools/numbers/handler.ts", "export default () => [1, 2, 3];\n");
        write(dir, "app/tools/read-drift/config.terse", "description: 'Reads the drifting table'\nuse: db\n"
                + "statement: SELECT v FROM drift\n");
        write(dir, "app/tools/drop-drift/config.terse", "description: 'Drops it'\nuse: db\nstatement: DROP TABLE drift\n");
        write(dir, "app/tools/make-drift/config.terse", "description: 'Makes it again, with numbers'\nuse: db\n"
                + "statement: CREATE TABLE IF NOT EXISTS drift (v INTEGER)\n");
        write(dir, "app/tools/fill-drift/config.terse", "description: 'Fills it'\nuse: db\n"
                + "statement: INSERT INTO drift VALUES (5)\n");
        server = RunningServer.start(dir);
        http = new RawHttp(server.baseUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static void write(Path dir, String relative, String text) {
        try {
            Path file = dir.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON-RPC response to a request sent at {@code version} (null: no version header, so 2025-03-26). */
    private static JsonObject send(JsonObject request, String version) throws Exception {
        HttpResponse<String> answer = version == null ? http.mcp(request)
                : http.mcp(request, "MCP-Protocol-Version", version);
        assertEquals(200, answer.statusCode(), answer.body());
        return new JsonObject(answer.body());
    }

    private static JsonObject execute(String tool, JsonObject inputs, String version) throws Exception {
        JsonObject answer = send(RawHttp.execute(1, tool, inputs), version);
        assertNull(answer.getValue("error"), answer.encode());
        return answer.getJsonObject("result");
    }

    private static JsonObject callDirect(String tool, JsonObject arguments, String version) throws Exception {
        return send(RawHttp.request(1, "tools/call", new JsonObject().put("name", tool).put("arguments", arguments)),
                version);
    }

    private static JsonArray text(JsonObject result) {
        return new JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text"));
    }

    private static Map<String, JsonObject> listed(String version) throws Exception {
        JsonArray tools = send(RawHttp.request(1, "tools/list", null), version).getJsonObject("result")
                .getJsonArray("tools");
        Map<String, JsonObject> byName = new java.util.HashMap<>();
        tools.forEach(t -> byName.put(((JsonObject) t).getString("name"), (JsonObject) t));
        return byName;
    }

    private static JsonObject searchHit(String query, String name) throws Exception {
        JsonObject result = send(RawHttp.request(1, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject().put("query", query))), V0618).getJsonObject("result");
        for (Object hit : text(result)) {
            if (name.equals(((JsonObject) hit).getString("name"))) {
                return (JsonObject) hit;
            }
        }
        throw new AssertionError(name + " not found for '" + query + "': " + text(result).encode());
    }

    @Test
    void executeReturnsStructuredRowsThatFitTheSchemaSearchShows() throws Exception {
        JsonObject schema = searchHit("items from an id", "list-items").getJsonObject("output_schema");
        assertNotNull(schema);
        assertEquals(new JsonObject("{\"type\":\"object\",\"properties\":{"
                        + "\"id\":{\"type\":[\"number\",\"string\",\"null\"]},"
                        + "\"name\":{\"type\":[\"string\",\"null\"]},"
                        + "\"price\":{\"type\":[\"number\",\"string\",\"null\"]}},"
                        + "\"required\":[\"id\",\"name\",\"price\"]}"),
                schema.getJsonObject("properties").getJsonObject("rows").getJsonObject("items"));
        JsonObject result = execute("list-items", new JsonObject().put("min", 1), V0618);
        JsonObject structured = result.getJsonObject("structuredContent");
        assertEquals(new JsonObject().put("rows", text(result)), structured, "the same rows as the text block");
        assertEquals("[{\"id\":1,\"name\":\"pen\",\"price\":1.5},{\"id\":2,\"name\":\"ink\",\"price\":null}]",
                text(result).encode());
        assertEquals(List.of(), OutputSchemas.problems(schema, structured));

        JsonObject cut = execute("first-item", new JsonObject(), V0618);
        assertEquals(new JsonObject("{\"rows\":[{\"id\":1,\"name\":\"pen\"}],\"truncated\":true}"),
                cut.getJsonObject("structuredContent"));
        assertEquals(List.of(), OutputSchemas.problems(searchHit("first item only", "first-item")
                .getJsonObject("output_schema"), cut.getJsonObject("structuredContent")));

        JsonObject added = execute("add-item", new JsonObject().put("name", "nib"), V0618);
        assertEquals(new JsonObject("{\"rows\":[{\"rows_affected\":1}]}"), added.getJsonObject("structuredContent"));
        assertEquals(List.of(), OutputSchemas.problems(searchHit("adds an item", "add-item")
                .getJsonObject("output_schema"), added.getJsonObject("structuredContent")));
    }

    @Test
    void aToolWhoseOutputMapperReshapesItsRowsHasNoDescribedSchema() throws Exception {
        assertNull(searchHit("item names mapped", "mapped-items").getValue("output_schema"));
        JsonObject result = execute("mapped-items", new JsonObject(), V0618);
        assertNull(result.getValue("structuredContent"), result.encode());
        assertEquals(new JsonObject().put("value", "pen"), text(result).getJsonObject(0));
        assertFalse(listed(V0618).get("mapped-items").containsKey("outputSchema"));
    }

    @Test
    void directlyListedToolsShowTheirOutputSchemaAndAnswerWithStructuredContent() throws Exception {
        Map<String, JsonObject> tools = listed(V0618);
        JsonObject schema = tools.get("list-items").getJsonObject("outputSchema");
        assertEquals("object", schema.getString("type"));
        assertEquals("A quote", tools.get("quote").getJsonObject("outputSchema").getString("description"));
        assertFalse(tools.get("search").containsKey("outputSchema"), "search's is off unless configured");
        JsonObject result = callDirect("list-items", new JsonObject().put("min", 2), V0618).getJsonObject("result");
        assertEquals(new JsonObject("{\"rows\":[{\"id\":2,\"name\":\"ink\",\"price\":null}]}"),
                result.getJsonObject("structuredContent"));
        assertEquals(List.of(), OutputSchemas.problems(schema, result.getJsonObject("structuredContent")));
    }

    @Test
    void clientsAt20250326GetNeitherOutputSchemaNorStructuredContent() throws Exception {
        assertFalse(listed(null).get("list-items").containsKey("outputSchema"));
        JsonObject executed = execute("list-items", new JsonObject().put("min", 1), null);
        assertNull(executed.getValue("structuredContent"));
        assertEquals(2, text(executed).size());
        JsonObject direct = callDirect("quote", new JsonObject().put("broken", false), null).getJsonObject("result");
        assertNull(direct.getValue("structuredContent"));
        // a session remembers its version; a later one gets both
        String old = http.session("2025-03-26");
        HttpResponse<String> oldSession = http.mcp(RawHttp.execute(3, "list-items", new JsonObject().put("min", 1)),
                "Mcp-Session-Id", old);
        assertNull(new JsonObject(oldSession.body()).getJsonObject("result").getValue("structuredContent"));
        String current = http.session("2025-11-25");
        HttpResponse<String> newSession = http.mcp(RawHttp.execute(4, "list-items", new JsonObject().put("min", 1)),
                "Mcp-Session-Id", current, "MCP-Protocol-Version", "2025-11-25");
        assertNotNull(new JsonObject(newSession.body()).getJsonObject("result").getValue("structuredContent"));
    }

    @Test
    void aHandlersDeclaredOutputIsItsSchemaAndIsHeldToIt() throws Exception {
        JsonObject schema = listed(V0618).get("quote").getJsonObject("outputSchema");
        assertEquals(new JsonObject("{\"type\":\"object\",\"properties\":{"
                        + "\"total\":{\"type\":\"number\",\"minimum\":0},"
                        + "\"currency\":{\"type\":\"string\",\"enum\":[\"EUR\",\"USD\"]},"
                        + "\"note\":{\"type\":[\"string\",\"null\"]}},"
                        + "\"required\":[\"total\",\"currency\"],\"additionalProperties\":false}"),
                schema.getJsonObject("properties").getJsonObject("rows").getJsonObject("items"));
        JsonObject kept = execute("quote", new JsonObject().put("broken", false), V0618);
        assertEquals(new JsonObject("{\"rows\":[{\"total\":12.5,\"currency\":\"EUR\",\"note\":null}]}"),
                kept.getJsonObject("structuredContent"));
        assertEquals(List.of(), OutputSchemas.problems(schema, kept.getJsonObject("structuredContent")));

        // a failure is an isError result without structuredContent, which the outputSchema does not cover
        ToolError broken = ToolError.ofAnswer(send(RawHttp.execute(1, "quote", new JsonObject().put("broken", true)), V0618));
        assertEquals("output validation failed for tool quote: the result does not match the declared output:"
                + " rows[0].total: expected float, got \"lots\"", broken.message());
        assertEquals("output_validation", broken.stage());
        ToolError direct = ToolError.ofAnswer(callDirect("quote", new JsonObject().put("broken", true), V0618));
        assertEquals(broken, direct);

        JsonObject numbers = execute("numbers", new JsonObject(), V0618).getJsonObject("structuredContent");
        assertEquals(new JsonObject("{\"rows\":[{\"value\":1},{\"value\":2},{\"value\":3}]}"), numbers);
        assertEquals(List.of(), OutputSchemas.problems(listed(V0618).get("numbers").getJsonObject("outputSchema"),
                numbers));
    }

    @Test
    void rowsThatNoLongerFitTheDescribedColumnsAreServedAsTextAndRefusedWhereTheSchemaWasPromised() throws Exception {
        assertEquals("{\"rows\":[{\"v\":\"x\"}]}",
                execute("read-drift", new JsonObject(), V0618).getJsonObject("structuredContent").encode());
        execute("drop-drift", new JsonObject(), V0618);
        execute("make-drift", new JsonObject(), V0618);
        execute("fill-drift", new JsonObject(), V0618);
        JsonObject executed = execute("read-drift", new JsonObject(), V0618);
        assertEquals("[{\"v\":5}]", text(executed).encode());
        assertNull(executed.getValue("structuredContent"), "no structured result that breaks the schema");
        ToolError direct = ToolError.ofAnswer(callDirect("read-drift", new JsonObject(), V0618));
        assertEquals("output validation failed for tool read-drift: the rows no longer fit the tool's output schema"
                + " (its database changed since the project was loaded; reload it): rows[0].v: expected string or"
                + " null, got 5", direct.message());
        // a client without structured results is not concerned
        assertEquals("[{\"v\":5}]", text(callDirect("read-drift", new JsonObject(), null).getJsonObject("result"))
                .encode());
    }

    @Test
    void theMcpJavaSdkValidatesTheStructuredResultsOfDirectTools() {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.baseUrl())
                        .endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(20))
                .clientInfo(new McpSchema.Implementation("junit-sdk", "1.0"))
                .enableCallToolSchemaCaching(true)
                .build();
        try {
            client.initialize();
            McpSchema.ListToolsResult tools = client.listTools();
            McpSchema.Tool listItems = tools.tools().stream().filter(t -> t.name().equals("list-items")).findFirst()
                    .orElseThrow();
            assertNotNull(listItems.outputSchema());
            McpSchema.CallToolResult rows = client.callTool(new McpSchema.CallToolRequest("list-items",
                    Map.of("min", 1)));
            assertFalse(Boolean.TRUE.equals(rows.isError()), rows.toString());
            @SuppressWarnings("unchecked")
            List<Object> structured = (List<Object>) ((Map<String, Object>) rows.structuredContent()).get("rows");
            assertTrue(structured.size() >= 2, structured.toString());
            McpSchema.CallToolResult quote = client.callTool(new McpSchema.CallToolRequest("quote",
                    Map.of("broken", false)));
            @SuppressWarnings("unchecked")
            Map<String, Object> row = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) quote
                    .structuredContent()).get("rows")).get(0);
            assertEquals(12.5, row.get("total"));
            assertEquals("EUR", row.get("currency"));
            // a failed call of a tool with an outputSchema is a result the SDK hands back, not a schema violation
            ToolError failed = ToolError.of(client.callTool(new McpSchema.CallToolRequest("quote",
                    Map.of("broken", true))));
            assertEquals("output_validation", failed.stage());
            assertEquals("quote", failed.tool());
        } finally {
            client.closeGracefully();
        }
    }
}
