package dev.hyperterse.server;

import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SseStream;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handler's {@code ctx}, through the MCP Java SDK client: logs and progress arrive as
 * notifications, {@code ctx.elicit} and {@code ctx.sample} round-trip with a client that declared
 * the capability and fail clearly with one that did not, {@code ctx.readResource} reads the
 * project's own resources; and a 2026-07-28 call gets the logs and progress on its own stream.
 */
class HandlerContextTest {
    @TempDir
    static Path scratch;
    static RunningServer server;
    static McpSyncClient asking;
    static McpSyncClient plain;
    static final List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
    static final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    static final List<McpSchema.ElicitRequest> elicited = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Path dir = scratch.resolve("project");
        HandlerResultsTest.write(dir, ".hyperterse", "name: handler-context\ntools:\n  exposure: both\n");
        HandlerResultsTest.write(dir, "app/resources/notes/config.terse", "uri: docs://notes\ntext: 'The notes.'\n");
        HandlerResultsTest.handler(dir, "narrate", "", "export default ({ ctx }: any) => {\n"
                + "  ctx.log('info', 'starting');\n  ctx.log('debug', 'detail');\n"
                + "  ctx.log('warning', 'with data', { step: 1 });\n  return 'ok';\n};\n");
        HandlerResultsTest.handler(dir, "steps", "", "export default ({ ctx }: any) => {\n"
                + "  for (let i = 1; i <= 3; i++) ctx.progress(i, 3, 'step ' + i);\n  return 'done';\n};\n");
        HandlerResultsTest.handler(dir, "ask-city", "timeout: 20s\n", "export default async ({ ctx }: any) => {\n"
                + "  const r = await ctx.elicit('Which city?', { type: 'object', properties: { city: { type: 'string' } },"
                + " required: ['city'] });\n  return r.action === 'accept' ? r.content.city : 'declined';\n};\n");
        HandlerResultsTest.handler(dir, "summarize", "timeout: 20s\n", "export default async ({ ctx }: any) => {\n"
                + "  const r = await ctx.sample('Summarize: a b c', { maxTokens: 50 });\n  return r.content.text;\n};\n");
        HandlerResultsTest.handler(dir, "read-notes", "", "export default async ({ ctx }: any) => {\n"
                + "  const r = await ctx.readResource('docs://notes');\n  let missing = '';\n"
                + "  try { await ctx.readResource('docs://missing'); } catch (e) { missing = String(e.message); }\n"
                + "  return { text: r.contents[0].text, missing };\n};\n");
        HandlerResultsTest.handler(dir, "plan-trip", "timeout: 20s\nconfirm: true\n",
                "export default async ({ ctx }: any) => {\n"
                + "  const city = await ctx.elicit('Which city?', { type: 'object', properties: { city: { type: 'string' } } });\n"
                + "  const idea = await ctx.sample('Plan a day in ' + city.content.city);\n"
                + "  return city.content.city + ': ' + idea.content.text;\n};\n");
        HandlerResultsTest.handler(dir, "bad-level", "", "export default ({ ctx }: any) => ctx.log('loud', 'x');\n");
        server = RunningServer.start(dir);
        asking = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(30), spec -> spec
                .loggingConsumer(logs::add)
                .progressConsumer(progress::add)
                .capabilities(McpSchema.ClientCapabilities.builder().sampling().elicitation().build())
                .sampling(request -> McpSchema.CreateMessageResult.builder().role(McpSchema.Role.ASSISTANT)
                        .content(new McpSchema.TextContent("summary of " + ((McpSchema.TextContent) request.messages()
                                .get(0).content()).text() + " in " + request.maxTokens() + " tokens"))
                        .model("junit-model").build())
                .elicitation(request -> {
                    elicited.add(request);
                    return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("city", "Paris"));
                }));
        plain = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() throws Exception {
        McpSdk.close(asking);
        McpSdk.close(plain);
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void clear() {
        logs.clear();
        progress.clear();
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    void logsReachTheClientAtItsLevelNamedByTheTool() {
        asking.setLoggingLevel(McpSchema.LoggingLevel.INFO);
        McpSdk.call(asking, "narrate", Map.of());
        McpSdkClientTest.awaitCount(logs, 2);
        List<McpSchema.LoggingMessageNotification> mine = logs.stream().filter(l -> "narrate".equals(l.logger())).toList();
        // the SDK reads string data only: the line with a data object is checked on the raw stream below
        assertEquals(1, mine.size(), logs.toString());
        assertEquals(McpSchema.LoggingLevel.INFO, mine.get(0).level());
        assertEquals("starting", mine.get(0).data());
        asking.setLoggingLevel(McpSchema.LoggingLevel.EMERGENCY);
    }

    @Test
    void progressArrivesOnlyForACallerWhoAskedForIt() {
        McpSchema.CallToolResult done = asking.callTool(McpSchema.CallToolRequest.builder().name("steps")
                .arguments(Map.of()).progressToken("steps-1").build());
        assertEquals("[{\"value\":\"done\"}]", text(done));
        McpSdkClientTest.awaitCount(progress, 3);
        // the SDK hands notifications to its consumer on several threads: their order here is its own
        List<McpSchema.ProgressNotification> seen = progress.stream()
                .sorted(java.util.Comparator.comparingDouble(McpSchema.ProgressNotification::progress)).toList();
        assertEquals(List.of(1.0, 2.0, 3.0), seen.stream().map(McpSchema.ProgressNotification::progress).toList());
        assertEquals("step 3", seen.get(2).message());
        assertEquals(3.0, seen.get(2).total());
        progress.clear();
        McpSdk.call(asking, "steps", Map.of());
        assertEquals(List.of(), progress);
    }

    @Test
    void elicitAsksTheUserAndTheHandlerGetsTheAnswer() {
        assertEquals("[{\"value\":\"Paris\"}]", text(McpSdk.call(asking, "ask-city", Map.of())));
        assertEquals("Which city?", elicited.get(elicited.size() - 1).message());
    }

    @Test
    void sampleAsksTheClientsModel() {
        assertEquals("[{\"value\":\"summary of Summarize: a b c in 50 tokens\"}]",
                text(McpSdk.call(asking, "summarize", Map.of())));
    }

    @Test
    void aClientWithoutTheCapabilityIsNotAskedAndTheHandlerHearsWhy() {
        String elicit = McpSdk.failure(plain, "ask-city", Map.of()).message();
        assertTrue(elicit.contains("ctx.elicit: ") && elicit.contains("elicitation"), elicit);
        String sample = McpSdk.failure(plain, "summarize", Map.of()).message();
        assertTrue(sample.contains("ctx.sample: ") && sample.contains("sampling"), sample);
    }

    @Test
    void readResourceReadsTheProjectsOwnResources() {
        JsonObject row = new JsonObject(text(McpSdk.call(plain, "read-notes", Map.of())).replaceAll("^\\[|\\]$", ""));
        assertEquals("The notes.", row.getString("text"));
        assertTrue(row.getString("missing").startsWith("ctx.readResource: "), row.encode());
    }

    @Test
    void aLevelThatIsNoLogLevelIsTheHandlersError() {
        String message = McpSdk.failure(plain, "bad-level", Map.of()).message();
        assertTrue(message.contains("ctx.log: level must be one of debug, info"), message);
    }

    private static JsonObject statelessResult(RawHttp http, JsonObject message) throws Exception {
        java.net.http.HttpResponse<String> r = http.mcp(message, McpStatelessTest.headers(message));
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body()).getJsonObject("result");
    }

    private static JsonObject retried(JsonObject first, String key, JsonObject answer, String state) {
        JsonObject again = first.copy();
        again.getJsonObject("params").put("inputResponses", new JsonObject().put(key, answer)).put("requestState", state);
        return again;
    }

    @Test
    void aStatelessCallAsksInInputRoundsAndRunsAgainWithTheAnswers() throws Exception {
        RawHttp http = new RawHttp(server.baseUrl());
        JsonObject capabilities = new JsonObject().put("elicitation", new JsonObject()).put("sampling", new JsonObject());
        JsonObject first = McpStatelessTest.call(31, "plan-trip", new JsonObject(), capabilities);
        // the tool is marked confirm: true, so the first round is the confirmation
        JsonObject confirm = statelessResult(http, first);
        assertEquals("input_required", confirm.getString("resultType"), confirm.encode());
        JsonObject accepted = new JsonObject().put("action", "accept").put("content", new JsonObject().put("confirm", true));
        JsonObject round1 = statelessResult(http, retried(first, "confirm", accepted, confirm.getString("requestState")));
        assertEquals("input_required", round1.getString("resultType"), round1.encode());
        JsonObject elicit = round1.getJsonObject("inputRequests").getJsonObject("ask-1");
        assertEquals("elicitation/create", elicit.getString("method"));
        assertEquals("Which city?", elicit.getJsonObject("params").getString("message"));

        JsonObject rome = new JsonObject().put("action", "accept").put("content", new JsonObject().put("city", "Rome"));
        JsonObject round2 = statelessResult(http, retried(first, "ask-1", rome, round1.getString("requestState")));
        assertEquals("input_required", round2.getString("resultType"), round2.encode());
        JsonObject sample = round2.getJsonObject("inputRequests").getJsonObject("ask-2");
        assertEquals("sampling/createMessage", sample.getString("method"));
        assertEquals(1024, sample.getJsonObject("params").getInteger("maxTokens"));

        JsonObject idea = new JsonObject().put("role", "assistant").put("model", "m")
                .put("content", new JsonObject().put("type", "text").put("text", "see the Forum"));
        JsonObject round3 = retried(first, "ask-2", idea, round2.getString("requestState"));
        JsonObject done = statelessResult(http, round3);
        assertEquals("complete", done.getString("resultType"), done.encode());
        assertEquals("[{\"value\":\"Rome: see the Forum\"}]",
                done.getJsonArray("content").getJsonObject(0).getString("text"));

        // the last round's state carries the confirmation once: sent again, the user is asked again
        JsonObject replay = statelessResult(http, round3);
        assertEquals("input_required", replay.getString("resultType"), replay.encode());
        assertTrue(replay.getJsonObject("inputRequests").containsKey("confirm"), replay.encode());
    }

    @Test
    void aStatelessRoundWhoseStateWasAlteredIsRefusedNotAskedAgain() throws Exception {
        RawHttp http = new RawHttp(server.baseUrl());
        JsonObject first = McpStatelessTest.call(41, "ask-city", new JsonObject(),
                new JsonObject().put("elicitation", new JsonObject()));
        JsonObject round = statelessResult(http, first);
        assertEquals("input_required", round.getString("resultType"), round.encode());
        String state = round.getString("requestState");
        String altered = (state.charAt(0) == 'A' ? 'B' : 'A') + state.substring(1);
        JsonObject paris = new JsonObject().put("action", "accept").put("content", new JsonObject().put("city", "Paris"));
        for (String bad : List.of(altered, "not-a-state", state + "x")) {
            JsonObject message = retried(first, "ask-1", paris, bad);
            java.net.http.HttpResponse<String> r = http.mcp(message, McpStatelessTest.headers(message));
            JsonObject error = new JsonObject(r.body()).getJsonObject("error");
            assertEquals(-32602, error.getInteger("code"), r.body());
            assertTrue(error.getString("message").contains("requestState failed its integrity check"), r.body());
        }
        JsonObject done = statelessResult(http, retried(first, "ask-1", paris, state));
        assertEquals("complete", done.getString("resultType"), done.encode());
    }

    @Test
    void aStatelessClientThatCannotBeAskedHearsWhy() throws Exception {
        RawHttp http = new RawHttp(server.baseUrl());
        JsonObject result = statelessResult(http, McpStatelessTest.call(32, "ask-city", new JsonObject(), new JsonObject()));
        assertEquals(Boolean.TRUE, result.getBoolean("isError"), result.encode());
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertTrue(text.contains("ctx.elicit: the client did not declare the elicitation capability"), text);
    }

    @Test
    void aStatelessCallGetsLogsAndProgressOnItsOwnStream() throws Exception {
        RawHttp http = new RawHttp(server.baseUrl());
        JsonObject meta = McpStatelessTest.meta(new JsonObject()).put("progressToken", "p-9")
                .put("io.modelcontextprotocol/logLevel", "info");
        JsonObject message = McpStatelessTest.request(9, "tools/call", new JsonObject().put("name", "steps")
                .put("arguments", new JsonObject()).put("_meta", meta));
        List<JsonObject> frames = new ArrayList<>();
        try (SseStream stream = http.mcpStream(message, McpStatelessTest.headers(message))) {
            for (SseStream.Event e : stream.rest(Duration.ofSeconds(10))) {
                if (e.data() != null && !e.data().isEmpty()) {
                    frames.add(e.json());
                }
            }
        }
        List<Object> steps = frames.stream().filter(f -> "notifications/progress".equals(f.getString("method")))
                .map(f -> f.getJsonObject("params").getValue("progress")).toList();
        assertEquals(3, steps.size(), frames.toString());
        JsonObject last = frames.get(frames.size() - 1);
        assertEquals(9, last.getInteger("id"), frames.toString());

        JsonObject logged = McpStatelessTest.request(10, "tools/call", new JsonObject().put("name", "narrate")
                .put("arguments", new JsonObject()).put("_meta", McpStatelessTest.meta(new JsonObject())
                        .put("io.modelcontextprotocol/logLevel", "warning")));
        frames.clear();
        try (SseStream stream = http.mcpStream(logged, McpStatelessTest.headers(logged))) {
            for (SseStream.Event e : stream.rest(Duration.ofSeconds(10))) {
                if (e.data() != null && !e.data().isEmpty()) {
                    frames.add(e.json());
                }
            }
        }
        List<JsonObject> lines = frames.stream().filter(f -> "notifications/message".equals(f.getString("method")))
                .map(f -> f.getJsonObject("params")).toList();
        assertEquals(List.of(new JsonObject().put("level", "warning").put("logger", "narrate").put("data",
                new JsonObject().put("message", "with data").put("data", new JsonObject().put("step", 1)))), lines);
        last = frames.get(frames.size() - 1);
        assertEquals(10, last.getInteger("id"), frames.toString());
        assertEquals("complete", last.getJsonObject("result").getString("resultType"));
    }
}
