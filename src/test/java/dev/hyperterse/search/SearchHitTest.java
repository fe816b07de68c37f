package dev.hyperterse.search;

import static dev.hyperterse.search.TestTools.db;
import static dev.hyperterse.search.TestTools.handler;
import static dev.hyperterse.search.TestTools.input;
import static dev.hyperterse.search.TestTools.optionalInput;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hyperterse.model.InputType;
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
        String json = new SearchHit("get-orders", 88, 0.87, tool).toJson().encode();
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

    @Test
    void handlerToolJsonHasNoStatement() {
        ToolDef tool = TestTools.handlerWithStatement("weather", "Tool generated from app tool: weather", "SELECT 1",
                optionalInput("units", InputType.STRING, "metric or imperial", "metric"),
                optionalInput("days", InputType.FLOAT, "how far ahead", 1.5));
        String json = new SearchHit("weather", 100, 1.0, tool).toJson().encode();
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
                + "\"description\":\"Tool generated from app tool: weather\",\"inputs\":[]}", hits.get(0).toJson().encode());
    }
}
