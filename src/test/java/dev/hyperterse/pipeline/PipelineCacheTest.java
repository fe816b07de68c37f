package dev.hyperterse.pipeline;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.telemetry.LiveCalls;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Telemetry;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The result cache inside the pipeline, over a real SQLite database that counts what reaches it. */
class PipelineCacheTest {
    @TempDir
    Path dir;
    SqliteProject db;
    Vertx vertx;
    Connector sqlite;
    /** {@code sqlite}, counting the statements that reach it. */
    Connector counting;
    final AtomicInteger statements = new AtomicInteger();
    /** The options of each statement that reached the database. */
    final List<QueryOptions> executed = new java.util.concurrent.CopyOnWriteArrayList<>();
    Pipeline pipeline;
    /** How long the database takes to report a failed statement (a cancel's round trip), in ms. */
    volatile long failureDelay;

    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: cached\ntools:\n  cache:\n    enabled: true\n    ttl: 60\n");
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("schema.sql"),
                "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);\nINSERT INTO items VALUES (1, 'one'), (2, 'two');\n");
        Files.writeString(dir.resolve("app/adapters/db.terse"),
                "connector: sqlite\nconnection_string: 'sqlite:data/items.db'\noptions:\n  init_sql: schema.sql\n");
        tool("get-item", "use: db", "statement: SELECT id, name FROM items WHERE id = {{ inputs.id }}",
                "inputs:", "  id:", "    type: int");
        tool("slow-count", "use: db", "statement: WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c"
                + " WHERE x < {{ inputs.n }}) SELECT count(*) AS n FROM c", "inputs:", "  n:", "    type: int");
        tool("json-values", "use: db", "statement: SELECT value AS v FROM json_each({{ inputs.values }})",
                "inputs:", "  values:", "    type: array");
        tool("count-items", "use: db", "statement: SELECT count(*) AS n FROM items", "cache:", "  enabled: false");
        tool("rename-item", "use: db", "statement: UPDATE items SET name = {{ inputs.name }} WHERE id = {{ inputs.id }}",
                "inputs:", "  id:", "    type: int", "  name:", "    type: string", "cache:", "  enabled: false",
                "invalidates: [get-item]");

        db = new SqliteProject(dir);
        vertx = db.vertx;
        sqlite = db.sqlite;
        counting = new Connector() {
            @Override
            public String adapterName() {
                return sqlite.adapterName();
            }

            @Override
            public StatementDialect dialect() {
                return sqlite.dialect();
            }

            @Override
            public Future<Void> check(CompiledStatement statement) {
                return sqlite.check(statement);
            }

            @Override
            public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
                statements.incrementAndGet();
                executed.add(options);
                return sqlite.execute(statement, values, options).transform(ar -> {
                    if (ar.succeeded() || failureDelay == 0) {
                        return (Future<QueryResult>) ar;
                    }
                    io.vertx.core.Promise<QueryResult> late = io.vertx.core.Promise.promise();
                    vertx.setTimer(failureDelay, id -> late.fail(ar.cause()));
                    return late.future();
                });
            }

            @Override
            public Future<Void> close() {
                return sqlite.close();
            }
        };
        pipeline = db.pipeline(counting);
    }

    @AfterEach
    void tearDown() throws Exception {
        db.close();
    }

    @Test
    void concurrentIdenticalCallsReachTheDatabaseOnce() throws Exception {
        List<Future<ToolResult>> calls = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // the same value written two ways coerces to the same bound value, hence the same key
            Object id = i % 2 == 0 ? 1 : "1";
            calls.add(pipeline.execute("get-item", new JsonObject().put("id", id), CallContext.empty()));
        }
        for (Future<ToolResult> call : calls) {
            assertEquals("one", await(call).rows().getJsonObject(0).getString("name"));
        }
        assertEquals(1, statements.get());
        await(pipeline.execute("get-item", new JsonObject().put("id", 2), CallContext.empty()));
        assertEquals(2, statements.get());
    }

    @Test
    void theConsoleCountsEachCallOnceWithItsCacheLookup() throws Exception {
        List<String> passedOn = new java.util.concurrent.CopyOnWriteArrayList<>();
        Metrics beneath = new Metrics() {
            @Override
            public void toolCall(String tool, String outcome, long nanos) {
                passedOn.add("call " + tool + " " + outcome);
            }

            @Override
            public void cacheLookup(String tool, boolean hit) {
                passedOn.add("cache " + tool + " " + hit);
            }
        };
        LiveCalls live = new LiveCalls(beneath, java.time.Clock.systemUTC());
        Pipeline console = db.pipeline(counting, new Telemetry(Tracing.OFF, live));
        for (int i = 0; i < 3; i++) {
            await(console.execute("get-item", new JsonObject().put("id", 1), CallContext.empty()));
        }
        await(console.execute("count-items", new JsonObject(), CallContext.empty()));
        assertTrue(console.execute("get-item", new JsonObject().put("id", "one"), CallContext.empty())
                .toCompletionStage().toCompletableFuture().handle((r, e) -> e != null).get(), "not an int: fails");
        assertTrue(console.execute("no-such-tool", new JsonObject(), CallContext.empty())
                .toCompletionStage().toCompletableFuture().handle((r, e) -> e != null).get());

        JsonObject snapshot = live.snapshot();
        Map<String, JsonObject> tools = new java.util.HashMap<>();
        snapshot.getJsonArray("tools").forEach(row -> tools.put(((JsonObject) row).getString("tool"), (JsonObject) row));
        JsonObject item = tools.get("get-item");
        assertEquals(4, item.getInteger("calls"), item.encode());
        assertEquals(1, item.getInteger("errors"), item.encode());
        assertEquals(2, item.getInteger("cache_hits"), item.encode());
        assertEquals(1, item.getInteger("cache_misses"), item.encode());
        JsonObject count = tools.get("count-items");
        assertEquals(1, count.getInteger("calls"), count.encode());
        assertEquals(0, count.getInteger("cache_hits") + count.getInteger("cache_misses"), "its cache is off");
        assertEquals(1, tools.get("unknown").getInteger("calls"));
        assertEquals(3, tools.size(), snapshot.encode());
        JsonArray recent = snapshot.getJsonArray("recent");
        assertEquals(6, recent.size(), recent.encode());
        assertEquals("{\"id\":1}", recent.getJsonObject(5).getString("inputs"), recent.encode());
        assertEquals("input_validation", recent.getJsonObject(1).getString("outcome"), recent.encode());
        assertEquals(2, statements.get(), "get-item's miss and count-items: the other two were hits");
        // the metrics beneath (Prometheus) are told every call and lookup, once
        assertEquals(List.of("cache get-item false", "call get-item ok", "cache get-item true", "call get-item ok",
                "cache get-item true", "call get-item ok", "call count-items ok", "call get-item input_validation",
                "call unknown resolution"), passedOn);
    }

    @Test
    void aToolCanTurnTheCacheOff() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals(2, await(pipeline.execute("count-items", new JsonObject(), CallContext.empty()))
                    .rows().getJsonObject(0).getInteger("n"));
        }
        assertEquals(3, statements.get());
    }

    @Test
    void aWriteToolInvalidatesTheToolsItAffects() throws Exception {
        assertEquals("one", name(1));
        assertEquals("one", name(1));
        assertEquals(1, statements.get());
        JsonArray written = await(pipeline.execute("rename-item",
                new JsonObject().put("id", 1).put("name", "uno"), CallContext.empty())).rows();
        assertEquals(1, written.getJsonObject(0).getInteger("rows_affected"));
        assertEquals("uno", name(1), "the cached 'one' was dropped by the write");
        assertEquals(3, statements.get());
    }

    /**
     * A caller who cancels its call stops only its own call: another caller whose identical call
     * joined the same database load still gets the rows.
     */
    @Test
    void oneCallersCancellationDoesNotFailAnotherCallersSharedLoad() throws Exception {
        io.vertx.core.Promise<Void> cancelA = io.vertx.core.Promise.promise();
        JsonObject inputs = new JsonObject().put("n", 5_000_000);
        Future<ToolResult> a = pipeline.execute("slow-count", inputs, new CallContext(Map.of(), null, cancelA.future()));
        Future<ToolResult> b = pipeline.execute("slow-count", inputs, CallContext.empty());
        Thread.sleep(200);
        cancelA.complete();
        Throwable cancelled = a.toCompletionStage().toCompletableFuture().handle((r, e) -> e).get(20, TimeUnit.SECONDS);
        assertEquals("execution failed: statement cancelled", cancelled == null ? null : cancelled.getMessage());
        assertEquals(5_000_000L, ((Number) await(b).rows().getJsonObject(0).getValue("n")).longValue(),
                "the caller that did not cancel gets its rows");
    }

    @Test
    void aSharedLoadIsCancelledOnceEveryCallWaitingOnItIs() throws Exception {
        JsonObject inputs = new JsonObject().put("n", 50_000_000);
        io.vertx.core.Promise<Void> cancelA = io.vertx.core.Promise.promise();
        io.vertx.core.Promise<Void> cancelB = io.vertx.core.Promise.promise();
        Future<ToolResult> a = pipeline.execute("slow-count", inputs, new CallContext(Map.of(), null, cancelA.future()));
        Future<ToolResult> b = pipeline.execute("slow-count", inputs, new CallContext(Map.of(), null, cancelB.future()));
        long waited = System.nanoTime();
        while (executed.isEmpty() && System.nanoTime() - waited < TimeUnit.SECONDS.toNanos(10)) {
            Thread.sleep(10);
        }
        assertEquals(1, executed.size(), "one load for both calls");
        Future<Void> loadCancelled = executed.get(0).cancellation();
        cancelA.complete();
        Thread.sleep(100);
        assertFalse(loadCancelled.isComplete(), "another call still waits on the statement");
        cancelB.complete();
        loadCancelled.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        for (Future<ToolResult> call : List.of(a, b)) {
            Throwable e = call.toCompletionStage().toCompletableFuture().handle((r, x) -> x).get(20, TimeUnit.SECONDS);
            assertEquals("execution failed: statement cancelled", e == null ? null : e.getMessage());
        }
    }

    /**
     * A call that arrives after every caller of a load has cancelled it, but before the database
     * has reported the cancel (the cache still holds the load), gets rows: it did not cancel.
     */
    @Test
    void aCallJoiningALoadItsCallersJustGaveUpGetsRows() throws Exception {
        failureDelay = 300;
        JsonObject inputs = new JsonObject().put("n", 3_000_000);
        io.vertx.core.Promise<Void> cancelA = io.vertx.core.Promise.promise();
        Future<ToolResult> a = pipeline.execute("slow-count", inputs, new CallContext(Map.of(), null, cancelA.future()));
        long waited = System.nanoTime();
        while (executed.isEmpty() && System.nanoTime() - waited < TimeUnit.SECONDS.toNanos(10)) {
            Thread.sleep(10);
        }
        cancelA.complete();
        assertTrue(executed.get(0).cancellation().isComplete(), "the load's only caller cancelled it");
        Future<ToolResult> late = pipeline.execute("slow-count", inputs, CallContext.empty());
        Throwable cancelled = a.toCompletionStage().toCompletableFuture().handle((r, e) -> e).get(20, TimeUnit.SECONDS);
        assertEquals("execution failed: statement cancelled", cancelled == null ? null : cancelled.getMessage());
        assertEquals(3_000_000L, ((Number) await(late).rows().getJsonObject(0).getValue("n")).longValue());
        assertEquals(2, statements.get(), "the cancelled load, then one for the late call");
    }

    /**
     * Inputs that differ are different entries, also when Vert.x's JSON equality calls them
     * equal: 9007199254740993 and 9007199254740992.0 are the same double, not the same value.
     */
    @Test
    void jsonInputsThatDifferOnlyInNumberFormAreDifferentEntries() throws Exception {
        JsonArray exact = await(pipeline.execute("json-values",
                new JsonObject().put("values", new JsonArray("[9007199254740993]")), CallContext.empty())).rows();
        assertEquals("[{\"v\":9007199254740993}]", exact.encode());
        JsonArray other = await(pipeline.execute("json-values",
                new JsonObject().put("values", new JsonArray("[9007199254740992.0]")), CallContext.empty())).rows();
        assertEquals("[{\"v\":9.007199254740992E15}]", other.encode(), "not the first caller's rows");
        assertEquals(2, statements.get());
    }

    private String name(int id) throws Exception {
        return await(pipeline.execute("get-item", new JsonObject().put("id", id), CallContext.empty()))
                .rows().getJsonObject(0).getString("name");
    }

    private void tool(String name, String... lines) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("app/tools/" + name));
        Files.writeString(folder.resolve("config.terse"), String.join("\n", lines) + "\n");
    }

    private static <T> T await(Future<T> f) throws Exception {
        return SqliteProject.await(f);
    }
}
