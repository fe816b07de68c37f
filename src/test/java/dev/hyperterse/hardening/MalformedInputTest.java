package dev.hyperterse.hardening;

import dev.hyperterse.testing.RawHttp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Malformed and hostile requests against a real server: each gets the documented status and
 * JSON-RPC error, never a 500, a stack trace or a class name, and the server keeps serving (checked
 * after every test, with the event loop watched throughout by {@link WatchedServer}).
 */
class MalformedInputTest {
    private static final String[] MCP_HEADERS = {"Content-Type", "application/json", "Accept", RawHttp.ACCEPT_BOTH};
    /** The server's default body limit (server.max_body_size, 4mb). */
    private static final int BODY_LIMIT = 4 * 1024 * 1024;

    @TempDir
    static Path scratch;
    static WatchedServer server;
    static RawHttp http;

    @BeforeAll
    static void start() throws Exception {
        server = WatchedServer.quickstart(scratch);
        http = server.http();
    }

    @AfterEach
    void stillServing() throws Exception {
        server.assertServing();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    // ---- invalid JSON ----

    @Test
    void invalidJsonIsAParseError() throws Exception {
        List<String> bodies = List.of("{", "[", "[1,", "nul", "{'a':1}", "{\"jsonrpc\":\"2.0\",}", "{\"a\" 1}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing", "{} {}", "NaN", "\"unterminated",
                "{\"a\":\"\\x\"}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":tru}", "\u0000", "{\"a\":\"\u0001\"}");
        for (String body : bodies) {
            JsonObject e = Answers.error(post(body), 400, -32700, "body " + body);
            assertTrue(e.getString("message").startsWith("Parse error"), e.encode());
        }
        Answers.error(post(""), 400, -32700, "empty body");
        Answers.error(post("   \n\t "), 400, -32700, "only whitespace");
    }

    @Test
    void aMemberNamedTwiceIsAParseErrorAtEveryDepth() throws Exception {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\","
                + "\"arguments\":{\"tool\":\"get-customer\",\"inputs\":";
        // which of two values counts differs between readers: a proxy or an audit log could read one
        // call and this server another, so such a body is refused wherever the name repeats
        List<String[]> bodies = List.of(
                new String[] {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"tools/list\"}", "method"},
                new String[] {"{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}", "id"},
                new String[] {call + "{\"customer_id\":1,\"customer_id\":2}}}}", "customer_id"},
                new String[] {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\","
                        + "\"arguments\":{\"tool\":\"get-customer\",\"tool\":\"list-orders\",\"inputs\":{}}}}", "tool"},
                new String[] {call + "{\"a\":[{\"b\":{\"c\":null,\"c\":null}}]}}}}", "c"},
                new String[] {"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"x\":1,\"y\":2,\"z\":3,\"x\":4}}]", "x"},
                // big enough to be read on a worker rather than the event loop
                new String[] {call + "{\"pad\":\"" + "p".repeat(100_000) + "\",\"pad\":1}}}}", "pad"});
        for (String[] body : bodies) {
            JsonObject e = Answers.error(post(body[0]), 400, -32700, "body " + Answers.cut(body[0]));
            assertEquals("Parse error: the member name '" + body[1] + "' appears twice in one object", e.getString("message"));
        }
        // the 2026-07-28 generation reads its bodies the same way
        JsonObject stateless = Answers.error(http.post("/mcp", bodies.get(0)[0], "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "MCP-Protocol-Version", "2026-07-28"), 400, -32700, "stateless");
        assertEquals("Parse error: the member name 'method' appears twice in one object", stateless.getString("message"));
        // a long name is cut, not sent back whole
        String longName = "n".repeat(10_000);
        JsonObject cut = Answers.error(post("{\"" + longName + "\":1,\"" + longName + "\":2}"), 400, -32700, "long name");
        assertEquals("Parse error: the member name '" + "n".repeat(128) + "…' appears twice in one object",
                cut.getString("message"));
        // the same name in different objects is no repetition
        HttpResponse<String> fine = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\","
                + "\"params\":{\"x\":{\"x\":1},\"y\":[{\"x\":2},{\"x\":3}]}}");
        assertEquals(new JsonObject(), ((JsonObject) Answers.wellFormed(fine, "same name, other objects")).getJsonObject("result"));
    }

    @Test
    void invalidUtf8IsAParseError() throws Exception {
        byte[][] bodies = {
            {(byte) 0xff, (byte) 0xfe, '{', '}'},
            bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"", new byte[] {(byte) 0xc3, (byte) 0x28}, "\"}"),
            bytes("{\"a\":\"", new byte[] {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, "\"}"),
            bytes("{\"a\":\"", new byte[] {(byte) 0xe2, (byte) 0x82}, "\"}"),
            // big enough to be read on a worker rather than the event loop
            bytes("{\"a\":\"" + "b".repeat(200_000), new byte[] {(byte) 0xc3, (byte) 0x28}, "\"}"),
        };
        for (byte[] body : bodies) {
            JsonObject e = Answers.error(http.post("/mcp", body, MCP_HEADERS), 400, -32700, "invalid UTF-8");
            assertEquals("Parse error: the body is not valid UTF-8", e.getString("message"));
        }
        JsonObject big = Answers.error(post("{\"a\":\"" + "b".repeat(200_000) + "\"x}"), 400, -32700, "big invalid JSON");
        assertEquals("Parse error: the body is not valid JSON", big.getString("message"));
    }

    @Test
    void overlongSurrogateAndTruncatedUtf8AreParseErrors() throws Exception {
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"";
        byte[][] sequences = {
            {(byte) 0xc0, (byte) 0xa7},                           // ' in two bytes (overlong)
            {(byte) 0xc0, (byte) 0xaf},                           // / in two bytes
            {(byte) 0xe0, (byte) 0x80, (byte) 0xa7},              // ' in three bytes
            {(byte) 0xf0, (byte) 0x80, (byte) 0x80, (byte) 0xa7}, // ' in four bytes
            {(byte) 0xc1, (byte) 0xbf},                           // overlong DEL
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80},              // U+D800 encoded (CESU-8)
            {(byte) 0xed, (byte) 0xbf, (byte) 0xbf},              // U+DFFF encoded
            {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // past U+10FFFF
            {(byte) 0xf0, (byte) 0x9f, (byte) 0x98},              // a 4-byte sequence cut short
            {(byte) 0x80},                                        // a continuation byte alone
        };
        for (byte[] sequence : sequences) {
            JsonObject e = Answers.error(http.post("/mcp", bytes(ping, sequence, "\"}}"), MCP_HEADERS), 400, -32700,
                    "bytes " + java.util.HexFormat.ofDelimiter(" ").formatHex(sequence));
            assertEquals("Parse error: the body is not valid UTF-8", e.getString("message"));
        }
        // a sequence cut short by the end of the body
        Answers.error(http.post("/mcp", bytes("{}", new byte[] {(byte) 0xe2, (byte) 0x82}, ""), MCP_HEADERS), 400, -32700,
                "truncated at the end");
        // an overlong quote in a tool name is refused before anything reads it, not decoded to '
        Answers.error(http.post("/mcp", bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"execute\",\"arguments\":{\"tool\":\"echo", new byte[] {(byte) 0xc0, (byte) 0xa7},
                "\",\"inputs\":{}}}}"), MCP_HEADERS), 400, -32700, "overlong quote in a tool name");
        // well-formed multi-byte text, across the checker's chunk boundaries, is accepted
        String text = "é€😀".repeat(5000);
        HttpResponse<String> fine = http.post("/mcp", (ping + text + "\"}}").getBytes(StandardCharsets.UTF_8), MCP_HEADERS);
        assertEquals(200, fine.statusCode(), fine.body());
    }

    // ---- wrong JSON-RPC shapes ----

    @Test
    void scalarsAndNullAreInvalidRequests() throws Exception {
        for (String body : List.of("null", "1", "-1.5", "true", "\"ping\"", "1e400")) {
            Answers.error(post(body), 400, -32600, body);
        }
        Answers.error(post("[]"), 400, -32600, "empty batch");
    }

    @Test
    void arraysOfJunkAnswerEachEntry() throws Exception {
        HttpResponse<String> r = post("[1, \"x\", null, [], {}, {\"jsonrpc\":\"2.0\"}, {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]");
        JsonArray answers = (JsonArray) Answers.wellFormed(r, "junk batch");
        assertEquals(7, answers.size(), r.body());
        for (int i = 0; i < 6; i++) {
            assertEquals(-32600, answers.getJsonObject(i).getJsonObject("error").getInteger("code"), r.body());
        }
        assertEquals(new JsonObject(), answers.getJsonObject(6).getJsonObject("result"));
        assertEquals(9, answers.getJsonObject(6).getInteger("id"));
        // only notifications and client responses: nothing to answer
        HttpResponse<String> quiet = post("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}]");
        assertEquals(202, quiet.statusCode(), quiet.body());
    }

    @Test
    void batchesAreCappedAtAHundredMessages() throws Exception {
        // a body-limit's worth of calls in one batch used to hold the event loop for seconds
        StringBuilder big = new StringBuilder("[");
        for (int i = 0; i < 25_000; i++) {
            big.append(i == 0 ? "" : ",").append(RawHttp.execute(i, "get-customer", new JsonObject().put("customer_id", 1)).encode());
        }
        JsonObject e = Answers.error(post(big.append(']').toString()), 400, -32600, "25,000 calls in a batch");
        assertEquals("Invalid Request: a batch may hold at most 100 messages (this one has 25000)", e.getString("message"));
        Answers.error(post(batchOf(101)), 400, -32600, "101 pings");
        JsonArray answers = (JsonArray) Answers.wellFormed(post(batchOf(100)), "100 pings");
        assertEquals(100, answers.size());
    }

    private static String batchOf(int pings) {
        JsonArray batch = new JsonArray();
        for (int i = 0; i < pings; i++) {
            batch.add(RawHttp.request(i, "ping", null));
        }
        return batch.encode();
    }

    @Test
    void wrongTypesForIdMethodAndParams() throws Exception {
        for (String id : List.of("null", "1.5", "true", "{}", "[]", "-0.0", "1e3")) {
            JsonObject e = Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}"), 400, -32600, "id " + id);
            assertTrue(e.getString("message").contains("'id'"), e.encode());
        }
        for (String method : List.of("1", "null", "true", "{}", "[\"ping\"]")) {
            Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":" + method + "}"), 400, -32600, "method " + method);
        }
        for (String params : List.of("1", "\"x\"", "true", "[1]", "[]")) {
            Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":" + params + "}"), 400, -32600,
                    "params " + params);
        }
        for (String version : List.of("\"1.0\"", "2.0", "null", "\"2.0 \"", "[\"2.0\"]")) {
            Answers.error(post("{\"jsonrpc\":" + version + ",\"id\":1,\"method\":\"ping\"}"), 400, -32600, "jsonrpc " + version);
        }
        // ids that are valid come back exactly, whatever their size
        for (String id : List.of("0", "-1", "\"\"", "\"😀\"", "123456789012345678901234567890", "\"" + "i".repeat(10_000) + "\"")) {
            HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
            JsonObject answer = (JsonObject) Answers.wellFormed(r, "id " + Answers.cut(id));
            assertEquals(new JsonObject("{\"id\":" + id + "}").getValue("id"), answer.getValue("id"));
        }
    }

    @Test
    void missingFields() throws Exception {
        Answers.error(post("{\"id\":1,\"method\":\"ping\"}"), 400, -32600, "no jsonrpc");
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1}"), 400, -32600, "no method");
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}"), 200, -32602, "tools/call without params");
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}"), 200, -32602,
                "tools/call without a name");
        badArguments("execute", new JsonObject(), "execute without arguments");
        badArguments("execute", new JsonObject().put("tool", "get-customer"), "execute without inputs");
        JsonObject noQuery = badArguments("search", new JsonObject(), "search without a query");
        // the model reads which argument of which tool it got wrong (MCP 2025-11-25: input validation is a tool error)
        assertEquals("search: 'query' must be a string", noQuery.getString("message"));
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"), 200, -32602,
                "initialize without a protocol version");
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"logging/setLevel\",\"params\":{}}"), 200, -32602,
                "setLevel without a level");
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}"), 200, -32601, "unknown method");
        // a notification is never answered, even when it makes no sense
        assertEquals(202, post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":[]}}").statusCode());
    }

    @Test
    void wrongArgumentTypesForTheMetaTools() throws Exception {
        for (Object tool : new Object[] {1, true, new JsonArray(), new JsonObject(), "", "   "}) {
            badArguments("execute", new JsonObject().put("tool", tool).put("inputs", new JsonObject()), "tool " + tool);
        }
        for (Object inputs : new Object[] {1, "x", true, new JsonArray().add(1)}) {
            badArguments("execute", new JsonObject().put("tool", "get-customer").put("inputs", inputs),
                    "inputs " + inputs);
        }
        badArguments("execute", new JsonObject().put("tool", "get-customer").put("inputs", new JsonObject())
                .put("extra", 1), "unknown argument");
        for (Object query : new Object[] {1, null, new JsonArray(), new JsonObject()}) {
            badArguments("search", new JsonObject().put("query", query), "query " + query);
        }
        JsonArray manyTags = new JsonArray();
        for (int i = 0; i < 1000; i++) {
            manyTags.add("t" + i);
        }
        for (Object tags : new Object[] {"orders", new JsonArray().add(1), new JsonArray().add(new JsonObject()), manyTags}) {
            JsonObject bad = badArguments("search", new JsonObject().put("query", "orders").put("tags", tags),
                    "tags " + Answers.cut(String.valueOf(tags)));
            assertTrue(bad.getString("message").startsWith("search: 'tags' must be a list"), bad.encode());
        }
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\",\"arguments\":[]}}"),
                200, -32602, "arguments as an array");
        Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":7}}"),
                200, -32602, "a numeric tool name");
    }

    // ---- sizes ----

    /**
     * A request framed two ways (Content-Length and Transfer-Encoding) is how requests are smuggled
     * past a front proxy that reads the other framing: here a proxy going by Content-Length would
     * take the GET for the POST's body. The server refuses the request and closes the connection
     * (RFC 9112 6.1), so what follows it on the connection is never answered.
     */
    @Test
    void aRequestFramedTwoWaysClosesItsConnection() throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Accept: " + RawHttp.ACCEPT_BOTH + "\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "0\r\n\r\nGET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            // read to the end: a connection left open ends the read with a timeout
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
            assertTrue(!answer.contains("success"), "the request behind it was answered: " + answer);
        }
    }

    @Test
    void bodiesOverTheLimitGet413() throws Exception {
        byte[] big = new byte[BODY_LIMIT + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        Answers.error(http.post("/mcp", big, MCP_HEADERS), 413, -32000, "one byte over the limit");
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + "a".repeat(BODY_LIMIT) + "\"}}";
        Answers.error(post(huge), 413, -32000, "a valid message over the limit");
    }

    @Test
    void deepNestingIsRefusedWithoutOverflowingTheStack() throws Exception {
        // Jackson refuses documents nested deeper than 1000 levels while reading them
        // (StreamReadConstraints), before anything recursive of ours could see them
        int depth = 100_000;
        JsonObject limits = Answers.error(post("[".repeat(depth) + "]".repeat(depth)), 400, -32700, "100k nested arrays");
        assertTrue(limits.getString("message").startsWith("Parse error: the body goes past the JSON reader's limits"),
                limits.encode());
        Answers.error(post("{\"a\":".repeat(depth) + "1" + "}".repeat(depth)), 400, -32700, "100k nested objects");
        Answers.error(post("[".repeat(depth)), 400, -32700, "100k unclosed arrays");
        String inInputs = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\","
                + "\"arguments\":{\"tool\":\"echo\",\"inputs\":{\"s\":" + "[".repeat(depth) + "]".repeat(depth) + "}}}}";
        Answers.error(post(inInputs), 400, -32700, "100k nested arrays as an input");
        // nesting that Jackson allows reaches input validation, which refuses it by type
        String allowed = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\","
                + "\"arguments\":{\"tool\":\"echo\",\"inputs\":{\"s\":" + "[".repeat(990) + "]".repeat(990) + "}}}}";
        JsonObject e = Answers.toolError(post(allowed), -32000, "990 nested arrays as an input");
        assertTrue(e.getString("message").contains("field 's'"), e.encode());
    }

    @Test
    void hugeStringsAreRefusedOrCutInAnswers() throws Exception {
        JsonObject limits;
        String big = "x".repeat(3_000_000);
        JsonObject e = Answers.toolError(execute("echo", new JsonObject().put("i", big)), -32000, "3 MB int");
        assertTrue(e.getString("message").length() < 300, "the value is cut in the message");
        e = badArguments("search", new JsonObject().put("query", big), "3 MB query");
        assertTrue(e.getString("message").length() < 300, Answers.cut(e.getString("message")));
        // a string input may be big (it is bound, never pasted); the row carries it back whole
        JsonArray rows = Answers.rows(execute("echo", new JsonObject().put("s", big)), "3 MB string");
        assertEquals(big, rows.getJsonObject(0).getString("s"));
        // numbers longer than 1000 digits are refused by the reader
        limits = Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"n\":" + "9".repeat(5000) + "}}"),
                400, -32700, "a 5000-digit number");
        assertTrue(limits.getString("message").contains("limits"), limits.encode());
    }

    // ---- inputs ----

    @Test
    void wrongInputTypesNameTheField() throws Exception {
        Object[][] cases = {
            {"i", "abc"}, {"i", 1.5}, {"i", true}, {"i", new JsonArray()}, {"i", new JsonObject()}, {"i", "1e3"},
            {"i", new java.math.BigInteger("123456789012345678901234567890")},
            {"f", "abc"}, {"f", "NaN"}, {"f", "Infinity"}, {"f", new JsonObject()}, {"f", false},
            {"b", "yes"}, {"b", new JsonArray()}, {"b", "TrUe"},
            {"d", "yesterday"}, {"d", 20240101}, {"d", "2024-13-01"}, {"d", "2024-02-30"},
            {"s", new JsonObject()}, {"s", new JsonArray().add("a")},
        };
        for (Object[] c : cases) {
            JsonObject e = Answers.toolError(execute("echo", new JsonObject().put((String) c[0], c[1])), -32000,
                    c[0] + " = " + c[1]);
            assertTrue(e.getString("message").startsWith("input validation failed: validation error for field '" + c[0] + "'"),
                    e.encode());
            assertEquals("input_validation", e.getJsonObject("data").getString("stage"));
        }
        JsonObject e = Answers.toolError(execute("echo", new JsonObject().put("nope", 1)), -32000, "unknown field");
        assertTrue(e.getString("message").contains("unknown input field 'nope'"), e.encode());
        e = Answers.toolError(execute("get-customer", new JsonObject()), -32000, "missing input");
        assertTrue(e.getString("message").contains("'customer_id' is missing"), e.encode());
        // null is "not given": optional inputs become NULL
        JsonArray rows = Answers.rows(execute("echo", new JsonObject().putNull("s").putNull("i")), "nulls");
        assertNull(rows.getJsonObject(0).getValue("s"));
    }

    @Test
    void numbersBeyondADoubleAreInputErrors() throws Exception {
        for (String field : List.of("i", "f", "s", "b")) {
            for (String number : List.of("1e400", "-1e400", "1" + "0".repeat(400) + ".5")) {
                HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\","
                        + "\"arguments\":{\"tool\":\"echo\",\"inputs\":{\"" + field + "\":" + number + "}}}}");
                JsonObject e = Answers.toolError(r, -32000, field + " = " + Answers.cut(number));
                assertTrue(e.getString("message").contains("field '" + field + "'"), e.encode());
            }
        }
    }

    // ---- tools ----

    @Test
    void unknownToolsAreNamedInTheError() throws Exception {
        for (String name : List.of("nope", "get-customer ", "GET-CUSTOMER", "get_customer", "../get-customer",
                "get-customer\u0000", "😀", "get\u202ecustomer", "\u200f", "ｇｅｔ-customer")) {
            JsonObject e = Answers.toolError(execute(name, new JsonObject()), -32601, "tool " + name);
            assertEquals("tool not found: " + name, e.getString("message"));
            assertEquals("resolution", e.getJsonObject("data").getString("stage"));
            assertEquals(name, e.getJsonObject("data").getString("tool"));
        }
        JsonObject e = Answers.error(call("nope", new JsonObject()), 200, -32602, "tools/call of an unknown tool");
        assertTrue(e.getString("message").contains("nope"), e.encode());
    }

    @Test
    void hugeNamesAreCutInAnswers() throws Exception {
        String name = "t".repeat(1_000_000);
        JsonObject e = Answers.toolError(execute(name, new JsonObject()), -32601, "a 1 MB tool name");
        assertTrue(e.getString("message").length() < 300, Answers.cut(e.getString("message")));
        assertTrue(e.getJsonObject("data").getString("tool").length() < 300);
        e = Answers.error(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + name + "\"}"), 200, -32601, "a 1 MB method");
        assertTrue(e.getString("message").length() < 300, Answers.cut(e.getString("message")));
        e = Answers.error(call(name, new JsonObject()), 200, -32602, "a 1 MB tools/call name");
        assertTrue(e.getString("message").length() < 300, Answers.cut(e.getString("message")));
        // names of object members stop at 50,000 characters (the reader's limit)
        String key = "k".repeat(40_000);
        e = Answers.toolError(execute("echo", new JsonObject().put(key, 1)), -32000, "a 40k input name");
        assertTrue(e.getString("message").length() < 300, Answers.cut(e.getString("message")));
        e = badArguments("execute", new JsonObject().put(key, 1), "a 40k argument name");
        assertTrue(e.getString("message").length() < 300, Answers.cut(e.getString("message")));
        // a cut never splits a surrogate pair
        e = Answers.toolError(execute("😀".repeat(1000), new JsonObject()), -32601, "emoji name");
        String shown = e.getJsonObject("data").getString("tool");
        assertTrue(shown.codePoints().noneMatch(c -> Character.isSurrogate((char) c)), shown);
    }

    // ---- unicode ----

    @Test
    void unicodeInputsRoundTrip() throws Exception {
        List<String> values = List.of("😀🇬🇧👩‍👩‍👧", "\u202eRTL override\u202c and \u200f mark", "a\u0000b",
                "\ufeffBOM", "e\u0301 combining", "\u2028line\u2029separators", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "日本語テキスト",
                "\uffff\ufffe nonchar", "tab\tand\nnewline", "quote\" and \\ backslash");
        for (String value : values) {
            JsonArray rows = Answers.rows(execute("echo", new JsonObject().put("s", value)), "string " + value);
            assertEquals(value, rows.getJsonObject(0).getString("s"));
        }
        // a search query with the same characters is answered (no match is fine)
        for (String value : values) {
            Answers.wellFormed(call("search", new JsonObject().put("query", value)), "search " + value);
        }
    }

    @Test
    void loneSurrogatesAreAnsweredNotCrashedOn() throws Exception {
        // JSON may escape a lone surrogate; Java strings can hold one, UTF-8 cannot
        for (String escaped : List.of("\\ud800", "\\udfff", "a\\ud83d", "\\ude00b", "\\udc00\\ud800")) {
            HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":\"" + escaped + "\",\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"execute\",\"arguments\":{\"tool\":\"echo\",\"inputs\":{\"s\":\"" + escaped + "\"}}}}");
            JsonObject answer = (JsonObject) Answers.wellFormed(r, "lone surrogate " + escaped);
            // the id comes back exactly as sent (escaped again)
            assertEquals(new JsonObject("{\"id\":\"" + escaped + "\"}").getString("id"), answer.getString("id"));
            r = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"execute\",\"arguments\":{\"tool\":\"" + escaped + "\",\"inputs\":{}}}}");
            Answers.toolError(r, -32601, "lone surrogate tool name " + escaped);
            Answers.wellFormed(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"search\",\"arguments\":{\"query\":\"orders " + escaped + "\"}}}"), "search " + escaped);
        }
    }

    // ---- helpers ----

    private static HttpResponse<String> post(String body) throws Exception {
        return http.post("/mcp", body, MCP_HEADERS);
    }

    /**
     * The answer of {@code search} or {@code execute} to arguments it cannot use: an {@code isError}
     * result coded -32602, its stage input validation and its tool the one called (as
     * {@link Answers#toolError} returns it).
     */
    private static JsonObject badArguments(String tool, JsonObject arguments, String what) throws Exception {
        JsonObject e = Answers.toolError(call(tool, arguments), -32602, what);
        assertEquals(new JsonObject().put("stage", "input_validation").put("tool", tool), e.getJsonObject("data"), what);
        return e;
    }

    private static HttpResponse<String> call(String name, JsonObject arguments) throws Exception {
        return http.mcp(RawHttp.request(1, "tools/call", new JsonObject().put("name", name).put("arguments", arguments)));
    }

    private static HttpResponse<String> execute(String tool, JsonObject inputs) throws Exception {
        return http.mcp(RawHttp.execute(1, tool, inputs));
    }

    private static byte[] bytes(String before, byte[] middle, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(middle);
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
