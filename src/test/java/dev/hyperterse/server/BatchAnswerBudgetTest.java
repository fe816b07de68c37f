package dev.hyperterse.server;

import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 2025-03-26 batch's answers together hold at most the project's {@code tools.result_max_bytes}
 * (64kb here): once they reach it, each later answer is an error naming the limit, and entries not
 * yet started do not run. A hundred calls answering 4 MB each were built into one 400 MB answer,
 * past the heap of the recommended flags.
 */
class BatchAnswerBudgetTest {
    private static final int BUDGET = 64 * 1024;
    /** About 10 KB of answer per call (its row as text): the seventh answer reaches 64kb. */
    private static final String PAYLOAD = "x".repeat(10_000);
    private static final int ENTRIES = 30;

    @RegisterExtension
    static final TestServer server = TestServer.of(scratch -> {
        Path project = RunningServer.copyExample("quickstart", scratch);
        Path root = project.resolve(".hyperterse");
        Files.writeString(root, Files.readString(root).replace("tools:\n", "tools:\n  result_max_bytes: 64kb\n"));
        Path schema = project.resolve("db/schema.sql");
        Files.writeString(schema, Files.readString(schema) + "\nCREATE TABLE calls (s TEXT NOT NULL);\n");
        RunningServer.writeTool(project, "record", "description: 'Record a string and return it'\n"
                + "use: shop\nstatement: INSERT INTO calls (s) VALUES ({{ inputs.s }}) RETURNING s\n"
                + "inputs:\n  s: { type: string }\n");
        RunningServer.writeTool(project, "count-calls", "description: 'How many strings were recorded'\n"
                + "use: shop\nstatement: SELECT count(*) AS n FROM calls\n");
        return RunningServer.start(project);
    });
    static final RawHttp http = server.http();

    @Test
    void aBatchsAnswersStopAtTheBudgetAndLaterEntriesDoNotRun() throws Exception {
        String sid = http.session("2025-03-26");
        JsonArray batch = new JsonArray();
        for (int id = 1; id <= ENTRIES; id++) {
            batch.add(RawHttp.execute(id, "record", new JsonObject().put("s", PAYLOAD)));
        }
        HttpResponse<String> r = http.post("/mcp", batch.encode(), "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", sid);
        assertEquals(200, r.statusCode(), r.body());
        JsonArray answers = new JsonArray(r.body());
        assertEquals(ENTRIES, answers.size(), "every entry is answered");
        List<JsonObject> results = new ArrayList<>();
        List<Integer> refused = new ArrayList<>();
        for (Object a : answers) {
            JsonObject answer = (JsonObject) a;
            if (answer.containsKey("result")) {
                assertEquals(PAYLOAD, RawHttp.rows(answer).getJsonObject(0).getString("s"));
                results.add(answer);
            } else {
                JsonObject error = answer.getJsonObject("error");
                assertEquals(-32000, error.getInteger("code"));
                assertEquals("Batch answer limit: the answers before this one in the batch already hold 64kb of JSON,"
                        + " the most one batch's answers may (tools.result_max_bytes); send this request on its own"
                        + " or in a later batch", error.getString("message"));
                refused.add(answer.getInteger("id"));
            }
        }
        // answers are counted as they come, so the one that reaches the budget is still sent
        int answerSize = results.get(0).encode().length();
        int fit = (BUDGET + answerSize - 1) / answerSize;
        assertTrue(BUDGET % answerSize > answerSize / 10 && BUDGET % answerSize < answerSize * 9 / 10,
                "the budget falls well inside an answer (" + answerSize + " bytes each), so the count is exact");
        assertEquals(fit, results.size(), r.body().length() + " bytes answered");
        assertTrue(r.body().length() < BUDGET + 2 * answerSize, "the answer stays near the budget");
        // entries past the budget are refused before they start: at most the few running at once ran besides
        long ran = RawHttp.rows(http.call("count-calls", new JsonObject(), "Mcp-Session-Id", sid))
                .getJsonObject(0).getLong("n");
        assertTrue(ran >= fit && ran <= fit + 3, ran + " entries ran");
        assertEquals(ENTRIES - fit, refused.size());

        // a batch within the budget is answered whole, and the next batch starts afresh
        JsonArray small = new JsonArray().add(RawHttp.execute(1, "record", new JsonObject().put("s", "a")))
                .add(RawHttp.request(2, "ping", null));
        JsonArray answered = new JsonArray(http.post("/mcp", small.encode(), "Content-Type", "application/json",
                "Accept", RawHttp.ACCEPT_BOTH, "Mcp-Session-Id", sid).body());
        assertEquals(2, answered.size());
        for (Object a : answered) {
            assertTrue(((JsonObject) a).containsKey("result"), answered::encode);
        }
    }
}
