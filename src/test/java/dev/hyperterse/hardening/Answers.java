package dev.hyperterse.hardening;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** What every answer of {@code /mcp} must look like, however bad the request. */
final class Answers {
    /** The statuses README documents for POST /mcp without a session. */
    static final Set<Integer> DOCUMENTED_STATUSES = Set.of(200, 202, 400, 413);
    /** Error codes a caller's mistake may get; -32603 (internal error) means a bug. */
    static final Set<Integer> CALLER_ERROR_CODES = Set.of(-32700, -32600, -32601, -32602, -32000, -32001);
    /** What an answer must never contain: stack frames, exception or class names of the server. */
    private static final Pattern LEAK = Pattern.compile(
            "Exception|\\bat [a-z]+\\.|\\bjava\\.|\\bjavax\\.|dev\\.hyperterse|io\\.vertx|io\\.netty|com\\.fasterxml"
                    + "|org\\.sqlite|NullPointer|\\.java:\\d");

    private Answers() {
    }

    /**
     * Checks an answer is a documented status with a well-formed JSON-RPC body (or none, for
     * 202) and leaks nothing.
     *
     * @return the body parsed: a JsonObject, a JsonArray (batches), or null for 202
     */
    static Object wellFormed(HttpResponse<String> r, String what) {
        assertTrue(DOCUMENTED_STATUSES.contains(r.statusCode()), what + ": status " + r.statusCode() + " " + cut(r.body()));
        if (r.statusCode() == 202) {
            assertEquals("", r.body(), what);
            return null;
        }
        assertEquals("application/json", r.headers().firstValue("content-type").orElse(null), what);
        assertFalse(LEAK.matcher(r.body()).find(), what + ": the answer leaks internals: " + cut(r.body()));
        String body = r.body().trim();
        if (body.startsWith("[")) {
            assertEquals(200, r.statusCode(), what);
            JsonArray all = new JsonArray(body);
            assertFalse(all.isEmpty(), what);
            for (Object o : all) {
                assertTrue(o instanceof JsonObject, what);
                message((JsonObject) o, what);
            }
            return all;
        }
        JsonObject m = new JsonObject(body);
        message(m, what);
        if (r.statusCode() != 200) {
            assertNotNull(m.getJsonObject("error"), what + ": a non-200 answer is an error");
        }
        return m;
    }

    /** One JSON-RPC response object: version, an id of the right type, exactly one of result and error. */
    static void message(JsonObject m, String what) {
        assertEquals("2.0", m.getValue("jsonrpc"), what);
        assertTrue(m.containsKey("id"), what + ": id is always present in a response");
        Object id = m.getValue("id");
        assertTrue(id == null || id instanceof String || id instanceof Integer || id instanceof Long
                || id instanceof BigInteger, what + ": id " + id);
        boolean result = m.containsKey("result");
        boolean error = m.containsKey("error");
        assertTrue(result ^ error, what + ": exactly one of result and error: " + cut(m.encode()));
        if (error) {
            JsonObject e = m.getJsonObject("error");
            assertTrue(e.getValue("code") instanceof Integer, what);
            int code = e.getInteger("code");
            if (!CALLER_ERROR_CODES.contains(code)) {
                fail(what + ": error code " + code + " for a caller's mistake: " + cut(m.encode()));
            }
            assertTrue(e.getValue("message") instanceof String && !e.getString("message").isEmpty(), what);
        } else {
            assertTrue(m.getValue("result") instanceof JsonObject, what);
        }
    }

    /** The error object of an answer that must be a single JSON-RPC error. */
    static JsonObject error(HttpResponse<String> r, int status, int code, String what) {
        Object parsed = wellFormed(r, what);
        assertEquals(status, r.statusCode(), what + ": " + cut(r.body()));
        assertTrue(parsed instanceof JsonObject, what);
        JsonObject error = ((JsonObject) parsed).getJsonObject("error");
        assertNotNull(error, what + ": " + cut(r.body()));
        assertEquals(code, error.getInteger("code"), what + ": " + cut(r.body()));
        return error;
    }

    /**
     * The failure of a tool call answered as the default {@code server.tool_errors: result} does:
     * asserts HTTP 200 and a result with {@code isError: true} whose one text block is
     * {@code {"error", "code", "stage", "tool"?}}, and returns it in the shape of the JSON-RPC
     * error {@code server.tool_errors: rpc} would send ({@code code}, {@code message},
     * {@code data: {stage, tool}}).
     */
    static JsonObject toolError(HttpResponse<String> r, int code, String what) {
        Object parsed = wellFormed(r, what);
        assertEquals(200, r.statusCode(), what + ": " + cut(r.body()));
        assertTrue(parsed instanceof JsonObject, what);
        JsonObject result = ((JsonObject) parsed).getJsonObject("result");
        assertNotNull(result, what + ": a tool failure is a result: " + cut(r.body()));
        assertEquals(Boolean.TRUE, result.getValue("isError"), what + ": " + cut(r.body()));
        JsonArray content = result.getJsonArray("content");
        assertEquals(1, content.size(), what);
        JsonObject failure = new JsonObject(content.getJsonObject(0).getString("text"));
        assertEquals(code, failure.getInteger("code"), what + ": " + cut(r.body()));
        assertTrue(failure.getValue("error") instanceof String && !failure.getString("error").isEmpty(), what);
        JsonObject data = new JsonObject().put("stage", failure.getString("stage"));
        if (failure.containsKey("tool")) {
            data.put("tool", failure.getString("tool"));
        }
        return new JsonObject().put("code", code).put("message", failure.getString("error")).put("data", data);
    }

    /** The rows of a successful {@code execute} answer. */
    static JsonArray rows(HttpResponse<String> r, String what) {
        Object parsed = wellFormed(r, what);
        assertEquals(200, r.statusCode(), what);
        JsonObject result = ((JsonObject) parsed).getJsonObject("result");
        assertNotNull(result, what + ": " + cut(r.body()));
        return new JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text"));
    }

    static String cut(String s) {
        return s == null || s.length() <= 300 ? s : s.substring(0, 300) + "…(" + s.length() + " chars)";
    }
}
