package dev.hyperterse.server;

import dev.hyperterse.model.ToolErrorMode;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.ToolError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** search shows a caller only the tools its credentials may execute, unless switched off. */
class SearchVisibilityTest {
    @TempDir
    Path dir;

    void project(boolean filter) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: visible\ntools:\n  search:\n    filter_by_auth: " + filter + "\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "report-public", "description: 'Public report'\nuse: db\nstatement: SELECT 1 AS one\n");
        RunningServer.writeTool(dir, "report-salaries", "description: 'Salary report'\nuse: db\n"
                + "statement: SELECT 2 AS two\nauth:\n  plugin: api_key\n  policy:\n    value: '{{ env.HR_KEY }}'\n");
    }

    static List<String> search(RawHttp http, String... headers) throws Exception {
        return searchFor(http, "report", headers);
    }

    static List<String> searchFor(RawHttp http, String query, String... headers) throws Exception {
        JsonObject call = RawHttp.request(1, "tools/call", new JsonObject().put("name", "search")
                .put("arguments", new JsonObject().put("query", query)));
        JsonObject body = new JsonObject(http.mcp(call, headers).body());
        JsonArray hits = new JsonArray(body.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
        return hits.stream().map(h -> ((JsonObject) h).getString("name")).sorted().toList();
    }

    /** {@code tools.search.statements: false} keeps the SQL out of the hits; ranking and execute are unchanged. */
    @Test
    void statementsAreShownUnlessTheOperatorKeepsThemFromAgents() throws Exception {
        for (boolean shown : new boolean[] {true, false}) {
            Files.writeString(dir.resolve(".hyperterse"), "name: visible\ntools:\n  search:\n    statements: "
                    + shown + "\n");
            ProjectFiles.sqliteMemoryDb(dir);
            RunningServer.writeTool(dir, "report-public", "description: 'Public report'\nuse: db\n"
                    + "statement: SELECT 1 AS one\n");
            try (RunningServer server = RunningServer.start(dir)) {
                RawHttp http = new RawHttp(server.baseUrl());
                JsonObject call = RawHttp.request(1, "tools/call", new JsonObject().put("name", "search")
                        .put("arguments", new JsonObject().put("query", "public report")));
                String text = new JsonObject(http.mcp(call).body()).getJsonObject("result").getJsonArray("content")
                        .getJsonObject(0).getString("text");
                JsonObject hit = new JsonArray(text).getJsonObject(0);
                assertEquals("report-public", hit.getString("name"));
                assertEquals(shown, hit.containsKey("statement"), hit.encode());
                assertEquals(shown, text.contains("SELECT 1"), text);
                assertTrue(http.mcp(RawHttp.execute(2, "report-public", new JsonObject())).body().contains("\\\"one\\\":1"));
            }
        }
    }

    @Test
    void callersSeeOnlyWhatTheyMayRun() throws Exception {
        project(true);
        try (RunningServer server = RunningServer.start(dir, Map.of("HR_KEY", "hr-secret"), s -> s)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(List.of("report-public"), search(http));
            assertEquals(List.of("report-public"), search(http, "X-API-Key", "wrong"));
            assertEquals(List.of("report-public", "report-salaries"), search(http, "X-API-Key", "hr-secret"));
        }
    }

    @Test
    void executeAnswersAToolTheCallerMayNotSeeLikeAMissingOne() throws Exception {
        project(true);
        for (ToolErrorMode mode : ToolErrorMode.values()) {
            try (RunningServer server = RunningServer.start(dir, Map.of("HR_KEY", "hr-secret"), s -> s.toolErrors(mode))) {
                RawHttp http = new RawHttp(server.baseUrl());
                for (String[] caller : List.of(new String[0], new String[] {"X-API-Key", "wrong"})) {
                    HttpResponse<String> hidden = http.mcp(RawHttp.execute(1, "report-salaries", new JsonObject()), caller);
                    HttpResponse<String> missing = http.mcp(RawHttp.execute(1, "report-salarie5", new JsonObject()), caller);
                    assertEquals(missing.statusCode(), hidden.statusCode());
                    // the same answer, down to the shape of its stage and tool, but for the name the caller wrote
                    assertEquals(missing.body().replace("report-salarie5", "NAME"),
                            hidden.body().replace("report-salaries", "NAME"), mode.name());
                    JsonObject answer = new JsonObject(hidden.body());
                    if (mode == ToolErrorMode.RESULT) {
                        assertEquals(new ToolError("tool not found: report-salaries", -32601, "resolution",
                                "report-salaries"), ToolError.ofAnswer(answer));
                    } else {
                        assertEquals(-32601, answer.getJsonObject("error").getInteger("code"));
                        assertEquals("tool not found: report-salaries", answer.getJsonObject("error").getString("message"));
                    }
                }
                JsonObject allowed = new JsonObject(http.mcp(RawHttp.execute(1, "report-salaries", new JsonObject()),
                        "X-API-Key", "hr-secret").body());
                assertEquals("[{\"two\":2}]",
                        allowed.getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"));
            }
        }
    }

    @Test
    void theFilterCanBeSwitchedOff() throws Exception {
        project(false);
        try (RunningServer server = RunningServer.start(dir, Map.of("HR_KEY", "hr-secret"), s -> s)) {
            RawHttp http = new RawHttp(server.baseUrl());
            assertEquals(List.of("report-public", "report-salaries"), search(http));
            // every caller sees the tool in search, so execute may say why it refused
            ToolError error = ToolError.ofAnswer(new JsonObject(http.mcp(RawHttp.execute(1, "report-salaries",
                    new JsonObject())).body()));
            assertEquals(-32000, error.code());
            assertEquals("auth", error.stage());
            assertTrue(error.message().startsWith("auth failed"), error::toString);
        }
    }
}
