package dev.hyperterse.search;

import static dev.hyperterse.search.TestTools.db;
import static dev.hyperterse.search.TestTools.handler;
import static dev.hyperterse.search.TestTools.input;
import static dev.hyperterse.search.TestTools.optionalInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hyperterse.model.InputConstraints;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolAnnotations;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import dev.hyperterse.model.ToolDef;

import java.util.List;

import org.junit.jupiter.api.Test;

class SearchHitTest {

    @Test
    void databaseToolJsonHasStatementAndKeysInWireOrder() {
        ToolDef tool = db("get-orders", "Returns orders by status",
                "SELECT * FROM orders WHERE status = {{ inputs.status }} LIMIT {{ inputs.max }}",
                input("status", InputType.STRING, "order status"),
                optionalInput("max", InputType.INT, "", 20L),
                optionalInput("since", InputType.DATETIME, "lower bound", "2024-01-01"),
                new dev.hyperterse.model.InputDef("urgent", InputType.BOOLEAN, null, true, false, null, null));
        String json = hyperterseFields(new SearchHit("get-orders", 88, 0.87, tool));
        assertEquals("{\"name\":\"get-orders\",\"relevance_score\":88,\"description\":\"Returns orders by status\","
                + "\"statement\":\"SELECT * FROM orders WHERE status = {{ inputs.status }} LIMIT {{ inputs.max }}\","
                + "\"inputs\":["
                + "{\"name\":\"status\",\"type\":\"string\",\"optional\":false,\"description\":\"order status\"},"
                + "{\"name\":\"max\",\"type\":\"int\",\"optional\":true,\"default_value\":20},"
                + "{\"name\":\"since\",\"type\":\"datetime\",\"optional\":true,\"description\":\"lower bound\","
                + "\"default_value\":\"2024-01-01\"},"
                + "{\"name\":\"urgent\",\"type\":\"boolean\",\"optional\":true}"
                + "]}", json);
    }

    /** {@code tools.search.statements: false}: the same hit without its SQL. */
    @Test
    void aStatementIsLeftOutWhenTheServerKeepsStatementsFromAgents() {
        ToolDef tool = db("get-orders", "Returns orders by status", "SELECT * FROM orders WHERE status = {{ inputs.status }}",
                input("status", InputType.STRING, "order status"));
        JsonObject shown = new SearchHit("get-orders", 88, 0.87, tool).toJson(true);
        JsonObject hidden = new SearchHit("get-orders", 88, 0.87, tool).toJson(false);
        assertTrue(shown.containsKey("statement"));
        assertFalse(hidden.containsKey("statement"), hidden.encode());
        shown.remove("statement");
        assertEquals(shown, hidden, "nothing else changes");
    }

    @Test
    void handlerToolJsonHasNoStatement() {
        ToolDef tool = TestTools.handlerWithStatement("weather", "Tool generated from app tool: weather", "SELECT 1",
                optionalInput("units", InputType.STRING, "metric or imperial", "metric"),
                optionalInput("days", InputType.FLOAT, "how far ahead", 1.5));
        String json = hyperterseFields(new SearchHit("weather", 100, 1.0, tool));
        assertEquals("{\"name\":\"weather\",\"relevance_score\":100,"
                + "\"description\":\"Tool generated from app tool: weather\",\"inputs\":["
                + "{\"name\":\"units\",\"type\":\"string\",\"optional\":true,\"description\":\"metric or imperial\","
                + "\"default_value\":\"metric\"},"
                + "{\"name\":\"days\",\"type\":\"float\",\"optional\":true,\"description\":\"how far ahead\","
                + "\"default_value\":1.5}]}", json);
    }

    @Test
    void hitsFromTheIndexSerialise() {
        List<SearchHit> hits = new SearchIndex(List.of(handler("weather", "Tool generated from app tool: weather")), 10)
                .search("weather");
        assertEquals("{\"name\":\"weather\",\"relevance_score\":100,"
                + "\"description\":\"Tool generated from app tool: weather\",\"inputs\":[]}", hyperterseFields(hits.get(0)));
    }

    /** The hit without the fields Hyperterse does not have, which must all come after Hyperterse's. */
    private static String hyperterseFields(SearchHit hit) {
        JsonObject json = hit.toJson(true);
        List<String> keys = List.copyOf(json.fieldNames());
        int first = keys.indexOf("input_schema");
        assertTrue(first > 0, "input_schema is always there");
        for (String extra : keys.subList(first, keys.size())) {
            assertTrue(List.of("input_schema", "tags", "annotations", "output_schema").contains(extra), extra);
            json.remove(extra);
        }
        return json.encode();
    }

    @Test
    void richToolsCarryTitleSchemaTagsAndAnnotations() {
        InputDef ids = new InputDef("ids", InputType.ARRAY, "user ids", false, false, null, null,
                new InputDef("items", InputType.INT, null, false, false, null, null, null, List.of(),
                        new InputConstraints(null, BigDecimal.ONE, BigDecimal.valueOf(1000), null, null, null, null,
                                null)),
                List.of(), new InputConstraints(null, null, null, null, null, null, 1, null));
        InputDef status = new InputDef("status", InputType.STRING, null, true, true, "open", null, null, List.of(),
                new InputConstraints(List.of("open", "closed"), null, null, null, null, null, null, null));
        InputDef filter = new InputDef("filter", InputType.OBJECT, null, true, false, null, null, null, List.of(
                new InputDef("since", InputType.DATE, null, false, false, null, null),
                new InputDef("ref", InputType.UUID, null, true, false, null, null)), null);
        ToolDef plain = db("users", "Users by id", "SELECT * FROM users WHERE id = ANY({{ inputs.ids }})",
                ids, status, filter);
        ToolDef tool = plain.toBuilder().title("Find users").tags(List.of("users", "read"))
                .annotations(ToolAnnotations.inferred(plain.statement(), false)).build();
        JsonObject json = new SearchHit("users", 90, 0.9, tool).toJson(true);
        assertEquals(List.of("name", "relevance_score", "title", "description", "statement", "inputs", "input_schema",
                "tags", "annotations"), List.copyOf(json.fieldNames()));
        assertEquals("Find users", json.getString("title"));
        assertEquals("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
                + "\"properties\":{"
                + "\"ids\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":1000},"
                + "\"description\":\"user ids\",\"minItems\":1},"
                + "\"status\":{\"type\":\"string\",\"enum\":[\"open\",\"closed\"],\"default\":\"open\"},"
                + "\"filter\":{\"type\":\"object\",\"properties\":{\"since\":{\"type\":\"string\",\"format\":\"date\"},"
                + "\"ref\":{\"type\":\"string\",\"format\":\"uuid\"}},\"required\":[\"since\"],"
                + "\"additionalProperties\":false}},"
                + "\"required\":[\"ids\"],\"additionalProperties\":false}", json.getJsonObject("input_schema").encode());
        assertEquals("[\"users\",\"read\"]", json.getJsonArray("tags").encode());
        assertEquals("{\"readOnlyHint\":true,\"destructiveHint\":false,\"idempotentHint\":true,"
                + "\"openWorldHint\":false}", json.getJsonObject("annotations").encode());
    }

    @Test
    void tagsAndTitleAreSearched() {
        ToolDef plain = db("lookup", "Finds a record", "SELECT 1");
        ToolDef tagged = ToolDef.builder("lookup").description("Finds a record").statement("db", "SELECT 1")
                .location(plain.location()).title("Invoice archive").tags(List.of("billing")).build();
        assertEquals(List.of(), new SearchIndex(List.of(plain), 10).search("billing invoice"));
        assertEquals("lookup", new SearchIndex(List.of(tagged), 10).search("billing").get(0).name());
        assertEquals("lookup", new SearchIndex(List.of(tagged), 10).search("invoice archive").get(0).name());
    }
}
