package dev.hyperterse.server;

import dev.hyperterse.telemetry.TelemetrySetup;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code /metrics} scraped as Prometheus would: requests by method and status, tool calls by tool
 * and outcome, connector operations, cache lookups, sessions, Vert.x HTTP metrics and JVM
 * metrics, in the text format, behind the MCP Origin/Host rules and an optional token; and a project that turns
 * metrics off or moves them.
 */
class MetricsEndpointTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path dir = RunningServer.copyExample("quickstart", scratch.resolve("a"));
        RunningServer.writeTool(dir, "cached-customer", "use: shop\n"
                + "statement: SELECT id, name FROM customers WHERE id = {{ inputs.customer_id }}\n"
                + "inputs:\n  customer_id:\n    type: int\ncache:\n  enabled: true\n  ttl: 60\n");
        RunningServer.writeTool(dir, "greet", "handler: ./greet.js\ninputs:\n  name:\n    type: string\n");
        Files.writeString(dir.resolve("app/tools/greet/greet.js"), "export default ({ inputs }) => ({ hi: inputs.name });\n");
        RunningServer.writeTool(dir, "broken", "handler: ./broken.js\n");
        Files.writeString(dir.resolve("app/tools/broken/broken.js"), "export default () => { throw new Error('no'); };\n");
        TelemetrySetup telemetry = TelemetrySetup.forTesting(null, false, true);
        return RunningServer.start(dir, s -> s, ServeOptions.DEFAULTS.withTelemetry(telemetry)).alsoClosing(telemetry);
    });
    static final RawHttp http = server.http();

    @Test
    void callsAreCountedByToolOutcomeAndStatus() throws Exception {
        String session = http.session("2025-11-25");
        String[] s = {"Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25"};
        http.mcp(RawHttp.execute(1, "get-customer", new JsonObject().put("customer_id", 1)), s);
        http.mcp(RawHttp.execute(2, "get-customer", new JsonObject().put("customer_id", 2)), s);
        http.mcp(RawHttp.execute(3, "get-customer", new JsonObject().put("customer_id", "x")), s);
        http.mcp(RawHttp.execute(4, "no-such-tool", new JsonObject()), s);
        http.mcp(RawHttp.execute(5, "cached-customer", new JsonObject().put("customer_id", 1)), s);
        http.mcp(RawHttp.execute(6, "cached-customer", new JsonObject().put("customer_id", 1)), s);
        http.mcp(RawHttp.request(7, "tools/list", null), s);
        http.mcp(RawHttp.execute(8, "greet", new JsonObject().put("name", "Ada")), s);
        http.mcp(RawHttp.execute(9, "broken", new JsonObject()), s);

        HttpResponse<String> r = http.send("GET", "/metrics");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"),
                r.headers().toString());
        String text = r.body();
        assertEquals(2, value(text, "hyperterse_tool_call_duration_seconds_count", "outcome=\"ok\",tool=\"get-customer\""));
        assertEquals(1, value(text, "hyperterse_tool_call_duration_seconds_count",
                "outcome=\"input_validation\",tool=\"get-customer\""));
        assertEquals(1, value(text, "hyperterse_tool_call_duration_seconds_count", "outcome=\"resolution\",tool=\"unknown\""),
                "a name no tool has is never a label");
        assertTrue(text.contains("hyperterse_tool_call_duration_seconds_bucket{outcome=\"ok\",tool=\"get-customer\",le=\"0.1\"}"),
                "durations are a histogram");
        assertEquals(5, value(text, "hyperterse_mcp_request_duration_seconds_count", "method=\"tools/call\",status=\"ok\""));
        assertEquals(3, value(text, "hyperterse_mcp_request_duration_seconds_count", "method=\"tools/call\",status=\"tool_error\""),
                "failed calls answered with isError results: the two failed stages and the unknown tool");
        assertEquals(1, value(text, "hyperterse_mcp_request_duration_seconds_count", "method=\"tools/list\",status=\"ok\""));
        assertEquals(1, value(text, "hyperterse_mcp_request_duration_seconds_count", "method=\"initialize\",status=\"ok\""));
        assertEquals(3, value(text, "hyperterse_connector_operation_duration_seconds_count",
                "adapter=\"shop\",connector=\"sqlite\",operation=\"execute\",outcome=\"ok\""));
        assertEquals(1, value(text, "hyperterse_cache_lookups_total", "result=\"hit\",tool=\"cached-customer\""));
        assertEquals(1, value(text, "hyperterse_cache_lookups_total", "result=\"miss\",tool=\"cached-customer\""));
        assertEquals(1, value(text, "hyperterse_cache_entries", null));
        assertEquals(1, value(text, "hyperterse_sessions_live", null));
        assertEquals(7, value(text, "hyperterse_tools", null));
        assertTrue(value(text, "vertx_http_server_requests_total", "code=\"200\",method=\"POST\",route=\"/mcp\"") >= 7,
                "Vert.x counts HTTP requests by method, status and route");
        assertTrue(value(text, "jvm_memory_used_bytes", "area=\"heap\",id=\"G1 Eden Space\"") > 0
                || text.contains("jvm_memory_used_bytes{area=\"heap\""), "JVM metrics");
        assertTrue(text.contains("jvm_threads_live_threads"), "JVM metrics");
        assertEquals(1, value(text, "hyperterse_script_call_duration_seconds_count", "outcome=\"ok\",tool=\"greet\""));
        assertEquals(1, value(text, "hyperterse_script_call_duration_seconds_count", "outcome=\"error\",tool=\"broken\""));
        assertEquals(2, value(text, "hyperterse_script_queue_wait_seconds_count", null), "each call waited for a worker once");
        assertEquals(0, value(text, "hyperterse_script_workers_busy", null));
        assertEquals(2, value(text, "hyperterse_script_contexts", null), "one warm context per script, reused by its call");
    }

    @Test
    void httpRequestsAreCountedByMethodRouteAndStatus() throws Exception {
        String before = http.send("GET", "/metrics").body();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, http.send("GET", "/heartbeat").statusCode());
        }
        for (int i = 0; i < 2; i++) {
            assertEquals(404, http.send("GET", "/no-such-path").statusCode());
        }
        String after = http.send("GET", "/metrics").body();
        String heartbeat = "code=\"200\",method=\"GET\",route=\"/heartbeat\"";
        String missing = "code=\"404\",method=\"GET\",route=\"\"";
        assertEquals(3, value(after, "vertx_http_server_requests_total", heartbeat)
                - valueOrZero(before, "vertx_http_server_requests_total", heartbeat));
        assertEquals(2, value(after, "vertx_http_server_requests_total", missing)
                - valueOrZero(before, "vertx_http_server_requests_total", missing), "an unrouted request has route \"\"");
        assertEquals(3, value(after, "vertx_http_server_response_time_seconds_count", heartbeat)
                - valueOrZero(before, "vertx_http_server_response_time_seconds_count", heartbeat));
        assertEquals(3 * "{\"success\":true}".length(), value(after, "vertx_http_server_response_bytes_sum", heartbeat)
                - valueOrZero(before, "vertx_http_server_response_bytes_sum", heartbeat));
        // the five requests between the scrapes: whether a scrape's own request is counted before or
        // after its text is written depends on when its end is read, so neither scrape is relied on
        assertTrue(value(after, "vertx_http_server_request_bytes_count", "method=\"GET\"")
                - valueOrZero(before, "vertx_http_server_request_bytes_count", "method=\"GET\"") >= 5);
        assertEquals(1, value(after, "vertx_http_server_active_requests", "method=\"GET\""),
                "only the scrape itself is still being processed");
        assertTrue(after.contains("# HELP vertx_http_server_requests_total Number of processed requests"), "described");
    }

    @Test
    void madeUpHttpMethodsAreCountedAsOne() throws Exception {
        // the HTTP server accepts any token as a method; each used to make its own series
        for (int i = 0; i < 20; i++) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
                socket.getOutputStream().write(("MADEUP" + i + " /heartbeat HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                assertEquals("HTTP/1.1 405 Method Not Allowed", new java.io.BufferedReader(new java.io.InputStreamReader(
                        socket.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII)).readLine());
            }
        }
        String scraped = http.send("GET", "/metrics").body();
        assertFalse(scraped.contains("MADEUP"), "no series per made-up method");
        assertEquals(0, value(scraped, "vertx_http_server_active_requests", "method=\"_OTHER\""));
        assertTrue(value(scraped, "vertx_http_server_request_bytes_count", "method=\"_OTHER\"") >= 20);
    }

    @Test
    void metricsAreBehindTheMcpOriginAndHostRules() throws Exception {
        HttpResponse<String> mcp = http.mcp(RawHttp.request(1, "ping", null), "Host", "evil.example");
        assertEquals(403, mcp.statusCode(), "the MCP endpoint refuses a foreign Host when bound to loopback");
        // metrics name the project's tools: a rebinding page must not read them either
        HttpResponse<String> host = http.send("GET", "/metrics", "Host", "evil.example");
        assertEquals(403, host.statusCode());
        assertTrue(!host.body().contains("hyperterse_"), host.body());
        assertEquals(403, http.send("GET", "/metrics", "Origin", "https://evil.example").statusCode());
        assertEquals(200, http.send("GET", "/metrics", "Origin", "http://localhost:3000").statusCode());
        assertEquals(200, http.send("GET", "/metrics").statusCode(), "no token set: any local scraper reads them");
        assertEquals(403, http.send("GET", "/ready", "Host", "prometheus.monitoring.svc").statusCode(),
                "readiness is behind the same checks");
    }

    @Test
    void aMetricsTokenIsRequiredOnceSet(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir.resolve("token"));
        Files.writeString(project.resolve(".hyperterse"), "name: token\nserver:\n  metrics:\n"
                + "    token: '{{ env.SCRAPE_TOKEN }}'\n");
        java.util.Map<String, String> env = java.util.Map.of("SCRAPE_TOKEN", "s3cret-scrape");
        dev.hyperterse.model.ServerSettings settings = new dev.hyperterse.project.ProjectCompiler(
                env, java.util.Set.of("sqlite"), java.util.Set.of()).compile(project).config().server();
        assertEquals("s3cret-scrape", settings.metricsToken());
        assertTrue(!settings.toString().contains("s3cret"), "the token never shows in the settings' text");
        try (TelemetrySetup setup = TelemetrySetup.forTesting(null, false, true);
             RunningServer s = RunningServer.start(project, env, x -> x, ServeOptions.DEFAULTS.withTelemetry(setup))) {
            RawHttp h = new RawHttp(s.baseUrl());
            for (String[] headers : java.util.List.of(new String[0], new String[] {"Authorization", "Bearer wrong"},
                    new String[] {"Authorization", "Bearer s3cret-scrap"}, new String[] {"Authorization", "Basic s3cret-scrape"},
                    new String[] {"Authorization", "Bearer s3cret-scrape-and-more"})) {
                HttpResponse<String> refused = h.send("GET", "/metrics", headers);
                assertEquals(401, refused.statusCode(), String.join(" ", headers));
                assertEquals("Bearer realm=\"metrics\"", refused.headers().firstValue("www-authenticate").orElse(null));
                assertTrue(!refused.body().contains("hyperterse_"), refused.body());
            }
            HttpResponse<String> ok = h.send("GET", "/metrics", "Authorization", "Bearer s3cret-scrape");
            assertEquals(200, ok.statusCode());
            assertTrue(ok.body().contains("hyperterse_tools"), ok.body());
            assertEquals(200, h.send("GET", "/metrics", "Authorization", "bearer s3cret-scrape").statusCode(),
                    "the scheme is case-insensitive");
            assertEquals(403, h.send("GET", "/metrics", "Authorization", "Bearer s3cret-scrape", "Host", "evil.example")
                    .statusCode(), "the token does not lift the Host check");
        }
    }

    @Test
    void toolsBehindAuthAreNamedOnlyWhenTheMetricsAskForAToken(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir.resolve("guarded"));
        String auth = "auth:\n  plugin: api_key\n  policy: {value: ops-key}\n";
        RunningServer.writeTool(project, "secret-payroll", "use: shop\nstatement: SELECT 1 AS one\n"
                + "cache:\n  enabled: true\n  ttl: 60\n" + auth);
        RunningServer.writeTool(project, "secret-handler", "handler: ./h.js\n" + auth);
        Files.writeString(project.resolve("app/tools/secret-handler/h.js"), "export default () => ({ ok: true });\n");
        for (String token : new String[] {null, "s3cret-scrape"}) {
            try (TelemetrySetup setup = TelemetrySetup.forTesting(null, false, true);
                 RunningServer s = RunningServer.start(project, x -> x.metricsToken(token),
                         ServeOptions.DEFAULTS.withTelemetry(setup))) {
                RawHttp h = new RawHttp(s.baseUrl());
                String session = h.session("2025-11-25");
                String[] none = {"Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25"};
                String[] key = {"Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25", "X-API-Key", "ops-key"};
                h.mcp(RawHttp.execute(1, "secret-payroll", new JsonObject()), key);
                h.mcp(RawHttp.execute(2, "secret-payroll", new JsonObject()), key);
                h.mcp(RawHttp.execute(3, "secret-handler", new JsonObject()), key);
                h.mcp(RawHttp.execute(4, "secret-payroll", new JsonObject()), none);
                h.mcp(RawHttp.execute(5, "get-customer", new JsonObject().put("customer_id", 1)), none);
                HttpResponse<String> scraped = h.send("GET", "/metrics",
                        token == null ? new String[0] : new String[] {"Authorization", "Bearer " + token});
                assertEquals(200, scraped.statusCode());
                String text = scraped.body();
                assertEquals(1, value(text, "hyperterse_tool_call_duration_seconds_count",
                        "outcome=\"ok\",tool=\"get-customer\""), "a tool without auth is named");
                if (token == null) {
                    // anyone passing the Host check reads these: they must not tell which protected tools exist
                    assertFalse(text.contains("secret-"), () -> text.lines().filter(l -> l.contains("secret-"))
                            .findFirst().orElse(""));
                    assertEquals(3, value(text, "hyperterse_tool_call_duration_seconds_count",
                            "outcome=\"ok\",tool=\"(protected)\""));
                    assertEquals(1, value(text, "hyperterse_tool_call_duration_seconds_count",
                            "outcome=\"auth\",tool=\"(protected)\""));
                    assertEquals(1, value(text, "hyperterse_cache_lookups_total", "result=\"hit\",tool=\"(protected)\""));
                    assertEquals(1, value(text, "hyperterse_script_call_duration_seconds_count",
                            "outcome=\"ok\",tool=\"(protected)\""));
                } else {
                    // every scrape presents the token: the operator sees each tool by name
                    assertFalse(text.contains("(protected)"), "tools are named once a token is set");
                    assertEquals(2, value(text, "hyperterse_tool_call_duration_seconds_count",
                            "outcome=\"ok\",tool=\"secret-payroll\""));
                    assertEquals(1, value(text, "hyperterse_tool_call_duration_seconds_count",
                            "outcome=\"auth\",tool=\"secret-payroll\""));
                    assertEquals(1, value(text, "hyperterse_cache_lookups_total", "result=\"hit\",tool=\"secret-payroll\""));
                    assertEquals(1, value(text, "hyperterse_script_call_duration_seconds_count",
                            "outcome=\"ok\",tool=\"secret-handler\""));
                }
            }
        }
    }

    /** The label that hides protected tools must pass every other count on, including ones added later. */
    @Test
    void theProtectedToolLabelPassesEveryMetricOn() {
        for (java.lang.reflect.Method m : dev.hyperterse.telemetry.Metrics.class.getDeclaredMethods()) {
            if (java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            // declared by the class or a class it extends (ForwardingMetrics), not left to the interface's no-op
            boolean passedOn = false;
            for (Class<?> c = ProtectedToolMetrics.class; c != Object.class && !passedOn; c = c.getSuperclass()) {
                try {
                    c.getDeclaredMethod(m.getName(), m.getParameterTypes());
                    passedOn = true;
                } catch (NoSuchMethodException e) {
                    // look further up
                }
            }
            if (!passedOn) {
                fail("ProtectedToolMetrics does not pass on Metrics." + m.getName() + ": it would be dropped");
            }
        }
    }

    @Test
    void aMetricsTokenThatResolvesToNothingIsAConfigError(@TempDir Path dir) throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir.resolve("bad"));
        Files.writeString(project.resolve(".hyperterse"), "name: bad\nserver:\n  metrics:\n    token: '{{ env.NOPE }}'\n");
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> new dev.hyperterse.project.ProjectCompiler(
                java.util.Map.of(), java.util.Set.of("sqlite"), java.util.Set.of()).compile(project));
        assertTrue(e.getMessage().contains("server.metrics.token: environment variable 'NOPE' is not set"), e.getMessage());
        assertTrue(e.getMessage().contains(".hyperterse:"), "names the file and line: " + e.getMessage());
    }

    @Test
    void metricsCanBeTurnedOffOrMoved(@TempDir Path dir) throws Exception {
        Path off = RunningServer.copyExample("quickstart", dir.resolve("off"));
        Files.writeString(off.resolve(".hyperterse"), "name: off\nobservability:\n  metrics:\n    enabled: false\n");
        Path moved = RunningServer.copyExample("quickstart", dir.resolve("moved"));
        Files.writeString(moved.resolve(".hyperterse"), "name: moved\nobservability:\n  metrics:\n    path: /internal/prom\n");
        for (Path project : new Path[] {off, moved}) {
            dev.hyperterse.model.ObservabilitySettings settings = new dev.hyperterse.project.ProjectCompiler(
                    java.util.Map.of(), java.util.Set.of("sqlite"), java.util.Set.of()).compile(project).config().observability();
            try (TelemetrySetup setup = TelemetrySetup.create(settings, java.util.Map.of(), "x", null);
                 RunningServer s = RunningServer.start(project, x -> x, ServeOptions.DEFAULTS.withTelemetry(setup))) {
                RawHttp h = new RawHttp(s.baseUrl());
                if (project == off) {
                    assertEquals(404, h.send("GET", "/metrics").statusCode());
                } else {
                    assertEquals(404, h.send("GET", "/metrics").statusCode());
                    HttpResponse<String> r = h.send("GET", "/internal/prom");
                    assertEquals(200, r.statusCode());
                    assertTrue(r.body().contains("hyperterse_tools 4.0"), r.body());
                }
            }
        }
    }

    /** Like {@link #value}, 0 when the series was never recorded. */
    static double valueOrZero(String text, String name, String labels) {
        String series = labels == null ? name : name + "{" + labels + "}";
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** The value of one series: {@code name{labels} value}, labels exactly as Prometheus prints them. */
    static double value(String text, String name, String labels) {
        String series = labels == null ? name : name + "{" + labels + "}";
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
        if (!m.find()) {
            return fail("no series " + series + " in:\n" + text.lines().filter(l -> l.startsWith(name)).toList());
        }
        return Double.parseDouble(m.group(1));
    }
}
