package dev.hyperterse.server;

import dev.hyperterse.telemetry.TelemetrySetup;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Spans through an in-memory exporter (behind the same redacting exporter production uses): one
 * per HTTP request (continuing an incoming {@code traceparent}), per MCP request, per tool call,
 * per pipeline stage and per connector call, with the documented attributes; cache hits and
 * misses; failures; and no input values unless {@code include_inputs} is on, and then redacted.
 */
class TracingTest {
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String PARENT_ID = "00f067aa0ba902b7";
    static final String TRACEPARENT = "00-" + TRACE_ID + "-" + PARENT_ID + "-01";

    static InMemorySpanExporter spans = InMemorySpanExporter.create();
    static InMemorySpanExporter inputSpans = InMemorySpanExporter.create();
    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        TelemetrySetup telemetry = TelemetrySetup.forTesting(spans, false, false);
        return RunningServer.start(project(scratch.resolve("a")), s -> s, ServeOptions.DEFAULTS.withTelemetry(telemetry))
                .alsoClosing(telemetry);
    });
    @RegisterExtension
    static final TestServer withInputs = TestServer.of(scratch -> {
        TelemetrySetup telemetry = TelemetrySetup.forTesting(inputSpans, true, false);
        return RunningServer.start(project(scratch.resolve("b")), s -> s, ServeOptions.DEFAULTS.withTelemetry(telemetry))
                .alsoClosing(telemetry);
    });
    static final RawHttp http = server.http();

    static Path project(Path scratch) {
        Path dir = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(dir, "cached-customer", "description: 'Customer by id, cached'\nuse: shop\n"
                + "statement: SELECT id, name FROM customers WHERE id = {{ inputs.customer_id }}\n"
                + "inputs:\n  customer_id:\n    type: int\ncache:\n  enabled: true\n  ttl: 60\n");
        RunningServer.writeTool(dir, "login-check", "description: 'Checks a login'\nuse: shop\n"
                + "statement: SELECT count(*) AS n FROM customers WHERE email = {{ inputs.email }} "
                + "AND {{ inputs.password }} IS NOT NULL\n"
                + "inputs:\n  email:\n    type: string\n  password:\n    type: string\n");
        return dir;
    }

    @BeforeEach
    void clear() {
        spans.reset();
        inputSpans.reset();
    }

    @Test
    void aToolCallIsTracedFromTheIncomingTraceparentDownToTheDatabase() throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.execute(1, "get-customer", new JsonObject().put("customer_id", 2)),
                "traceparent", TRACEPARENT);
        assertEquals(200, r.statusCode(), r.body());
        List<SpanData> all = awaitSpans(spans, s -> s.getKind() == SpanKind.SERVER);

        SpanData httpSpan = one(all, s -> s.getKind() == SpanKind.SERVER);
        assertEquals(TRACE_ID, httpSpan.getTraceId(), "the incoming trace continues");
        assertEquals(PARENT_ID, httpSpan.getParentSpanId());
        for (SpanData s : all) {
            assertEquals(TRACE_ID, s.getTraceId(), s.getName() + " belongs to the caller's trace");
        }

        SpanData mcp = named(all, "mcp tools/call");
        assertEquals(httpSpan.getSpanId(), mcp.getParentSpanId());
        assertEquals("tools/call", attr(mcp, "rpc.method"));
        assertEquals("jsonrpc", attr(mcp, "rpc.system"));

        SpanData call = named(all, "execute get-customer");
        assertEquals(mcp.getSpanId(), call.getParentSpanId());
        assertEquals("get-customer", attr(call, "hyperterse.tool"));
        assertEquals(1L, call.getAttributes().get(AttributeKey.longKey("hyperterse.rows")));
        assertTrue(call.getEndEpochNanos() > call.getStartEpochNanos(), "spans carry their duration");

        SpanData validation = named(all, "hyperterse.input_validation");
        assertEquals(call.getSpanId(), validation.getParentSpanId());
        assertEquals("input_validation", attr(validation, "hyperterse.stage"));
        assertEquals("get-customer", attr(validation, "hyperterse.tool"));

        SpanData execution = named(all, "hyperterse.execution");
        assertEquals(call.getSpanId(), execution.getParentSpanId());
        assertEquals("execution", attr(execution, "hyperterse.stage"));
        assertEquals("shop", attr(execution, "hyperterse.adapter"));
        assertNull(attr(execution, "hyperterse.cache"), "the tool does not cache");

        SpanData query = named(all, "query shop");
        assertEquals(execution.getSpanId(), query.getParentSpanId());
        assertEquals("sqlite", attr(query, "db.system"));
        assertEquals("sqlite", attr(query, "hyperterse.connector"));
        assertEquals("shop", attr(query, "hyperterse.adapter"));

        // the SQL client's own span (Vert.x tracing) nests under the connector call
        List<SpanData> clients = all.stream().filter(s -> s.getKind() == SpanKind.CLIENT).toList();
        assertFalse(clients.isEmpty(), "the database client reports a span: " + names(all));
        for (SpanData client : clients) {
            assertEquals(query.getSpanId(), client.getParentSpanId(), client.getName() + " " + client.getAttributes());
        }
        for (SpanData s : all) {
            assertFalse(s.getAttributes().asMap().containsKey(AttributeKey.stringKey("hyperterse.inputs")),
                    "inputs are off by default: " + s.getName());
        }
    }

    @Test
    void cacheHitsAndMissesAreOnTheExecutionSpan() throws Exception {
        JsonObject inputs = new JsonObject().put("customer_id", 3);
        assertEquals(200, http.mcp(RawHttp.execute(1, "cached-customer", inputs)).statusCode());
        List<SpanData> first = awaitSpans(spans, s -> s.getName().equals("execute cached-customer"));
        assertEquals("miss", attr(named(first, "hyperterse.execution"), "hyperterse.cache"));
        assertEquals(1, first.stream().filter(s -> s.getName().equals("query shop")).count());

        spans.reset();
        assertEquals(200, http.mcp(RawHttp.execute(2, "cached-customer", inputs)).statusCode());
        List<SpanData> second = awaitSpans(spans, s -> s.getName().equals("execute cached-customer"));
        assertEquals("hit", attr(named(second, "hyperterse.execution"), "hyperterse.cache"));
        assertTrue(second.stream().noneMatch(s -> s.getName().equals("query shop")), "a hit asks no database");
    }

    @Test
    void aFailedStageMarksItsSpanAndTheCall() throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.execute(1, "get-customer", new JsonObject().put("customer_id", "x")));
        assertEquals(200, r.statusCode());
        List<SpanData> all = awaitSpans(spans, s -> s.getName().startsWith("mcp "));
        SpanData call = named(all, "execute get-customer");
        assertEquals(StatusCode.ERROR, call.getStatus().getStatusCode());
        assertEquals("input_validation", attr(call, "error.type"));
        assertTrue(call.getStatus().getDescription().startsWith("input validation failed"),
                call.getStatus().getDescription());
        SpanData stage = named(all, "hyperterse.input_validation");
        assertEquals(StatusCode.ERROR, stage.getStatus().getStatusCode());
        assertTrue(all.stream().noneMatch(s -> s.getName().equals("hyperterse.execution")), "later stages never ran");
        // answered with an isError result: the OpenTelemetry MCP conventions' tool_error, no JSON-RPC code
        SpanData mcp = named(all, "mcp tools/call");
        assertEquals(StatusCode.ERROR, mcp.getStatus().getStatusCode());
        assertEquals("tool_error", attr(mcp, "error.type"));
        assertNull(attr(mcp, "rpc.jsonrpc.error_code"));

        spans.reset();
        http.mcp(RawHttp.execute(2, "no-such-tool", new JsonObject()));
        List<SpanData> unknown = awaitSpans(spans, s -> s.getName().startsWith("mcp "));
        SpanData resolution = named(unknown, "execute");
        assertEquals("no-such-tool", attr(resolution, "hyperterse.tool"));
        assertEquals("resolution", attr(resolution, "error.type"));
    }

    @Test
    void inputsAppearOnlyWhenEnabledAndSecretsAreMasked() throws Exception {
        JsonObject inputs = new JsonObject().put("email", "ada@example.com").put("password", "hunter2-secret");
        assertEquals(200, http.mcp(RawHttp.execute(1, "login-check", inputs)).statusCode());
        List<SpanData> without = awaitSpans(spans, s -> s.getName().startsWith("mcp "));
        for (SpanData s : without) {
            assertFalse(s.getAttributes().toString().contains("ada@example.com"), s.getName());
            assertFalse(s.getAttributes().toString().contains("hunter2"), s.getName());
        }

        RawHttp other = withInputs.http();
        assertEquals(200, other.mcp(RawHttp.execute(1, "login-check", inputs)).statusCode());
        List<SpanData> with = awaitSpans(inputSpans, s -> s.getName().startsWith("mcp "));
        String traced = attr(named(with, "execute login-check"), "hyperterse.inputs");
        assertNotNull(traced);
        JsonObject shown = new JsonObject(traced);
        assertEquals("ada@example.com", shown.getString("email"));
        assertEquals("***", shown.getString("password"));
        for (SpanData s : with) {
            assertFalse(s.getAttributes().toString().contains("hunter2"), s.getName() + ": " + s.getAttributes());
        }
    }

    @Test
    void otherRequestsGetAnMcpSpanToo() throws Exception {
        http.mcp(RawHttp.request(1, "tools/list", null));
        SpanData list = named(awaitSpans(spans, s -> s.getName().startsWith("mcp ")), "mcp tools/list");
        assertEquals("tools/list", attr(list, "mcp.method.name"));
        spans.reset();
        http.mcp(RawHttp.request(2, "no/such/method", null));
        SpanData other = named(awaitSpans(spans, s -> s.getName().startsWith("mcp ")), "mcp other");
        assertEquals("-32601", attr(other, "rpc.jsonrpc.error_code"));
    }

    // ---- helpers ----

    /** Waits until a span matching {@code last} was exported (spans end after the response is sent). */
    @Test
    void aStatelessRequestIsTracedLikeASessionOne() throws Exception {
        JsonObject call = McpStatelessTest.call(7, "execute", new JsonObject().put("tool", "get-customer")
                .put("inputs", new JsonObject().put("customer_id", 2)), new JsonObject());
        HttpResponse<String> r = http.mcp(call, McpStatelessTest.headers(call, "traceparent", TRACEPARENT));
        assertEquals(200, r.statusCode(), r.body());
        List<SpanData> all = awaitSpans(spans, s -> s.getKind() == SpanKind.SERVER);

        SpanData httpSpan = one(all, s -> s.getKind() == SpanKind.SERVER);
        SpanData mcp = named(all, "mcp tools/call");
        assertEquals(httpSpan.getSpanId(), mcp.getParentSpanId());
        assertEquals("2026-07-28", attr(mcp, "mcp.protocol.version"));
        assertEquals("tools/call", attr(mcp, "rpc.method"));
        SpanData call2 = named(all, "execute get-customer");
        assertEquals(mcp.getSpanId(), call2.getParentSpanId(), "the tool call nests under the request");
        assertEquals(TRACE_ID, call2.getTraceId());

        // a refused request is traced with its error code
        spans.reset();
        JsonObject unknown = McpStatelessTest.request(8, "ping", new JsonObject().put("_meta", McpStatelessTest.meta(new JsonObject())));
        assertEquals(404, http.mcp(unknown, McpStatelessTest.headers(unknown)).statusCode());
        SpanData refused = named(awaitSpans(spans, s -> s.getKind() == SpanKind.SERVER), "mcp other");
        assertEquals("-32601", attr(refused, "rpc.jsonrpc.error_code"));
        assertEquals(StatusCode.ERROR, refused.getStatus().getStatusCode());
    }

    static List<SpanData> awaitSpans(InMemorySpanExporter exporter, Predicate<SpanData> last) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            List<SpanData> all = exporter.getFinishedSpanItems();
            if (all.stream().anyMatch(last) && all.stream().anyMatch(s -> s.getKind() == SpanKind.SERVER)) {
                Thread.sleep(50);
                return exporter.getFinishedSpanItems();
            }
            Thread.sleep(20);
        }
        return fail("no such span among " + names(exporter.getFinishedSpanItems()));
    }

    static SpanData named(List<SpanData> all, String name) {
        return one(all, s -> s.getName().equals(name));
    }

    static SpanData one(List<SpanData> all, Predicate<SpanData> which) {
        List<SpanData> found = all.stream().filter(which).toList();
        assertEquals(1, found.size(), "exactly one such span among " + names(all));
        return found.get(0);
    }

    static String attr(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    static Map<String, String> names(List<SpanData> all) {
        return all.stream().collect(Collectors.toMap(s -> s.getName() + "#" + s.getSpanId(),
                s -> s.getKind() + " parent " + s.getParentSpanId()));
    }
}
