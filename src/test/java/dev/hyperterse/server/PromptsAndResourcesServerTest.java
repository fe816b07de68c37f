package dev.hyperterse.server;

import dev.hyperterse.connector.Connectors;
import dev.hyperterse.testing.DemoProject;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo-shaped project over real HTTP: prompts/list and get, resources/list, templates/list
 * and read (text, blob, text and file templates), completion, capabilities, auth on prompts and
 * resources, path escapes refused, and the notifications a reload sends.
 */
class PromptsAndResourcesServerTest {
    static final String V = "2025-11-25";

    @TempDir
    Path dir;
    int ids;

    @BeforeEach
    void demo() {
        DemoProject.write(dir);
    }

    private JsonObject call(RawHttp http, String session, String method, JsonObject params, String... extra)
            throws Exception {
        List<String> headers = new ArrayList<>(List.of("MCP-Protocol-Version", V));
        if (session != null) {
            headers.add("Mcp-Session-Id");
            headers.add(session);
        }
        headers.addAll(List.of(extra));
        HttpResponse<String> r = http.mcp(RawHttp.request(++ids, method, params), headers.toArray(new String[0]));
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }

    private static JsonObject result(JsonObject response) {
        assertNull(response.getValue("error"), () -> response.encode());
        return response.getJsonObject("result");
    }

    private static JsonObject error(JsonObject response) {
        assertNull(response.getValue("result"), () -> response.encode());
        return response.getJsonObject("error");
    }

    private static List<Object> field(JsonArray items, String key) {
        List<Object> out = new ArrayList<>();
        items.forEach(i -> out.add(((JsonObject) i).getValue(key)));
        return out;
    }

    /** As Hyperterse 2.3+ serves it: a project of prompts and resources only, with no app/tools folder. */
    @Test
    void aProjectWithoutToolsServesItsPromptsAndResources(@TempDir Path bare) throws Exception {
        Files.writeString(bare.resolve(".hyperterse"), "name: no-tools\n");
        DemoProject.write(bare, "app/prompts/greet.terse", "messages:\n  - role: user\n    text: Say hello to {{ who }}.\n"
                + "arguments:\n  who: { required: true }\n");
        DemoProject.write(bare, "app/resources/notes/config.terse", "uri: docs://notes\ntext: The notes.\n");
        try (RunningServer server = RunningServer.start(bare)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(List.of("greet"), field(result(call(http, null, "prompts/list", new JsonObject()))
                    .getJsonArray("prompts"), "name"));
            JsonObject got = result(call(http, null, "prompts/get", new JsonObject().put("name", "greet")
                    .put("arguments", new JsonObject().put("who", "Ada"))));
            assertEquals("Say hello to Ada.", got.getJsonArray("messages").getJsonObject(0).getJsonObject("content")
                    .getString("text"));
            JsonObject read = result(call(http, null, "resources/read", new JsonObject().put("uri", "docs://notes")));
            assertEquals("The notes.", read.getJsonArray("contents").getJsonObject(0).getString("text"));
            JsonObject search = result(call(http, null, "tools/call", new JsonObject().put("name", "search")
                    .put("arguments", new JsonObject().put("query", "anything"))));
            assertEquals("[]", search.getJsonArray("content").getJsonObject(0).getString("text"), "no tools to find");
        }
    }

    @Test
    void promptsAreListedAndRenderedAsTheirFilesSay() throws Exception {
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            HttpResponse<String> init = http.mcp(RawHttp.initialize(V));
            JsonObject caps = new JsonObject(init.body()).getJsonObject("result").getJsonObject("capabilities");
            assertTrue(caps.containsKey("prompts") && caps.containsKey("resources") && caps.containsKey("completions"),
                    caps.encode());
            assertEquals(Boolean.TRUE, caps.getJsonObject("resources").getBoolean("subscribe"));

            JsonArray prompts = result(call(http, null, "prompts/list", new JsonObject())).getJsonArray("prompts");
            assertEquals(List.of("incident-update", "summarize-release"), field(prompts, "name"));
            JsonObject incident = prompts.getJsonObject(0);
            assertEquals("Incident update", incident.getString("title"));
            assertEquals("Draft a status update for an ongoing incident.", incident.getString("description"));
            assertEquals(List.of(true, false), field(incident.getJsonArray("arguments"), "required"));

            JsonObject got = result(call(http, null, "prompts/get", new JsonObject().put("name", "incident-update")
                    .put("arguments", new JsonObject().put("service", "checkout").put("severity", "sev2"))));
            JsonArray messages = got.getJsonArray("messages");
            assertEquals(2, messages.size());
            // MCP has no system role: the system message arrives as a user message saying so
            assertEquals("user", messages.getJsonObject(0).getString("role"));
            assertEquals("System: You write calm, factual incident updates.",
                    messages.getJsonObject(0).getJsonObject("content").getString("text"));
            assertEquals("Write an update about the sev2 incident on checkout.",
                    messages.getJsonObject(1).getJsonObject("content").getString("text"));

            JsonObject summary = result(call(http, null, "prompts/get", new JsonObject().put("name", "summarize-release")
                    .put("arguments", new JsonObject().put("version", "2.3"))));
            assertEquals("assistant", summary.getJsonArray("messages").getJsonObject(1).getString("role"));
            assertEquals("Here is the summary of 2.3:",
                    summary.getJsonArray("messages").getJsonObject(1).getJsonObject("content").getString("text"));

            // severity has a default: left out, it renders as that, not as empty text
            JsonObject defaulted = result(call(http, null, "prompts/get", new JsonObject().put("name", "incident-update")
                    .put("arguments", new JsonObject().put("service", "checkout"))));
            assertEquals("Write an update about the sev3 incident on checkout.",
                    defaulted.getJsonArray("messages").getJsonObject(1).getJsonObject("content").getString("text"));

            JsonObject missing = error(call(http, null, "prompts/get", new JsonObject().put("name", "incident-update")
                    .put("arguments", new JsonObject().put("severity", "sev1"))));
            assertEquals(-32602, missing.getInteger("code"));
            assertTrue(missing.getString("message").contains("missing required argument 'service'"), missing.encode());
            JsonObject unknown = error(call(http, null, "prompts/get", new JsonObject().put("name", "nope")));
            assertEquals(-32602, unknown.getInteger("code"));
            JsonObject extra = error(call(http, null, "prompts/get", new JsonObject().put("name", "summarize-release")
                    .put("arguments", new JsonObject().put("version", "1").put("colour", "red"))));
            assertTrue(extra.getString("message").contains("no argument 'colour'"), extra.encode());
        }
    }

    @Test
    void resourcesAreListedAndReadAsTextBlobOrFromTemplates() throws Exception {
        Files.write(dir.resolve("app/resources/release-notes/logo.png"), new byte[]{(byte) 0x89, 'P', 'N', 'G', 0, 1});
        DemoProject.write(dir, "app/resources/logo/config.terse", "uri: img://logo\nfile: ../release-notes/logo.png\n");
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonArray resources = result(call(http, null, "resources/list", new JsonObject())).getJsonArray("resources");
            assertEquals(List.of("img://logo", "docs://release-notes", "info://service"), field(resources, "uri"));
            assertEquals(List.of("image/png", "text/markdown", "text/plain"), field(resources, "mimeType"));
            JsonArray templates = result(call(http, null, "resources/templates/list", new JsonObject()))
                    .getJsonArray("resourceTemplates");
            assertEquals(List.of("shop://orders/{id}", "shop://order-files/{id}"), field(templates, "uriTemplate"));

            JsonObject notes = read(http, "docs://release-notes");
            assertEquals(DemoProject.RELEASE_NOTES, notes.getString("text"));
            assertEquals("The service runs in eu-west-1.", read(http, "info://service").getString("text"));
            JsonObject logo = read(http, "img://logo");
            assertNull(logo.getValue("text"));
            assertEquals("iVBORwAB", logo.getString("blob"));
            assertEquals("Order 1002 is on its way.", read(http, "shop://orders/1002").getString("text"));
            assertEquals("Order a b is on its way.", read(http, "shop://orders/a%20b").getString("text"));
            JsonObject file = read(http, "shop://order-files/1001");
            assertEquals("text/markdown", file.getString("mimeType"));
            assertTrue(file.getString("text").startsWith("# Order 1001"), file.encode());

            JsonObject notFound = error(call(http, null, "resources/read", new JsonObject().put("uri", "docs://nope")));
            assertEquals(-32002, notFound.getInteger("code"));
            assertEquals(-32002, error(call(http, null, "resources/read",
                    new JsonObject().put("uri", "shop://order-files/9999"))).getInteger("code"));
        }
    }

    @Test
    void aTemplateValueCannotReachFilesOutsideItsFolder() throws Exception {
        Files.createSymbolicLink(dir.resolve("app/resources/order-file-by-id/orders/link"), dir.resolve(".env"));
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            for (String uri : List.of("shop://order-files/..%2F..%2F..%2F..%2F.env", "shop://order-files/..%2F..%2F..%2F.env",
                    "shop://order-files/%2Fetc%2Fpasswd", "shop://order-files/..%2Fconfig.terse",
                    "shop://order-files/link", "shop://order-files/..")) {
                HttpResponse<String> r = http.mcp(RawHttp.request(1, "resources/read", new JsonObject().put("uri", uri)),
                        "MCP-Protocol-Version", V);
                assertFalse(r.body().contains(DemoProject.SECRET), uri + " leaked: " + r.body());
                assertFalse(r.body().contains("root:"), uri + " leaked: " + r.body());
                assertTrue(new JsonObject(r.body()).containsKey("error"), uri + ": " + r.body());
            }
        }
    }

    @Test
    void aTemplateNeverServesHiddenOrConfigFilesInsideItsFolder() throws Exception {
        Path folder = dir.resolve("app/resources/order-file-by-id");
        Files.writeString(folder.resolve("orders/.env"), "TOKEN=" + DemoProject.SECRET + "\n");
        Files.createDirectories(folder.resolve(".private"));
        Files.writeString(folder.resolve(".private/notes"), DemoProject.SECRET);
        Files.writeString(folder.resolve("orders/extra.terse"), "secret: " + DemoProject.SECRET + "\n");
        // a link with a harmless name to a hidden file, all inside the folder
        Files.createSymbolicLink(folder.resolve("orders/notes.txt"), folder.resolve("orders/.env"));
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            for (String uri : List.of("shop://order-files/.env", "shop://order-files/..%2F.private%2Fnotes",
                    "shop://order-files/extra.terse", "shop://order-files/notes.txt")) {
                HttpResponse<String> r = http.mcp(RawHttp.request(1, "resources/read", new JsonObject().put("uri", uri)),
                        "MCP-Protocol-Version", V);
                assertFalse(r.body().contains(DemoProject.SECRET), uri + " leaked: " + r.body());
                assertEquals(-32002, new JsonObject(r.body()).getJsonObject("error").getInteger("code"), uri + ": " + r.body());
            }
            assertTrue(read(http, "shop://order-files/1001").getString("text").startsWith("# Order 1001"));
        }
    }

    private JsonObject read(RawHttp http, String uri) throws Exception {
        JsonArray contents = result(call(http, null, "resources/read", new JsonObject().put("uri", uri)))
                .getJsonArray("contents");
        assertEquals(1, contents.size());
        assertEquals(uri, contents.getJsonObject(0).getString("uri"));
        return contents.getJsonObject(0);
    }

    @Test
    void completionMatchesPrefixesOfTheStaticValues() throws Exception {
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(List.of("checkout", "catalog"), complete(http, new JsonObject().put("type", "ref/prompt")
                    .put("name", "incident-update"), "service", "c"));
            assertEquals(List.of("catalog"), complete(http, new JsonObject().put("type", "ref/prompt")
                    .put("name", "incident-update"), "service", "CA"));
            assertEquals(List.of("1001", "1002"), complete(http, new JsonObject().put("type", "ref/resource")
                    .put("uri", "shop://orders/{id}"), "id", "100"));
            assertEquals(List.of(), complete(http, new JsonObject().put("type", "ref/prompt")
                    .put("name", "summarize-release"), "version", "2"));
            JsonObject unknown = error(call(http, null, "completion/complete", new JsonObject()
                    .put("ref", new JsonObject().put("type", "ref/prompt").put("name", "nope"))
                    .put("argument", new JsonObject().put("name", "x").put("value", ""))));
            assertEquals(-32602, unknown.getInteger("code"));
            for (Object typed : List.of(5, true, new JsonArray().add("c"), new JsonObject())) {
                JsonObject mistyped = error(call(http, null, "completion/complete", new JsonObject()
                        .put("ref", new JsonObject().put("type", "ref/prompt").put("name", "incident-update"))
                        .put("argument", new JsonObject().put("name", "service").put("value", typed))));
                assertEquals(-32602, mistyped.getInteger("code"), mistyped.encode());
                assertEquals("completion/complete: 'argument.value' must be a string", mistyped.getString("message"));
            }
        }
    }

    private List<Object> complete(RawHttp http, JsonObject ref, String argument, String value) throws Exception {
        JsonObject completion = result(call(http, null, "completion/complete", new JsonObject().put("ref", ref)
                .put("argument", new JsonObject().put("name", argument).put("value", value)))).getJsonObject("completion");
        assertEquals(completion.getJsonArray("values").size(), completion.getInteger("total"));
        return completion.getJsonArray("values").getList();
    }

    @Test
    void withoutPromptsOrResourcesTheCapabilitiesAreNotDeclared() throws Exception {
        Path bare = RunningServer.copyExample("quickstart", dir.resolve("bare"));
        deleteTree(bare.resolve("app/prompts"));
        deleteTree(bare.resolve("app/resources"));
        try (RunningServer server = RunningServer.start(bare)) {
            RawHttp http = new RawHttp(server.baseUrl());
            JsonObject caps = new JsonObject(http.mcp(RawHttp.initialize(V)).body()).getJsonObject("result")
                    .getJsonObject("capabilities");
            assertFalse(caps.containsKey("prompts") || caps.containsKey("resources") || caps.containsKey("completions"),
                    caps.encode());
        }
    }

    private static void deleteTree(Path root) throws Exception {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void authBlocksHidePromptsAndResourcesFromCallersTheyDoNotAdmit() throws Exception {
        DemoProject.write(dir, "app/prompts/ops-only.terse", String.join("\n",
                "auth:", "  plugin: api_key", "  policy: {value: ops-key}",
                "arguments:", "  host: {completion: [db1, db2]}",
                "messages:", "  - {role: user, text: restart everything}", ""));
        DemoProject.write(dir, "app/resources/ops-runbook/config.terse", String.join("\n",
                "uri: ops://runbook", "text: the runbook",
                "auth:", "  plugin: api_key", "  policy: {value: ops-key}", ""));
        DemoProject.write(dir, "app/resources/ops-hosts/config.terse", String.join("\n",
                "uri_template: ops://hosts/{name}", "text_template: \"host {{ name }}\"",
                "arguments:", "  name: {completion: [db1, db2]}",
                "auth:", "  plugin: api_key", "  policy: {value: ops-key}", ""));
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(List.of("incident-update", "summarize-release"),
                    field(result(call(http, null, "prompts/list", new JsonObject())).getJsonArray("prompts"), "name"));
            assertFalse(field(result(call(http, null, "resources/list", new JsonObject())).getJsonArray("resources"), "uri")
                    .contains("ops://runbook"));
            // a protected item the caller may not see is answered exactly as one that does not exist,
            // so a caller without credentials cannot learn which protected ones there are
            assertSameError(error(call(http, null, "prompts/get", new JsonObject().put("name", "no-such"))),
                    error(call(http, null, "prompts/get", new JsonObject().put("name", "ops-only"))), "no-such", "ops-only");
            // auth comes before the arguments' checks, which would name the prompt's arguments
            assertSameError(error(call(http, null, "prompts/get", new JsonObject().put("name", "no-such")
                            .put("arguments", new JsonObject().put("guess", "x")))),
                    error(call(http, null, "prompts/get", new JsonObject().put("name", "ops-only")
                            .put("arguments", new JsonObject().put("guess", "x")))), "no-such", "ops-only");
            assertSameError(error(call(http, null, "resources/read", new JsonObject().put("uri", "ops://nothing"))),
                    error(call(http, null, "resources/read", new JsonObject().put("uri", "ops://runbook"))),
                    "ops://nothing", "ops://runbook");
            assertSameError(error(call(http, null, "resources/read", new JsonObject().put("uri", "ops://nothing"))),
                    error(call(http, null, "resources/read", new JsonObject().put("uri", "ops://hosts/db1"))),
                    "ops://nothing", "ops://hosts/db1");
            assertSameError(error(call(http, null, "completion/complete", completion("ref/prompt", "name", "no-such", "host"))),
                    error(call(http, null, "completion/complete", completion("ref/prompt", "name", "ops-only", "host"))),
                    "no-such", "ops-only");
            assertSameError(error(call(http, null, "completion/complete",
                            completion("ref/resource", "uri", "ops://nothing/{name}", "name"))),
                    error(call(http, null, "completion/complete",
                            completion("ref/resource", "uri", "ops://hosts/{name}", "name"))),
                    "ops://nothing/{name}", "ops://hosts/{name}");
            // watching a resource is reading it as it changes
            String session = http.session(V);
            assertSameError(error(call(http, session, "resources/subscribe", new JsonObject().put("uri", "ops://nothing"))),
                    error(call(http, session, "resources/subscribe", new JsonObject().put("uri", "ops://runbook"))),
                    "ops://nothing", "ops://runbook");

            String[] key = {"X-API-Key", "ops-key"};
            assertTrue(field(result(call(http, null, "prompts/list", new JsonObject(), key)).getJsonArray("prompts"), "name")
                    .contains("ops-only"));
            assertEquals("the runbook", result(call(http, null, "resources/read", new JsonObject().put("uri", "ops://runbook"),
                    key)).getJsonArray("contents").getJsonObject(0).getString("text"));
            assertTrue(result(call(http, session, "resources/subscribe", new JsonObject().put("uri", "ops://runbook"), key))
                    .isEmpty());
            assertEquals(List.of("db1", "db2"), completionValues(call(http, null, "completion/complete",
                    completion("ref/prompt", "name", "ops-only", "host"), key)));
            assertEquals(List.of("db1", "db2"), completionValues(call(http, null, "completion/complete",
                    completion("ref/resource", "uri", "ops://hosts/{name}", "name"), key)));
            assertEquals("host db1", result(call(http, null, "resources/read", new JsonObject().put("uri", "ops://hosts/db1"),
                    key)).getJsonArray("contents").getJsonObject(0).getString("text"));
        }
    }

    private static JsonObject completion(String type, String refKey, String refValue, String argument) {
        return new JsonObject().put("ref", new JsonObject().put("type", type).put(refKey, refValue))
                .put("argument", new JsonObject().put("name", argument).put("value", ""));
    }

    private static List<Object> completionValues(JsonObject response) {
        return result(response).getJsonObject("completion").getJsonArray("values").getList();
    }

    /** The error for {@code hidden} is the error for {@code missing}, but for the name it repeats. */
    private static void assertSameError(JsonObject missing, JsonObject hidden, String missingName, String hiddenName) {
        assertEquals(missing.encode().replace(missingName, hiddenName), hidden.encode());
    }

    @Test
    void aReloadTellsSessionsWhatChangedAndSubscribersWhichResourceChanged() throws Exception {
        Connectors connectors = Connectors.builtIn();
        try (RunningServer server = RunningServer.start(dir, Map.of(), connectors, s -> s,
                ServeOptions.DEFAULTS.withReloads(RunningServer.recompile(dir, Map.of(), connectors), null))) {
            RawHttp http = new RawHttp(server.baseUrl());
            String session = http.session(V);
            assertTrue(result(call(http, session, "resources/subscribe", new JsonObject().put("uri", "docs://release-notes")))
                    .isEmpty());
            assertEquals(-32002, error(call(http, session, "resources/subscribe", new JsonObject().put("uri", "docs://nope")))
                    .getInteger("code"));
            try (SseStream stream = http.listen(session, null)) {
                assertEquals(200, stream.status());
                Files.writeString(dir.resolve("app/resources/release-notes/notes.md"), "# Release 2.4\n");
                reload(server);
                SseStream.Event updated = stream.nextMessage(Duration.ofSeconds(5));
                assertEquals("notifications/resources/updated", updated.json().getString("method"));
                assertEquals("docs://release-notes", updated.json().getJsonObject("params").getString("uri"));

                DemoProject.write(dir, "app/prompts/new-one.terse", "messages:\n  - {role: user, text: hello}\n");
                reload(server);
                assertEquals("notifications/prompts/list_changed",
                        stream.nextMessage(Duration.ofSeconds(5)).json().getString("method"));

                DemoProject.write(dir, "app/resources/another/config.terse", "uri: a://another\ntext: x\n");
                reload(server);
                assertEquals("notifications/resources/list_changed",
                        stream.nextMessage(Duration.ofSeconds(5)).json().getString("method"));

                assertTrue(result(call(http, session, "resources/unsubscribe",
                        new JsonObject().put("uri", "docs://release-notes"))).isEmpty());
                Files.writeString(dir.resolve("app/resources/release-notes/notes.md"), "# Release 2.5\n");
                reload(server);
                assertTrue(stream.silentFor(Duration.ofMillis(500)), "no update after unsubscribing");
            }
            assertEquals("# Release 2.5\n", read(http, "docs://release-notes").getString("text"));
        }
    }

    @Test
    void aWatchedUriIsBounded() throws Exception {
        try (RunningServer server = RunningServer.start(dir)) {
            RawHttp http = new RawHttp(server.baseUrl());
            String session = http.session(V);
            // a template matches any length; each watched URI stays with the session until it ends
            String longest = "shop://orders/" + "1".repeat(2048 - "shop://orders/".length());
            assertTrue(result(call(http, session, "resources/subscribe", new JsonObject().put("uri", longest))).isEmpty());
            JsonObject refused = error(call(http, session, "resources/subscribe",
                    new JsonObject().put("uri", longest + "1".repeat(1_000_000))));
            assertEquals(-32602, refused.getInteger("code"));
            assertEquals("resources/subscribe: 'uri' is too long (at most 2048 characters)", refused.getString("message"));
            assertTrue(result(call(http, session, "resources/unsubscribe", new JsonObject().put("uri", longest))).isEmpty());
        }
    }

    private static void reload(RunningServer server) throws Exception {
        server.server().reload().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
}
