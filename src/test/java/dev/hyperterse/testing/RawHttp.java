package dev.hyperterse.testing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Plain HTTP requests to the server, to check status codes and headers exactly. */
public final class RawHttp {
    public static final String ACCEPT_BOTH = "application/json, text/event-stream";
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Supplier<String> base;

    public RawHttp(String base) {
        this(() -> base);
    }

    /** Asks {@code base} for the address at each request (a server started after this is made). */
    public RawHttp(Supplier<String> base) {
        this.base = base;
    }

    public HttpResponse<String> post(String path, String body, String... headers) throws IOException, InterruptedException {
        return exchange(path, HttpRequest.BodyPublishers.ofString(body), "POST", headers);
    }

    /** POSTs raw bytes (e.g. invalid UTF-8 or lone surrogates that a Java string cannot carry). */
    public HttpResponse<String> post(String path, byte[] body, String... headers) throws IOException, InterruptedException {
        return exchange(path, HttpRequest.BodyPublishers.ofByteArray(body), "POST", headers);
    }

    /** POSTs a JSON-RPC message with the usual MCP headers plus {@code extra}. */
    public HttpResponse<String> mcp(JsonObject message, String... extra) throws IOException, InterruptedException {
        return post("/mcp", message.encode(), mcpHeaders(extra));
    }

    public HttpResponse<String> send(String method, String path, String... headers) throws IOException, InterruptedException {
        return exchange(path, HttpRequest.BodyPublishers.noBody(), method, headers);
    }

    private HttpResponse<String> exchange(String path, HttpRequest.BodyPublisher body, String method, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base.get() + path)).timeout(Duration.ofSeconds(30))
                .method(method, body);
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Sends a request and reads the answer as it arrives: an SSE stream, or (for any other
     * answer) a stream that yields nothing and ends.
     */
    public SseStream open(String method, String path, String body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base.get() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return new SseStream(client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream()));
    }

    /** POSTs a JSON-RPC message with the usual MCP headers plus {@code extra}, reading the answer as a stream. */
    public SseStream mcpStream(JsonObject message, String... extra) throws IOException, InterruptedException {
        return open("POST", "/mcp", message.encode(), mcpHeaders(extra));
    }

    private static String[] mcpHeaders(String... extra) {
        String[] headers = new String[4 + extra.length];
        headers[0] = "Content-Type";
        headers[1] = "application/json";
        headers[2] = "Accept";
        headers[3] = ACCEPT_BOTH;
        System.arraycopy(extra, 0, headers, 4, extra.length);
        return headers;
    }

    /** GETs the session's SSE stream, resuming after {@code lastEventId} when it is not null. */
    public SseStream listen(String session, String lastEventId) throws IOException, InterruptedException {
        return lastEventId == null
                ? open("GET", "/mcp", null, "Accept", "text/event-stream", "Mcp-Session-Id", session)
                : open("GET", "/mcp", null, "Accept", "text/event-stream", "Mcp-Session-Id", session,
                        "Last-Event-ID", lastEventId);
    }

    /** Initializes a session at {@code version}, sends notifications/initialized, and returns its id. */
    public String session(String version) throws IOException, InterruptedException {
        HttpResponse<String> init = mcp(initialize(version));
        if (init.statusCode() != 200) {
            throw new AssertionError("initialize answered " + init.statusCode() + ": " + init.body());
        }
        String id = init.headers().firstValue("mcp-session-id").orElseThrow();
        HttpResponse<String> note = mcp(notification("notifications/initialized", null), "Mcp-Session-Id", id,
                "MCP-Protocol-Version", version);
        if (note.statusCode() != 202) {
            throw new AssertionError("notifications/initialized answered " + note.statusCode());
        }
        return id;
    }

    /**
     * Calls {@code tool} through {@code execute} (request id 1, these headers besides the usual
     * ones); asserts HTTP 200 and returns the JSON-RPC answer, a result or an error.
     */
    public JsonObject call(String tool, JsonObject inputs, String... headers) throws IOException, InterruptedException {
        HttpResponse<String> answer = mcp(execute(1, tool, inputs), headers);
        assertEquals(200, answer.statusCode(), answer.body());
        return new JsonObject(answer.body());
    }

    /** The rows of a call that must succeed: asserts the answer is not an error. */
    public JsonArray rows(String tool, JsonObject inputs) throws IOException, InterruptedException {
        JsonObject answer = call(tool, inputs);
        assertNull(answer.getValue("error"), answer.encode());
        return rows(answer);
    }

    /**
     * The error message of a call that must fail, as the default {@code server.tool_errors: result}
     * answers it: asserts the answer is an {@code isError} result.
     */
    public String errorMessage(String tool, JsonObject inputs) throws IOException, InterruptedException {
        return ToolError.ofAnswer(call(tool, inputs)).message();
    }

    /** The rows a tool result carries: the text of its first content item, as a JSON array. */
    public static JsonArray rows(JsonObject answer) {
        return new JsonArray(answer.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
    }

    public static JsonObject notification(String method, JsonObject params) {
        JsonObject m = new JsonObject().put("jsonrpc", "2.0").put("method", method);
        return params == null ? m : m.put("params", params);
    }

    /** A tools/call request of {@code execute}. */
    public static JsonObject execute(Object id, String tool, JsonObject inputs) {
        return request(id, "tools/call", new JsonObject().put("name", "execute")
                .put("arguments", new JsonObject().put("tool", tool).put("inputs", inputs)));
    }

    public static JsonObject initialize(String version) {
        return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize").put("params",
                new JsonObject().put("protocolVersion", version).put("capabilities", new JsonObject())
                        .put("clientInfo", new JsonObject().put("name", "raw-test").put("version", "1")));
    }

    /** The hits of a sessionless {@code search} for {@code query}: its text block's array. */
    public io.vertx.core.json.JsonArray searchHits(String query) throws IOException, InterruptedException {
        JsonObject call = request(1, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject().put("query", query)));
        JsonObject body = new JsonObject(mcp(call).body());
        return new io.vertx.core.json.JsonArray(body.getJsonObject("result").getJsonArray("content").getJsonObject(0)
                .getString("text"));
    }

    public static JsonObject request(Object id, String method, JsonObject params) {
        JsonObject m = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
        return params == null ? m : m.put("params", params);
    }
}
