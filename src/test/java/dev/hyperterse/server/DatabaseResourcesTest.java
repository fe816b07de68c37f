package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Beyond Hyperterse, on the quickstart: a resource template backed by a statement (the URI's
 * variables bound as parameters, rows as JSON) and completion from the database, both run by the
 * tools' pipeline, so auth and the row limit apply to them as to a tool.
 */
class DatabaseResourcesTest {
    @TempDir
    Path scratch;

    private static JsonObject rpc(RawHttp http, String method, JsonObject params, String... headers) throws Exception {
        String[] all = new String[headers.length + 2];
        all[0] = "MCP-Protocol-Version";
        all[1] = "2025-11-25";
        System.arraycopy(headers, 0, all, 2, headers.length);
        return new JsonObject(http.mcp(RawHttp.request(1, method, params), all).body());
    }

    private static JsonObject read(RawHttp http, String uri, String... headers) throws Exception {
        return rpc(http, "resources/read", new JsonObject().put("uri", uri), headers);
    }

    private static List<Object> complete(RawHttp http, String prefix) throws Exception {
        JsonObject r = rpc(http, "completion/complete", new JsonObject()
                .put("ref", new JsonObject().put("type", "ref/resource").put("uri", "shop://orders/{id}"))
                .put("argument", new JsonObject().put("name", "id").put("value", prefix)));
        return r.getJsonObject("result").getJsonObject("completion").getJsonArray("values").getList();
    }

    @Test
    void theQuickstartsOrderTemplateReadsTheDatabaseWithTheIdBound() throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        try (RunningServer server = RunningServer.start(project)) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject content = read(http, "shop://orders/3").getJsonObject("result").getJsonArray("contents")
                    .getJsonObject(0);
            assertEquals("application/json", content.getString("mimeType"));
            JsonArray rows = new JsonArray(content.getString("text"));
            assertEquals(1, rows.size());
            assertEquals(3, rows.getJsonObject(0).getInteger("id"));
            assertEquals("pending", rows.getJsonObject(0).getString("status"));

            // a value is bound, never pasted: this is no order id, so there is no such order
            JsonObject injected = read(http, "shop://orders/3%20OR%201%3D1");
            assertEquals(-32002, injected.getJsonObject("error").getInteger("code"), injected.encode());
            assertEquals(-32002, read(http, "shop://orders/999").getJsonObject("error").getInteger("code"));

            assertEquals(List.of("1", "10"), complete(http, "1"));
            assertEquals(List.of(), complete(http, "x' OR '1'='1"));
            assertEquals(10, complete(http, "").size());

            JsonArray prompts = rpc(http, "prompts/list", new JsonObject()).getJsonObject("result").getJsonArray("prompts");
            assertEquals("order-update", prompts.getJsonObject(0).getString("name"));
        }
    }

    @Test
    void authAndTheRowLimitApplyAsToATool() throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        Path config = project.resolve("app/resources/order-by-id/config.terse");
        Files.writeString(config, Files.readString(config)
                .replace("WHERE o.id = {{ args.id }}", "WHERE o.id >= {{ args.id }}")
                + "auth:\n  plugin: api_key\n  policy: {value: orders-key}\n");
        Files.writeString(project.resolve(".hyperterse"), Files.readString(project.resolve(".hyperterse"))
                .replace("tools:\n", "tools:\n  row_limit: 2\n"));
        try (RunningServer server = RunningServer.start(project)) {
            RawHttp http = new RawHttp(server.baseUrl());
            // refused reads as missing, so a caller cannot learn which protected resources exist
            JsonObject denied = read(http, "shop://orders/1");
            assertEquals(-32002, denied.getJsonObject("error").getInteger("code"), denied.encode());
            JsonArray templates = rpc(http, "resources/templates/list", new JsonObject()).getJsonObject("result")
                    .getJsonArray("resourceTemplates");
            assertTrue(templates.isEmpty(), "hidden from a caller it does not admit: " + templates.encode());
            JsonObject deniedCompletion = rpc(http, "completion/complete", new JsonObject()
                    .put("ref", new JsonObject().put("type", "ref/resource").put("uri", "shop://orders/{id}"))
                    .put("argument", new JsonObject().put("name", "id").put("value", "")));
            assertEquals("completion/complete: unknown resource template 'shop://orders/{id}'",
                    deniedCompletion.getJsonObject("error").getString("message"), deniedCompletion.encode());

            JsonObject content = read(http, "shop://orders/1", "X-API-Key", "orders-key").getJsonObject("result")
                    .getJsonArray("contents").getJsonObject(0);
            assertEquals(2, new JsonArray(content.getString("text")).size(), "the row limit cut the rows");
            assertEquals(Boolean.TRUE, content.getJsonObject("_meta").getBoolean("dev.hyperterse/truncated"));
            assertNull(rpc(http, "resources/templates/list", new JsonObject(), "X-API-Key", "orders-key")
                    .getValue("error"));
            assertFalse(rpc(http, "resources/templates/list", new JsonObject(), "X-API-Key", "orders-key")
                    .getJsonObject("result").getJsonArray("resourceTemplates").isEmpty());
        }
    }

    /** A template's statement its database rejects makes that template answer why; the rest serves. */
    @Test
    void aTemplateWhoseStatementDoesNotPrepareAnswersWhyAndTheRestServes() throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        Path config = project.resolve("app/resources/order-by-id/config.terse");
        Files.writeString(config, Files.readString(config).replace("FROM orders o", "FROM orderz o"));
        try (RunningServer server = RunningServer.start(project)) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject error = read(http, "shop://orders/3").getJsonObject("error");
            assertEquals(-32000, error.getInteger("code"), error.encode());
            assertTrue(error.getString("message").contains("is unavailable: the statement does not prepare on adapter"
                    + " 'shop': ") && error.getString("message").contains("orderz"), error.encode());
            assertEquals(List.of("1", "10"), complete(http, "1"), "its argument's completion has its own statement");
            JsonArray prompts = rpc(http, "prompts/list", new JsonObject()).getJsonObject("result").getJsonArray("prompts");
            assertFalse(prompts.isEmpty());
        }
    }
}
