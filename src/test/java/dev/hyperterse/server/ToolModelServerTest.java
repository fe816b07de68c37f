package dev.hyperterse.server;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.hyperterse.testing.LogCapture;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.hyperterse.testing.ProjectFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rich tool model through the running server: rich inputs reaching a handler as JS values and
 * a SQLite statement as JSON, field-precise errors, the search hit's schema, tags and annotations
 * and the tags filter, and the script error policy (ToolError forwarded; other exceptions shown
 * by default, masked with an error id under {@code tools.expose_script_errors: false}).
 */
class ToolModelServerTest {
    /** Attached before the servers start (a class initializer runs before the extensions), detached before they stop. */
    static final LogCapture log = LogCapture.of(dev.hyperterse.pipeline.Pipeline.class);
    @RegisterExtension
    static final TestServer shown = TestServer.of(scratch -> RunningServer.start(project(scratch.resolve("shown"), "")));
    @RegisterExtension
    static final TestServer masked = TestServer.of(scratch -> RunningServer.start(
            project(scratch.resolve("masked"), "tools:\n  expose_script_errors: false\n")));

    @AfterAll
    static void stop() {
        log.close();
    }

    private static Path project(Path dir, String extraRoot) {
        write(dir, ".hyperterse", "name: tool-model\n" + extraRoot);
        write(dir, "app/adapters/db.terse", "connector: sqlite\nconnection_string: 'sqlite::memory:'\n"
                + "options:\n  init_sql: init.sql\n");
        write(dir, "init.sql", "CREATE TABLE numbers (n INTEGER);\n");
        write(dir, "app/tools/fails/config.terse", "description: 'Fails on purpose'\nhandler: ./handler.ts\n"
                + "inputs:\n  how:\n    type: string\n    enum: [tool, plain]\n");
        write(dir, "app/tools/fails/handler.ts", "export default ({ inputs }: any) => {\n"
                + "  if (inputs.how === 'tool') { throw new ToolError('no such city: Atlantis'); }\n"
                + "  throw new Error('db password is hunter2');\n};\n");
        write(dir, "app/tools/shape/config.terse", "description: 'Echoes rich inputs'\nhandler: ./handler.ts\n"
                + "tags: [echo]\n"
                + "inputs:\n"
                + "  ids: {type: array, items: {type: int, maximum: 1000}}\n"
                + "  when: {type: date}\n"
                + "  where: {type: object, properties: {city: {type: string}}}\n");
        write(dir, "app/tools/shape/handler.ts", "export default ({ inputs }: any) => ({\n"
                + "  isArray: Array.isArray(inputs.ids), sum: inputs.ids.reduce((a: number, b: number) => a + b, 0),\n"
                + "  when: inputs.when, city: inputs.where.city });\n");
        write(dir, "app/tools/pick/config.terse", "description: 'Picks numbers from a list'\nuse: db\n"
                + "title: Pick numbers\ntags: [numbers, echo]\n"
                + "statement: SELECT value AS n FROM json_each({{ inputs.ids }}) WHERE value >= {{ inputs.min }}\n"
                + "inputs:\n"
                + "  ids: {type: array, items: int, min_items: 1}\n"
                + "  min: {type: int, minimum: 0, default: 0}\n");
        write(dir, "app/tools/purge/config.terse", "description: 'Purges numbers'\nuse: db\n"
                + "statement: DELETE FROM numbers WHERE n = 0\n");
        return dir;
    }

    private static JsonArray rows(TestServer server, String tool, JsonObject inputs) throws Exception {
        return server.http().rows(tool, inputs);
    }

    private static String error(TestServer server, String tool, JsonObject inputs) throws Exception {
        return server.http().errorMessage(tool, inputs);
    }

    private static JsonArray search(TestServer server, JsonObject arguments) throws Exception {
        HttpResponse<String> answer = server.http().mcp(RawHttp.request(1, "tools/call",
                new JsonObject().put("name", "search").put("arguments", arguments)));
        JsonObject result = new JsonObject(answer.body()).getJsonObject("result");
        return new JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text"));
    }

    @Test
    void richInputsReachHandlersAsJsValuesAndSqliteAsJson() throws Exception {
        JsonObject out = rows(shown, "shape", new JsonObject().put("ids", new JsonArray().add(1).add("2").add(3))
                .put("when", "2024-02-29").put("where", new JsonObject().put("city", "Oslo"))).getJsonObject(0);
        assertEquals(new JsonObject().put("isArray", true).put("sum", 6).put("when", "2024-02-29").put("city", "Oslo"),
                out);
        assertEquals("[{\"n\":5},{\"n\":9}]", rows(shown, "pick", new JsonObject()
                .put("ids", new JsonArray().add(1).add(5).add(9)).put("min", 4)).encode());
    }

    @Test
    void invalidCallsGetFieldPreciseErrors() throws Exception {
        assertEquals("input validation failed: validation error for field 'ids': inputs.ids[1]: must be ≤ 1000"
                + " (maximum), got 1001", error(shown, "shape", new JsonObject()
                .put("ids", new JsonArray().add(1).add(1001)).put("when", "2024-01-01")
                .put("where", new JsonObject().put("city", "x"))));
        assertEquals("input validation failed: validation error for field 'where': inputs.where.zip: unknown field"
                + " (allowed: city)", error(shown, "shape", new JsonObject().put("ids", new JsonArray())
                .put("when", "2024-01-01").put("where", new JsonObject().put("city", "x").put("zip", 1))));
        assertEquals("input validation failed: validation error for field 'ids': must have at least 1 item"
                + " (min_items), got 0", error(shown, "pick", new JsonObject().put("ids", new JsonArray())));
        assertEquals("input validation failed: validation error for field 'how': must be one of \"tool\", \"plain\""
                + " (enum), got \"other\"", error(shown, "fails", new JsonObject().put("how", "other")));
    }

    @Test
    void searchHitsCarrySchemaTagsAndAnnotationsAndTagsFilter() throws Exception {
        JsonArray hits = search(shown, new JsonObject().put("query", "pick numbers"));
        JsonObject pick = null;
        for (Object o : hits) {
            if ("pick".equals(((JsonObject) o).getString("name"))) {
                pick = (JsonObject) o;
            }
        }
        assertTrue(pick != null, hits.encode());
        assertEquals("Pick numbers", pick.getString("title"));
        assertEquals(new JsonArray().add("numbers").add("echo"), pick.getJsonArray("tags"));
        assertEquals(new JsonObject().put("readOnlyHint", true).put("destructiveHint", false)
                .put("idempotentHint", true).put("openWorldHint", false), pick.getJsonObject("annotations"));
        JsonObject schema = pick.getJsonObject("input_schema");
        assertEquals("https://json-schema.org/draft/2020-12/schema", schema.getString("$schema"));
        assertEquals(new JsonObject().put("type", "array").put("items", new JsonObject().put("type", "integer"))
                .put("minItems", 1), schema.getJsonObject("properties").getJsonObject("ids"));
        assertEquals(new JsonArray().add("ids"), schema.getJsonArray("required"));

        JsonArray purge = search(shown, new JsonObject().put("query", "purge numbers"));
        assertEquals(new JsonObject().put("readOnlyHint", false).put("destructiveHint", true).put("openWorldHint", false),
                purge.getJsonObject(0).getJsonObject("annotations"));

        JsonArray tagged = search(shown, new JsonObject().put("query", "numbers").put("tags", new JsonArray().add("echo")));
        for (Object o : tagged) {
            assertTrue(((JsonObject) o).getJsonArray("tags", new JsonArray()).contains("echo"), tagged.encode());
        }
        assertFalse(tagged.isEmpty());
    }

    @Test
    void aToolErrorIsForwardedAndOtherExceptionsFollowTheExposeSetting() throws Exception {
        JsonObject toolError = new JsonObject().put("how", "tool");
        assertEquals("handler script failed for tool fails: no such city: Atlantis", error(shown, "fails", toolError));
        assertEquals("handler script failed for tool fails: no such city: Atlantis", error(masked, "fails", toolError));

        JsonObject plain = new JsonObject().put("how", "plain");
        assertEquals("handler script failed for tool fails: Error: db password is hunter2", error(shown, "fails", plain));
        String hidden = error(masked, "fails", plain);
        Matcher m = Pattern.compile("handler script failed for tool fails: handler failed \\(error id ([0-9a-f-]{36})\\)")
                .matcher(hidden);
        assertTrue(m.matches(), hidden);
        assertFalse(hidden.contains("hunter2"));
        String errorId = m.group(1);
        boolean logged = false;
        for (ILoggingEvent event : log.events()) {
            if (event.getKeyValuePairs() == null) {
                continue;
            }
            String pairs = event.getKeyValuePairs().toString();
            logged |= pairs.contains(errorId) && pairs.contains("db password is hunter2");
        }
        assertTrue(logged, "the error id and the message are in the server log");
    }
}
