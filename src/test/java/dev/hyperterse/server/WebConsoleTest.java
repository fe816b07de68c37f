package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web console over plain HTTP: off by default (nothing routed); when on, its page and files
 * with their content hashes, ETags and security headers, behind the MCP Origin and Host checks;
 * its Live data behind the metrics token, with inputs masked as in traces and, without a token,
 * the tools that have an auth block unnamed.
 */
class WebConsoleTest {
    static final String TOKEN = "console-live-token-31";

    @RegisterExtension
    static final TestServer off = TestServer.quickstart();

    @RegisterExtension
    static final TestServer on = TestServer.of(scratch -> {
        Path dir = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(dir, "sign-in", "use: shop\nstatement: SELECT {{ inputs.user }} AS user_name\n"
                + "inputs:\n  user:\n    type: string\n  api_token:\n    type: string\n");
        return RunningServer.start(dir, s -> s.console(true).metricsToken(TOKEN), ServeOptions.DEFAULTS);
    });

    @RegisterExtension
    static final TestServer withoutToken = TestServer.of(scratch -> {
        Path dir = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(dir, "payroll", "use: shop\nstatement: SELECT {{ inputs.who }} AS who\n"
                + "inputs:\n  who:\n    type: string\nauth:\n  plugin: api_key\n  policy: {value: ops-key}\n");
        return RunningServer.start(dir, s -> s.console(true), ServeOptions.DEFAULTS);
    });

    @Test
    void isOffByDefaultAndThenNothingIsRouted() throws Exception {
        assertFalse(off.running().project().config().server().console(), "server.console defaults to false");
        RawHttp http = off.http();
        for (String path : List.of("/console", "/console/", "/console/live", "/console/assets/x/console.js")) {
            assertEquals(404, http.send("GET", path).statusCode(), path);
        }
        String page = on.http().send("GET", "/console/").body();
        Matcher asset = Pattern.compile("/console/assets/[0-9a-f]{32}/console\\.js").matcher(page);
        assertTrue(asset.find(), page);
        assertEquals(404, http.send("GET", asset.group()).statusCode(), "not even a file of the console's own");
    }

    @Test
    void thePageLoadsOnlyItsOwnFilesEachUnderItsContentHash() throws Exception {
        RawHttp http = on.http();
        for (String path : List.of("/console", "/console/")) {
            HttpResponse<String> page = http.send("GET", path);
            assertEquals(200, page.statusCode(), path);
            assertEquals("text/html; charset=utf-8", page.headers().firstValue("content-type").orElse(null));
            assertSecured(page);
            assertEquals("no-cache", page.headers().firstValue("cache-control").orElse(null));
        }
        HttpResponse<String> page = http.send("GET", "/console/");
        String html = page.body();
        // no inline code or styles: the policy would block them
        Matcher script = Pattern.compile("<script\\b[^>]*>").matcher(html);
        int scripts = 0;
        while (script.find()) {
            assertTrue(script.group().contains(" src=\"/console/assets/"), script.group());
            scripts++;
        }
        assertEquals(2, scripts, "uPlot and the console");
        assertFalse(Pattern.compile("\\son[a-z]+\\s*=", Pattern.CASE_INSENSITIVE).matcher(html).find(), "no handler attributes");
        assertFalse(html.contains("style="), "no style attributes");
        assertFalse(html.contains("<style"), "no style elements");

        String etag = page.headers().firstValue("etag").orElseThrow();
        assertEquals(304, http.send("GET", "/console/", "If-None-Match", etag).statusCode());

        Matcher named = Pattern.compile("/console/assets/([0-9a-f]{32})/([A-Za-z.]+)").matcher(html);
        List<String> names = new ArrayList<>();
        while (named.find()) {
            String hash = named.group(1);
            names.add(named.group(2));
            HttpResponse<byte[]> file = bytes(on.baseUrl() + named.group());
            assertEquals(200, file.statusCode(), named.group());
            assertEquals(hash, ConsoleAssets.hash(file.body()), "the path names the content: " + named.group());
            assertEquals("\"" + hash + "\"", file.headers().firstValue("etag").orElse(null));
            assertEquals("public, max-age=31536000, immutable", file.headers().firstValue("cache-control").orElse(null));
            assertEquals(Console.CONTENT_SECURITY_POLICY,
                    file.headers().firstValue("content-security-policy").orElse(null));
            assertEquals("nosniff", file.headers().firstValue("x-content-type-options").orElse(null));
            assertTrue(file.headers().firstValue("content-type").orElse("")
                    .startsWith(named.group(2).endsWith(".js") ? "text/javascript" : "text/css"), named.group());
            assertEquals(304, http.send("GET", named.group(), "If-None-Match", "\"" + hash + "\"").statusCode());
            String stale = named.group().replace(hash, "0".repeat(32));
            assertEquals(404, http.send("GET", stale).statusCode(), "a file under another hash is not served");
        }
        assertEquals(List.of("uPlot.min.css", "console.css", "uPlot.min.js", "console.js"), names);
    }

    @Test
    void theConsoleIsBehindTheMcpOriginAndHostChecks() throws Exception {
        RawHttp http = on.http();
        assertEquals(403, http.send("GET", "/console/", "Host", "evil.example").statusCode());
        assertEquals(403, http.send("GET", "/console/live", "Origin", "https://evil.example",
                "Authorization", "Bearer " + TOKEN).statusCode());
        assertEquals(403, http.send("GET", "/console/live", "Host", "evil.example",
                "Authorization", "Bearer " + TOKEN).statusCode(), "the token does not lift the Host check");
        HttpResponse<String> local = http.send("GET", "/console/", "Origin", "http://localhost:3000");
        assertEquals(200, local.statusCode());
        assertTrue(local.headers().firstValue("access-control-allow-origin").isEmpty(),
                "no CORS headers: only the page itself reads what the console serves");
    }

    @Test
    void liveCountsNeedTheMetricsTokenAndShowInputsAsTracesDo() throws Exception {
        RawHttp http = on.http();
        for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer wrong"})) {
            HttpResponse<String> refused = http.send("GET", "/console/live", headers);
            assertEquals(401, refused.statusCode());
            assertFalse(refused.body().contains("sign-in"), refused.body());
        }
        http.call("sign-in", new JsonObject().put("user", "ada").put("api_token", "tok-9f8e7d"));
        http.call("get-customer", new JsonObject().put("customer_id", "x"));
        http.call("get-customer", new JsonObject().put("customer_id", 1));
        HttpResponse<String> read = http.send("GET", "/console/live", "Authorization", "Bearer " + TOKEN);
        assertEquals(200, read.statusCode());
        assertEquals("no-store", read.headers().firstValue("cache-control").orElse(null));
        assertFalse(read.body().contains("tok-9f8e7d"), "a secret-looking input never shows");
        JsonObject live = new JsonObject(read.body());
        JsonObject customer = tool(live.getJsonArray("tools"), "get-customer");
        assertEquals(2, customer.getInteger("calls"));
        assertEquals(1, customer.getInteger("errors"));
        assertTrue(customer.getDouble("p50_ms") > 0 && customer.getDouble("p99_ms") >= customer.getDouble("p50_ms"),
                customer.encode());
        JsonArray recent = live.getJsonArray("recent");
        assertEquals("get-customer", recent.getJsonObject(0).getString("tool"), "newest first");
        assertEquals("ok", recent.getJsonObject(0).getString("outcome"));
        JsonObject failed = recent.getJsonObject(1);
        assertEquals("input_validation", failed.getString("outcome"));
        assertTrue(failed.getString("error").contains("customer_id"), failed.encode());
        JsonObject signIn = recent.getJsonObject(2);
        assertEquals("sign-in", signIn.getString("tool"));
        assertEquals("{\"user\":\"ada\",\"api_token\":\"***\"}", signIn.getString("inputs"));
    }

    @Test
    void withoutAMetricsTokenToolsWithAnAuthBlockAreNotNamed() throws Exception {
        RawHttp http = withoutToken.http();
        JsonObject answer = http.call("payroll", new JsonObject().put("who", "grace"), "X-API-Key", "ops-key");
        assertNull(answer.getJsonObject("result").getValue("isError"), answer.encode());
        HttpResponse<String> read = http.send("GET", "/console/live");
        assertEquals(200, read.statusCode(), "no token set: readable as the metrics are");
        assertFalse(read.body().contains("payroll") || read.body().contains("grace"), read.body());
        JsonObject call = new JsonObject(read.body()).getJsonArray("recent").getJsonObject(0);
        assertEquals(ProtectedToolMetrics.PROTECTED, call.getString("tool"));
        assertNull(call.getValue("inputs"));
        assertNull(call.getValue("caller"));
        assertEquals("ok", call.getString("outcome"));
    }

    private static JsonObject tool(JsonArray tools, String name) {
        for (int i = 0; i < tools.size(); i++) {
            if (name.equals(tools.getJsonObject(i).getString("tool"))) {
                return tools.getJsonObject(i);
            }
        }
        throw new AssertionError("no " + name + " in " + tools.encode());
    }

    private static void assertSecured(HttpResponse<?> response) {
        assertEquals(Console.CONTENT_SECURITY_POLICY, response.headers().firstValue("content-security-policy").orElse(null));
        assertTrue(Console.CONTENT_SECURITY_POLICY.startsWith("default-src 'none'; script-src 'self'; style-src 'self';"));
        assertEquals("nosniff", response.headers().firstValue("x-content-type-options").orElse(null));
        assertEquals("no-referrer", response.headers().firstValue("referrer-policy").orElse(null));
        assertEquals("DENY", response.headers().firstValue("x-frame-options").orElse(null));
    }

    private static HttpResponse<byte[]> bytes(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
