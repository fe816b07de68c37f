package dev.hyperterse.server;

import dev.hyperterse.pipeline.Pipeline;
import dev.hyperterse.testing.LogCapture;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.testing.RawHttp.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@code plugin: script}: a project's own auth rule as a script that sees the request headers and
 * the tool name, throws or returns false to deny, and may name the caller with claims that
 * statements and the tool's scripts see.
 */
class ScriptAuthServerTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(dir -> {
        Files.writeString(dir.resolve(".hyperterse"), String.join("\n",
                "name: gated",
                "tools:",
                "  search:",
                "    filter_by_auth: true",
                "auth:",
                "  plugin: script",
                "  policy:",
                "    path: auth/gate.ts",
                "    env: [GATE_TOKEN]",
                ""));
        Files.createDirectories(dir.resolve("auth"));
        Files.writeString(dir.resolve("auth/gate.ts"), String.join("\n",
                "interface AuthRequest { headers: Record<string, string>; tool: string }",
                "export default (req: AuthRequest) => {",
                "  if (req.headers['x-gate-token'] !== process.env.GATE_TOKEN) {",
                "    throw new Error('missing or wrong X-Gate-Token');",
                "  }",
                "  if (req.tool === 'gated-admin' && req.headers['x-role'] !== 'admin') return false;",
                "  const tenant = req.headers['x-tenant'];",
                "  if (!tenant) return undefined;",
                "  return { subject: 'user-' + tenant, claims: { tenant, level: 3 } };",
                "};",
                ""));
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "gated-rows", String.join("\n",
                "description: 'Rows of the caller''s tenant'",
                "use: db",
                "statement: >-",
                "  SELECT id, tenant FROM (SELECT 1 AS id, 'acme' AS tenant UNION ALL SELECT 2, 'globex'",
                "  UNION ALL SELECT 3, 'acme') WHERE tenant = {{ auth.claims.tenant }} ORDER BY id",
                ""));
        RunningServer.writeTool(dir, "gated-admin", "description: 'Admin report'\nuse: db\nstatement: SELECT 42 AS answer\n");
        RunningServer.writeTool(dir, "gated-whoami", "description: 'Who the scripts think called'\n"
                + "handler: ./whoami.js\n");
        Files.writeString(dir.resolve("app/tools/gated-whoami/whoami.js"),
                "export default ({ auth, tool }) => ({ tool, subject: auth.subject, tenant: auth.claims.tenant ?? null });\n");
        RunningServer.writeTool(dir, "gated-signed", String.join("\n",
                "description: 'A tool with its own asynchronous auth script'",
                "use: db",
                "statement: SELECT 'signed' AS ok",
                "auth:",
                "  plugin: script",
                "  policy: {path: './check.js#gate'}",
                ""));
        Files.writeString(dir.resolve("app/tools/gated-signed/check.js"), String.join("\n",
                "export const gate = async ({ headers }) => {",
                "  await Promise.resolve();",
                "  if (headers['x-signature'] !== 'valid') throw new Error('bad signature');",
                "  return true;",
                "};",
                ""));
        RunningServer.writeTool(dir, "gated-odd", "description: 'A rule that answers in an unknown shape'\n"
                + "use: db\nstatement: SELECT 1 AS one\nauth:\n  plugin: script\n  policy: {path: ./odd.js}\n");
        Files.writeString(dir.resolve("app/tools/gated-odd/odd.js"), "export default () => ({ allowed: false });\n");
        RunningServer.writeTool(dir, "gated-open", "description: 'Open report'\nuse: db\nstatement: SELECT 1 AS one\n"
                + "auth:\n  plugin: allow_all\n");
        return RunningServer.start(dir, Map.of("GATE_TOKEN", "let-me-in"), s -> s);
    });
    static final RawHttp http = server.http();

    static JsonObject execute(String tool, String... headers) throws Exception {
        return new JsonObject(http.mcp(RawHttp.execute(1, tool, new JsonObject()), headers).body());
    }

    /**
     * Calls a tool the script refuses this caller. Search hides such a tool (filter_by_auth), so
     * the caller is told only that no such tool exists; the script's reason goes to the server log.
     *
     * @return the reason the log gives
     */
    static String denial(String tool, String... headers) throws Exception {
        LogCapture log = LogCapture.of(Pipeline.class);
        JsonObject response;
        try {
            response = execute(tool, headers);
        } finally {
            log.close();
        }
        assertEquals(new ToolError("tool not found: " + tool, -32601, "resolution", tool), ToolError.ofAnswer(response));
        return log.events().stream()
                .filter(e -> e.getKeyValuePairs() != null)
                .flatMap(e -> e.getKeyValuePairs().stream())
                .filter(kv -> kv.key.equals("reason"))
                .map(kv -> String.valueOf(kv.value))
                .findFirst().orElseThrow(() -> new AssertionError("no reason logged for " + tool));
    }

    @Test
    void aThrownErrorDeniesWithItsMessage() throws Exception {
        assertEquals("auth failed: missing or wrong X-Gate-Token", denial("gated-admin"));
        assertEquals("auth failed: missing or wrong X-Gate-Token",
                denial("gated-admin", "X-Gate-Token", "guess"));
    }

    @Test
    void theScriptSeesTheToolNameAndCanReturnFalse() throws Exception {
        assertEquals("auth failed: denied by the auth script",
                denial("gated-admin", "X-Gate-Token", "let-me-in"));
        assertEquals(42, rows(execute("gated-admin", "X-Gate-Token", "let-me-in", "X-Role", "admin"))
                .getJsonObject(0).getInteger("answer"));
    }

    @Test
    void returnedClaimsFilterRowsAsBoundValues() throws Exception {
        assertEquals(List.of(1, 3), ids(execute("gated-rows", "X-Gate-Token", "let-me-in", "X-Tenant", "acme")));
        assertEquals(List.of(2), ids(execute("gated-rows", "X-Gate-Token", "let-me-in", "X-Tenant", "globex")));
        assertEquals(List.of(), ids(execute("gated-rows", "X-Gate-Token", "let-me-in", "X-Tenant", "acme' OR '1'='1")));
        // allowed without an identity: the statement's claim is missing, so the call is refused; the
        // rule let the caller in (search shows the tool), so the refusal may say why
        assertEquals(new ToolError("auth failed: the caller's token has no 'tenant' claim", -32000, "auth", "gated-rows"),
                ToolError.ofAnswer(execute("gated-rows", "X-Gate-Token", "let-me-in")));
    }

    static List<Integer> ids(JsonObject response) {
        return rows(response).stream().map(r -> ((JsonObject) r).getInteger("id")).toList();
    }

    @Test
    void claimsReachTheToolsScripts() throws Exception {
        JsonObject me = rows(execute("gated-whoami", "X-Gate-Token", "let-me-in", "X-Tenant", "acme")).getJsonObject(0);
        assertEquals(new JsonObject().put("tool", "gated-whoami").put("subject", "user-acme").put("tenant", "acme"), me);
        JsonObject nobody = rows(execute("gated-whoami", "X-Gate-Token", "let-me-in")).getJsonObject(0);
        assertNull(nobody.getValue("subject"));
        assertNull(nobody.getValue("tenant"));
    }

    @Test
    void anAnswerInAnUnknownShapeDenies() throws Exception {
        assertEquals("auth failed: the auth script returned an unusable answer", denial("gated-odd"));
    }

    @Test
    void aToolsOwnAsyncScriptReplacesTheRootBlock() throws Exception {
        assertEquals("auth failed: bad signature", denial("gated-signed", "X-Gate-Token", "let-me-in"));
        assertEquals("signed", rows(execute("gated-signed", "X-Signature", "valid")).getJsonObject(0).getString("ok"));
    }

    @Test
    void searchShowsWhatTheScriptWouldAllowPerTool() throws Exception {
        assertEquals(List.of("gated-open"), SearchVisibilityTest.searchFor(http, "gated"));
        assertEquals(List.of("gated-open", "gated-rows", "gated-whoami"),
                SearchVisibilityTest.searchFor(http, "gated", "X-Gate-Token", "let-me-in"));
        assertEquals(List.of("gated-admin", "gated-open", "gated-rows", "gated-signed", "gated-whoami"),
                SearchVisibilityTest.searchFor(http, "gated", "X-Gate-Token", "let-me-in", "X-Role", "admin",
                        "X-Signature", "valid"));
    }
}
