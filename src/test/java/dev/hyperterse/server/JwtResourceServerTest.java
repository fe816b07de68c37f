package dev.hyperterse.server;

import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A server whose root auth block is jwt: the MCP authorization spec's resource-server side. */
class JwtResourceServerTest {
    static final String SECRET = "another-shared-secret-32-characters-long";
    @RegisterExtension
    static final TestServer server = TestServer.of(dir -> {
        Files.writeString(dir.resolve(".hyperterse"), String.join("\n",
                "name: secured",
                "auth:",
                "  plugin: jwt",
                "  policy:",
                "    secret: '{{ env.JWT_SECRET }}'",
                "    audience: https://mcp.example.test/mcp",
                "    issuer: https://login.example.test",
                "    scopes: [orders:read]",
                "")); 
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("schema.sql"), "CREATE TABLE orders (id INTEGER PRIMARY KEY, owner TEXT, item TEXT);\n"
                + "INSERT INTO orders VALUES (1, 'alice', 'book'), (2, 'bob', 'lamp'), (3, 'alice', 'pen');\n");
        Files.writeString(dir.resolve("app/adapters/db.terse"),
                "connector: sqlite\nconnection_string: ':memory:'\noptions:\n  init_sql: schema.sql\n");
        RunningServer.writeTool(dir, "my-orders", "description: 'The orders of the caller'\nuse: db\n"
                + "statement: SELECT id, item FROM orders WHERE owner = {{ auth.claims.sub }} ORDER BY id\n");
        RunningServer.writeTool(dir, "all-orders", "use: db\nstatement: SELECT id FROM orders\n"
                + "auth:\n  plugin: jwt\n  policy:\n    secret: '{{ env.JWT_SECRET }}'\n"
                + "    audience: https://mcp.example.test/mcp\n    scopes: [orders:admin]\n");
        return RunningServer.start(dir, Map.of("JWT_SECRET", SECRET), s -> s);
    });
    static final RawHttp http = server.http();
    static Vertx signerVertx;
    static JWTAuth signer;

    @BeforeAll
    static void createSigner() {
        signerVertx = Vertx.vertx();
        signer = JWTAuth.create(signerVertx, new JWTAuthOptions()
                .addPubSecKey(new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(SECRET)));
    }

    @AfterAll
    static void stop() {
        signerVertx.close();
    }

    static String token(String sub, String scope) {
        return signer.generateToken(new JsonObject().put("sub", sub).put("scope", scope)
                        .put("aud", "https://mcp.example.test/mcp").put("iss", "https://login.example.test")
                        .put("exp", System.currentTimeMillis() / 1000 + 300),
                new JWTOptions().setNoTimestamp(true));
    }

    static JsonObject execute(String tool) {
        return RawHttp.request(1, "tools/call", new JsonObject().put("name", "execute")
                .put("arguments", new JsonObject().put("tool", tool).put("inputs", new JsonObject())));
    }

    @Test
    void noTokenGets401WithAChallengePointingAtTheMetadata() throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.initialize("2025-11-25"));
        assertEquals(401, r.statusCode());
        String challenge = r.headers().firstValue("www-authenticate").orElseThrow();
        assertTrue(challenge.startsWith("Bearer resource_metadata=\"" + server.baseUrl()
                + "/.well-known/oauth-protected-resource/mcp\""), challenge);
        assertTrue(challenge.contains("scope=\"orders:read\""), challenge);
        assertFalse(challenge.contains("error="), "no token was presented");

        HttpResponse<String> bad = http.mcp(RawHttp.initialize("2025-11-25"), "Authorization", "Bearer nonsense");
        assertEquals(401, bad.statusCode());
        assertTrue(bad.headers().firstValue("www-authenticate").orElseThrow().contains("error=\"invalid_token\""));
        assertEquals(200, http.send("GET", "/heartbeat").statusCode(), "the heartbeat stays open");
    }

    @Test
    void theMetadataDocument() throws Exception {
        for (String path : new String[] {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
            JsonObject doc = new JsonObject(http.send("GET", path).body());
            assertEquals(server.baseUrl() + "/mcp", doc.getString("resource"));
            assertEquals(new JsonArray().add("https://login.example.test"), doc.getJsonArray("authorization_servers"));
            assertEquals(new JsonArray().add("orders:read"), doc.getJsonArray("scopes_supported"));
        }
    }

    @Test
    void tokensInTheQueryStringAreNeverAccepted() throws Exception {
        String t = token("alice", "orders:read");
        HttpResponse<String> r = http.post("/mcp?access_token=" + t, RawHttp.initialize("2025-11-25").encode(),
                "Content-Type", "application/json", "Accept", RawHttp.ACCEPT_BOTH);
        assertEquals(401, r.statusCode());
    }

    @Test
    void aTokenWithoutTheScopeGets403() throws Exception {
        HttpResponse<String> r = http.mcp(RawHttp.initialize("2025-11-25"), "Authorization", "Bearer " + token("alice", "profile"));
        assertEquals(403, r.statusCode());
        String challenge = r.headers().firstValue("www-authenticate").orElseThrow();
        assertTrue(challenge.contains("error=\"insufficient_scope\"") && challenge.contains("scope=\"orders:read\""), challenge);
    }

    @Test
    void claimsFilterRowsByTheCaller() throws Exception {
        JsonObject alice = new JsonObject(http.mcp(execute("my-orders"), "Authorization", "Bearer " + token("alice", "orders:read")).body());
        assertEquals("[{\"id\":1,\"item\":\"book\"},{\"id\":3,\"item\":\"pen\"}]",
                alice.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
        JsonObject bob = new JsonObject(http.mcp(execute("my-orders"), "Authorization", "Bearer " + token("bob", "orders:read")).body());
        assertEquals("[{\"id\":2,\"item\":\"lamp\"}]",
                bob.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
        // a claim that tries to smuggle SQL is still just a value
        JsonObject sly = new JsonObject(http.mcp(execute("my-orders"), "Authorization",
                "Bearer " + token("alice' OR '1'='1", "orders:read")).body());
        assertEquals("[]", sly.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
    }

    @Test
    void aToolWithAStricterPolicyRefusesAtCallTime() throws Exception {
        JsonObject r = new JsonObject(http.mcp(execute("all-orders"), "Authorization", "Bearer " + token("alice", "orders:read")).body());
        // search hides the tool from this caller (tools.search.filter_by_auth), so execute does not confirm it exists
        assertEquals(new ToolError("tool not found: all-orders", -32601, "resolution", "all-orders"), ToolError.ofAnswer(r));
        JsonObject missing = new JsonObject(http.mcp(execute("all-orderz"), "Authorization",
                "Bearer " + token("alice", "orders:read")).body());
        assertEquals(missing.encode().replace("all-orderz", "all-orders"), r.encode(),
                "the refusal reads exactly like a tool that does not exist");
        JsonObject ok = new JsonObject(http.mcp(execute("all-orders"), "Authorization",
                "Bearer " + token("root", "orders:read orders:admin")).body());
        assertEquals(3, new JsonArray(ok.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text")).size());
    }

    /** Signed, unexpired claims for the root policy, with one claim overwritten (null included). */
    static String tokenWith(String claim, Object value) {
        JsonObject claims = new JsonObject().put("sub", "alice").put("scope", "orders:read orders:admin")
                .put("aud", "https://mcp.example.test/mcp").put("iss", "https://login.example.test")
                .put("exp", System.currentTimeMillis() / 1000 + 300);
        return signer.generateToken(claims.put(claim, value), new JWTOptions().setNoTimestamp(true));
    }

    static final Object[][] MISTYPED_CLAIMS = {
            {"exp", "soon"}, {"exp", null}, {"exp", String.valueOf(System.currentTimeMillis() / 1000 + 300)},
            {"nbf", "yesterday"}, {"nbf", null}, {"iat", null}, {"iat", new JsonObject().put("t", 1)},
            {"aud", 42}, {"aud", null}, {"aud", new JsonObject()}, {"iss", new JsonArray().add("https://login.example.test")},
            {"sub", 7}, {"sub", new JsonObject().put("id", "alice")}, {"sub", null}};

    @Test
    void mistypedClaimsGet401LikeAnExpiredTokenNever500() throws Exception {
        for (Object[] c : MISTYPED_CLAIMS) {
            String what = c[0] + " = " + c[1];
            HttpResponse<String> r = http.mcp(RawHttp.initialize("2025-11-25"), "Authorization",
                    "Bearer " + tokenWith((String) c[0], c[1]));
            assertEquals(401, r.statusCode(), what + ": " + r.body());
            assertTrue(r.headers().firstValue("www-authenticate").orElseThrow().contains("error=\"invalid_token\""), what);
            JsonObject error = new JsonObject(r.body()).getJsonObject("error");
            assertEquals(-32000, error.getInteger("code"), what);
            assertTrue(error.getString("message").startsWith("Unauthorized: invalid token: claim '" + c[0] + "' must be"),
                    what + ": " + error.getString("message"));
        }
        assertEquals(200, http.send("GET", "/heartbeat").statusCode());
    }

    /** A per-tool jwt block (no root block): the same tokens are auth failures of the call, not -32603. */
    @Test
    void mistypedClaimsAreAuthFailuresOfAPerToolPolicy(@TempDir Path project) throws Exception {
        // with search filtered by auth (the default) a refused caller is told the tool does not exist;
        // unfiltered, the refusal is shown, so the reason can be checked here
        Files.writeString(project.resolve(".hyperterse"), "name: per-tool\ntools:\n  search:\n    filter_by_auth: false\n");
        ProjectFiles.sqliteMemoryDb(project);
        RunningServer.writeTool(project, "whoami", "use: db\nstatement: SELECT {{ auth.claims.sub }} AS me\n"
                + "auth:\n  plugin: jwt\n  policy:\n    secret: '{{ env.JWT_SECRET }}'\n"
                + "    audience: https://mcp.example.test/mcp\n    issuer: https://login.example.test\n");
        try (RunningServer perTool = RunningServer.start(project, Map.of("JWT_SECRET", SECRET), s -> s)) {
            RawHttp client = new RawHttp(perTool.baseUrl());
            JsonObject ok = new JsonObject(client.mcp(execute("whoami"), "Authorization",
                    "Bearer " + tokenWith("scope", "any")).body());
            assertEquals("[{\"me\":\"alice\"}]",
                    ok.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
            for (Object[] c : MISTYPED_CLAIMS) {
                String what = c[0] + " = " + c[1];
                HttpResponse<String> r = client.mcp(execute("whoami"), "Authorization",
                        "Bearer " + tokenWith((String) c[0], c[1]));
                assertEquals(200, r.statusCode(), what + ": " + r.body());
                ToolError error = ToolError.ofAnswer(new JsonObject(r.body()));
                assertEquals(-32000, error.code(), what + ": " + r.body());
                assertEquals("auth", error.stage(), what);
                assertTrue(error.message().startsWith("auth failed: invalid token: claim '" + c[0] + "'"),
                        what + ": " + error.message());
            }
        }
    }
}
