package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Path;

import static dev.hyperterse.testing.ProjectFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Handler tools take the caller's inputs as Hyperterse passes them (declared ones checked and
 * coerced, undeclared ones through, a missing required one left to the handler), unless
 * {@code tools.strict_handler_inputs} asks for database-tool strictness. Projects shaped like the
 * Hyperterse demo's {@code get-weather} (no inputs declared, reads {@code payload.inputs.city})
 * and its {@code init} hello-world (declares {@code name}, falls back to "world").
 */
class HandlerInputsTest {
    @RegisterExtension
    static final TestServer open = TestServer.of(scratch -> RunningServer.start(project(scratch.resolve("open"), "")));
    @RegisterExtension
    static final TestServer strict = TestServer.of(scratch -> RunningServer.start(
            project(scratch.resolve("strict"), "tools:\n  strict_handler_inputs: true\n")));

    private static Path project(Path dir, String extraRoot) {
        write(dir, ".hyperterse", "name: handler-inputs\n" + extraRoot);
        write(dir, "app/adapters/db.terse", "connector: sqlite\nconnection_string: 'sqlite::memory:'\n");
        write(dir, "app/tools/get-weather/config.terse",
                "description: 'Current weather for a city'\nhandler: ./handler.ts\n");
        write(dir, "app/tools/get-weather/handler.ts",
                "export default async (payload: { inputs: { city?: string } }) =>\n"
                        + "  ({ city: payload.inputs.city ?? null, seen: Object.keys(payload.inputs) });\n");
        write(dir, "app/tools/hello/config.terse", "description: 'Say hello'\nhandler: ./handler.ts\n"
                + "inputs:\n  name:\n    type: string\n  times:\n    type: int\n    optional: true\n    default: 1\n");
        write(dir, "app/tools/hello/handler.ts",
                "export default ({ inputs }: { inputs: Record<string, unknown> }) =>\n"
                        + "  ({ greeting: 'Hello, ' + (inputs.name ?? 'world'), times: inputs.times, inputs });\n");
        write(dir, "app/tools/counter/config.terse", "description: 'Counts its calls'\nhandler: ./handler.ts\n"
                + "cache:\n  enabled: true\n  ttl: 60\n");
        write(dir, "app/tools/counter/handler.ts",
                "let calls = 0;\nexport default ({ inputs }: { inputs: object }) => ({ call: ++calls, inputs });\n");
        write(dir, "app/tools/lookup/config.terse", "description: 'A database tool'\nuse: db\n"
                + "statement: SELECT {{ inputs.n }} AS n\ninputs:\n  n:\n    type: int\n");
        return dir;
    }

    private static JsonObject row(TestServer server, String tool, JsonObject inputs) throws Exception {
        return server.http().rows(tool, inputs).getJsonObject(0);
    }

    private static String error(TestServer server, String tool, JsonObject inputs) throws Exception {
        return server.http().errorMessage(tool, inputs);
    }

    @Test
    void aHandlerThatDeclaresNoInputsGetsTheCallersObject() throws Exception {
        JsonObject out = row(open, "get-weather", new JsonObject().put("city", "Oslo").put("units", "metric"));
        assertEquals("Oslo", out.getString("city"));
        assertEquals(new JsonArray().add("city").add("units"), out.getJsonArray("seen"));
        assertNull(row(open, "get-weather", new JsonObject()).getValue("city"));
    }

    @Test
    void declaredInputsAreCoercedUndeclaredPassAndAMissingRequiredOneIsTheHandlersCall() throws Exception {
        assertEquals("Hello, world", row(open, "hello", new JsonObject()).getString("greeting"));
        JsonObject out = row(open, "hello", new JsonObject().put("name", "Ada").put("times", "3")
                .put("extra", new JsonObject().put("nested", new JsonArray().add(1))));
        assertEquals("Hello, Ada", out.getString("greeting"));
        assertEquals(3, out.getInteger("times"), "declared inputs are still coerced");
        assertEquals(new JsonObject().put("nested", new JsonArray().add(1)),
                out.getJsonObject("inputs").getJsonObject("extra"), "undeclared inputs pass through unchanged");
        assertEquals(new JsonArray().add("name").add("times").add("extra"),
                new JsonArray(new java.util.ArrayList<>(out.getJsonObject("inputs").fieldNames())));
        assertTrue(error(open, "hello", new JsonObject().put("times", "many"))
                        .startsWith("input validation failed: validation error for field 'times'"),
                "a declared input of the wrong type is still an error");
    }

    @Test
    void databaseToolsStayStrict() throws Exception {
        assertEquals("input validation failed: unknown input field 'x'",
                error(open, "lookup", new JsonObject().put("n", 1).put("x", 2)));
        assertEquals("input validation failed: required input 'n' is missing", error(open, "lookup", new JsonObject()));
    }

    @Test
    void strictModeChecksHandlerInputsLikeDatabaseTools() throws Exception {
        assertEquals("input validation failed: unknown input field 'city'",
                error(strict, "get-weather", new JsonObject().put("city", "Oslo")));
        assertEquals("input validation failed: required input 'name' is missing",
                error(strict, "hello", new JsonObject()));
    }

    @Test
    void cachedHandlerResultsAreKeyedByInputNames() throws Exception {
        JsonObject a = row(open, "counter", new JsonObject().put("a", 1));
        JsonObject b = row(open, "counter", new JsonObject().put("b", 1));
        assertFalse(a.getInteger("call").equals(b.getInteger("call")), "{a:1} and {b:1} are different calls");
        assertEquals(a, row(open, "counter", new JsonObject().put("a", 1)), "the same call is served from the cache");
    }

    @Test
    void searchSaysWhichHandlersTakeAnyInputs() throws Exception {
        HttpResponse<String> answer = open.http().mcp(RawHttp.request(1, "tools/call",
                new JsonObject().put("name", "search").put("arguments", new JsonObject().put("query", "weather city"))));
        JsonArray hits = new JsonArray(new JsonObject(answer.body()).getJsonObject("result").getJsonArray("content")
                .getJsonObject(0).getString("text"));
        boolean sawWeather = false;
        for (Object o : hits) {
            JsonObject hit = (JsonObject) o;
            String name = hit.getString("name");
            sawWeather |= "get-weather".equals(name);
            // handlers that declare no inputs take any; declared inputs (or a database tool) say what to send
            boolean any = "get-weather".equals(name) || "counter".equals(name);
            assertEquals(any ? Boolean.TRUE : null, hit.getBoolean("any_inputs"), hit.encode());
        }
        assertTrue(sawWeather, hits.encode());
    }
}
