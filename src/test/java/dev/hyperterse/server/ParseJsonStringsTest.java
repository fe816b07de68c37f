package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tools.parse_json_strings}: off by default (a stringified array is refused, naming the
 * input), on it reads a string holding JSON of the declared type as that value, and leaves
 * anything else for the input check to refuse.
 */
class ParseJsonStringsTest {
    @TempDir
    Path scratch;

    private RunningServer start(String tools) throws Exception {
        Path dir = scratch.resolve("p" + tools.hashCode());
        HandlerResultsTest.write(dir, ".hyperterse", "name: json-strings\n" + tools);
        HandlerResultsTest.handler(dir, "echo", "inputs:\n  ids: {type: array, items: int}\n"
                + "  filter: {type: object, optional: true, properties: {name: {type: string}}}\n",
                "export default ({ inputs }: any) => ({ ids: inputs.ids, filter: inputs.filter ?? null });\n");
        return RunningServer.start(dir);
    }

    @Test
    void offByDefaultAStringifiedArrayIsRefusedByName() throws Exception {
        try (RunningServer server = start("")) {
            String message = new RawHttp(server.baseUrl()).errorMessage("echo", new JsonObject().put("ids", "[1, 2]"));
            assertTrue(message.contains("ids"), message);
        }
    }

    @Test
    void onStringsHoldingJsonOfTheDeclaredTypeAreRead() throws Exception {
        try (RunningServer server = start("tools:\n  parse_json_strings: true\n")) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonArray rows = http.rows("echo", new JsonObject().put("ids", " [1, 2] ")
                    .put("filter", "{\"name\": \"ada\"}"));
            assertEquals(new JsonObject().put("ids", new JsonArray().add(1).add(2))
                    .put("filter", new JsonObject().put("name", "ada")), rows.getJsonObject(0));
            // not JSON, or JSON of another type: refused by the input check as before
            assertTrue(http.errorMessage("echo", new JsonObject().put("ids", "[1, 2")).contains("ids"));
            assertTrue(http.errorMessage("echo", new JsonObject().put("ids", "{\"a\": 1}")).contains("ids"));
            assertTrue(http.errorMessage("echo", new JsonObject().put("ids", "[\"x\"]")).contains("ids"));
        }
    }
}
