package dev.hyperterse.server;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.connector.sqlite.SqliteConnectorFactory;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.TestDatabases;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code server.instances}: several HTTP listeners on one port, each on its own event loop with
 * its own share of an adapter's pool. A request's statement runs on the pool of the loop the
 * request arrived on, the pools together hold no more than {@code max_connections}, and reload
 * and shutdown work across every listener.
 */
class ListenerInstancesTest {
    static final String TOOL = "description: 'Where it ran'\nuse: looped\nstatement: SELECT {{ inputs.ms }}\n"
            + "inputs:\n  ms:\n    type: int\n";

    @TempDir
    Path scratch;

    /** Four event loops, whatever the machine's cores, so three listeners get three loops. */
    private static VertxOptions fourLoops() {
        return new VertxOptions().setEventLoopPoolSize(4).setMaxEventLoopExecuteTime(2)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS);
    }

    private Path project(int maxConnections) throws IOException {
        Path project = RunningServer.copyExample("quickstart", scratch);
        Files.writeString(project.resolve("app/adapters/looped.terse"), "connector: looped\n"
                + "connection_string: 'looped://'\noptions:\n  max_connections: " + maxConnections + "\n");
        RunningServer.writeTool(project, "where", TOOL);
        return project;
    }

    private static RunningServer start(Path project, Pools pools, int instances, ServeOptions options)
            throws Exception {
        return RunningServer.start(project, Map.of(), new Connectors(List.of(new SqliteConnectorFactory(), pools)),
                s -> s.network(n -> n.instances(instances)), options, fourLoops());
    }

    @Test
    void eachRequestRunsOnThePoolOfItsOwnEventLoopAndThePoolsSplitMaxConnections() throws Exception {
        Pools pools = new Pools();
        try (RunningServer server = start(project(5), pools, 3, ServeOptions.DEFAULTS)) {
            assertEquals(3, server.server().listeners());
            assertEquals(3, pools.opened.size(), "one pool per listener's loop: " + pools.opened);
            assertEquals(List.of(1, 2, 2), sizes(pools.opened),
                    "max_connections 5 split over three pools, never multiplied");
            assertEquals(3, pools.opened.stream().map(p -> p.loop).distinct().count(),
                    "each pool was opened on a loop of its own");
            assertTrue(pools.opened.stream().allMatch(p -> p.loop.getName().startsWith("vert.x-eventloop-thread")));

            // each new connection goes to the next listener in turn: twelve connections reach all three
            Set<String> servedOn = new HashSet<>();
            for (int i = 0; i < 12; i++) {
                HttpResponse<String> r = new RawHttp(server.baseUrl()).mcp(call("where", 0));
                assertEquals(200, r.statusCode(), r.body());
                servedOn.add(row(r).getString("thread"));
            }
            assertEquals(3, servedOn.size(), "the calls arrived on all three listeners: " + servedOn);
            assertEquals(pools.opened.stream().map(p -> p.loop.getName()).collect(Collectors.toSet()),
                    servedOn, "and ran on the pools of those loops");
            assertEquals(0, pools.crossed.get(), "no statement ran on a pool of another event loop");
            assertTrue(pools.opened.stream().allMatch(p -> p.executed.get() > 0), "every pool served calls");
        }
    }

    @Test
    void fewerConnectionsThanListenersMeansFewerPoolsNeverMore() throws Exception {
        Pools pools = new Pools();
        try (RunningServer server = start(project(2), pools, 3, ServeOptions.DEFAULTS)) {
            assertEquals(List.of(1, 1), sizes(pools.opened));
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> r = new RawHttp(server.baseUrl()).mcp(call("where", 0));
                assertEquals(200, r.statusCode(), r.body());
            }
            assertEquals(6, pools.opened.stream().mapToInt(p -> p.executed.get()).sum());
        }
    }

    @Test
    void oneListenerKeepsOnePoolOfEveryConnection() throws Exception {
        Pools pools = new Pools();
        try (RunningServer server = start(project(5), pools, 1, ServeOptions.DEFAULTS)) {
            assertEquals(1, server.server().listeners());
            assertEquals(List.of(5), pools.opened.stream().map(p -> p.size).toList());
            assertEquals(200, new RawHttp(server.baseUrl()).mcp(call("where", 0)).statusCode());
            assertEquals(0, pools.crossed.get());
        }
    }

    @Test
    void reloadReplacesEveryListenersPoolAndShutdownDrainsThemAll() throws Exception {
        Pools pools = new Pools();
        Path project = project(6);
        ServeOptions reloads = ServeOptions.DEFAULTS.withReloads(RunningServer.recompile(project, Map.of(),
                new Connectors(List.of(new SqliteConnectorFactory(), pools))), null);
        RunningServer server = start(project, pools, 3, reloads);
        Vertx vertx = server.server().vertx();
        try {
            assertEquals(3, pools.opened.size());
            RunningServer.writeTool(project, "where", TOOL.replace("Where it ran", "Where it ran, again"));
            server.server().reload().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertEquals("Where it ran, again", server.server().project().tools().get("where").description());
            assertEquals(6, pools.opened.size(), "the new version opened a pool on each loop");
            ReloadTest.await(() -> pools.opened.subList(0, 3).stream().allMatch(p -> p.closed),
                    "the old version's pools are closed once idle");
            List<Pool> current = List.copyOf(pools.opened.subList(3, 6));
            assertEquals(List.of(2, 2, 2), sizes(current));
            assertEquals(pools.opened.subList(0, 3).stream().map(p -> p.loop).collect(Collectors.toSet()),
                    current.stream().map(p -> p.loop).collect(Collectors.toSet()), "on the same loops as before");

            // calls running on every listener when the shutdown begins are all answered
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                RawHttp http = new RawHttp(server.baseUrl());
                calls.add(CompletableFuture.supplyAsync(() -> send(http, call("where", 700))));
            }
            ReloadTest.await(() -> server.server().inFlight() == 6, "six calls running");
            var stopped = server.server().shutdown(Duration.ofSeconds(10)).toCompletionStage().toCompletableFuture();
            Set<String> servedOn = new HashSet<>();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                HttpResponse<String> r = c.get(10, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode(), r.body());
                servedOn.add(row(r).getString("thread"));
            }
            assertEquals(3, servedOn.size(), "the calls ran on all three listeners: " + servedOn);
            stopped.get(10, TimeUnit.SECONDS);
            assertTrue(current.stream().allMatch(p -> p.closed), "every pool closed after the calls");
            assertEquals(0, pools.cutOff.get(), "no call was cut off");
            assertTrue(vertx.deploymentIDs().isEmpty(), "the listeners are undeployed: " + vertx.deploymentIDs());
            assertEquals(0, pools.crossed.get());
        } finally {
            server.close();
        }
    }

    /**
     * A real PostgreSQL adapter with {@code max_connections: 4} behind three listeners: under 24
     * concurrent calls from 24 connections the database sees at most 4 connections of it, and
     * more than one listener's pool is used.
     */
    @Test
    void postgresConnectionsStayWithinMaxConnectionsAcrossListeners() throws Exception {
        String url = TestDatabases.postgresUrl();
        String app = "hyperterse-instances-" + UUID.randomUUID().toString().substring(0, 8);
        Path project = RunningServer.copyExample("quickstart", scratch);
        Files.writeString(project.resolve("app/adapters/pg.terse"), "connector: postgres\nconnection_string: '"
                + url + "'\noptions:\n  max_connections: 4\n  application_name: " + app + "\n");
        RunningServer.writeTool(project, "nap", "description: 'Sleeps on the database'\nuse: pg\n"
                + "statement: SELECT pg_sleep({{ inputs.s }}) IS NULL AS slept, pg_backend_pid() AS pid\n"
                + "inputs:\n  s:\n    type: float\n");
        try (RunningServer server = RunningServer.start(project, Map.of(), Connectors.builtIn(),
                s -> s.network(n -> n.instances(3)), ServeOptions.DEFAULTS, fourLoops())) {
            io.vertx.sqlclient.Pool admin = io.vertx.pgclient.PgBuilder.pool().connectingTo(url)
                    .using(server.server().vertx()).build();
            try {
                List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
                for (int i = 0; i < 24; i++) {
                    RawHttp http = new RawHttp(server.baseUrl());
                    calls.add(CompletableFuture.supplyAsync(() -> send(http, call("nap", 0.3))));
                }
                int most = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!CompletableFuture.allOf(calls.toArray(new CompletableFuture[0])).isDone()
                        && System.nanoTime() < deadline) {
                    int seen = admin.preparedQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1")
                            .execute(io.vertx.sqlclient.Tuple.of(app)).toCompletionStage().toCompletableFuture()
                            .get(10, TimeUnit.SECONDS).iterator().next().getInteger(0);
                    most = Math.max(most, seen);
                    Thread.sleep(20);
                }
                Set<Integer> backends = new HashSet<>();
                for (CompletableFuture<HttpResponse<String>> c : calls) {
                    HttpResponse<String> r = c.get(30, TimeUnit.SECONDS);
                    assertEquals(200, r.statusCode(), r.body());
                    backends.add(row(r).getInteger("pid"));
                }
                assertTrue(most <= 4, "at most max_connections to the database, saw " + most);
                assertTrue(most > 1, "the calls were spread over the pools, saw " + most);
                assertTrue(backends.size() > 1 && backends.size() <= 4, "several pools served, within 4: " + backends);
            } finally {
                admin.close();
            }
        }
    }

    /**
     * Redis splits its connections over the listeners' loops as the SQL connectors do: one pool per
     * listener, and calls that each hold a connection (a blocking pop that times out) never open
     * more than {@code max_connections} in all.
     */
    @Test
    void redisConnectionsStayWithinMaxConnectionsAcrossListeners() throws Exception {
        String url = TestDatabases.redisUrl();
        // a database of its own, so this server's connections can be told from any other client's
        int db = 13;
        Path project = RunningServer.copyExample("quickstart", scratch);
        Files.writeString(project.resolve("app/adapters/kv.terse"), "connector: redis\nconnection_string: '"
                + url.replaceAll("/\\d*$", "") + "/" + db + "'\noptions:\n  max_connections: 4\n");
        RunningServer.writeTool(project, "wait", "description: 'Waits for a list item'\nuse: kv\n"
                + "statement: BLPOP {{ inputs.key }} 0.3\ninputs:\n  key:\n    type: string\n");
        try (RunningServer server = RunningServer.start(project, Map.of(), Connectors.builtIn(),
                s -> s.network(n -> n.instances(3)), ServeOptions.DEFAULTS, fourLoops())) {
            io.vertx.redis.client.Redis admin = io.vertx.redis.client.Redis.createClient(server.server().vertx(), url);
            try {
                // each listener's pool checked its connection when it opened, and keeps it
                assertEquals(3, clientsOf(admin, db), "one pool per listener, each with the connection it opened with");
                List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
                for (int i = 0; i < 24; i++) {
                    RawHttp http = new RawHttp(server.baseUrl());
                    JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
                            .put("params", new JsonObject().put("name", "execute").put("arguments", new JsonObject()
                                    .put("tool", "wait").put("inputs", new JsonObject().put("key", "nothing:" + i))));
                    calls.add(CompletableFuture.supplyAsync(() -> send(http, message)));
                }
                int most = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!CompletableFuture.allOf(calls.toArray(new CompletableFuture[0])).isDone()
                        && System.nanoTime() < deadline) {
                    most = Math.max(most, clientsOf(admin, db));
                    Thread.sleep(20);
                }
                for (CompletableFuture<HttpResponse<String>> c : calls) {
                    HttpResponse<String> r = c.get(30, TimeUnit.SECONDS);
                    assertEquals(200, r.statusCode(), r.body());
                    assertFalse(r.body().contains("\"isError\":true"), r.body());
                }
                assertTrue(most <= 4, "at most max_connections to Redis, saw " + most);
                assertTrue(most > 1, "the calls were spread over the pools, saw " + most);
            } finally {
                admin.close();
            }
        }
    }

    /** How many clients Redis has connected to database {@code db}. */
    private static int clientsOf(io.vertx.redis.client.Redis admin, int db) throws Exception {
        String clients = admin.send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.CLIENT).arg("LIST"))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).toString();
        return (int) clients.lines().filter(l -> l.contains(" db=" + db + " ")).count();
    }

    /** Pool sizes, smallest first (pools are opened in parallel, in no set order). */
    private static List<Integer> sizes(List<Pool> pools) {
        return pools.stream().map(p -> p.size).sorted().toList();
    }

    private static JsonObject call(String tool, Object value) {
        String input = tool.equals("nap") ? "s" : "ms";
        return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
                .put("params", new JsonObject().put("name", "execute").put("arguments", new JsonObject()
                        .put("tool", tool).put("inputs", new JsonObject().put(input, value))));
    }

    private static HttpResponse<String> send(RawHttp http, JsonObject message) {
        try {
            return http.mcp(message);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The first row of an execute answer (its text content is the rows as JSON). */
    private static JsonObject row(HttpResponse<String> r) {
        JsonObject result = new JsonObject(r.body()).getJsonObject("result");
        assertFalse(result.getBoolean("isError", false), r.body());
        return new JsonArray(result.getJsonArray("content").getJsonObject(0).getString("text")).getJsonObject(0);
    }

    /** One pool a {@link Pools} factory opened: where, how big, what it did. */
    static final class Pool {
        /** The event loop of the context it was opened in, as a real pool belongs to it. */
        final Thread loop = loopOfCurrentContext();
        final int size;
        final AtomicInteger executed = new AtomicInteger();
        volatile boolean closed;

        Pool(int size) {
            this.size = size;
        }

        /** The thread of the current context's event loop (the caller may be a worker in that context). */
        private static Thread loopOfCurrentContext() {
            io.netty.channel.EventLoop loop = ((io.vertx.core.internal.ContextInternal) Vertx.currentContext())
                    .nettyEventLoop();
            if (loop.inEventLoop()) {
                return Thread.currentThread();
            }
            try {
                return loop.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("the pool's event loop did not answer", e);
            }
        }
    }

    /**
     * {@code connector: looped}: a connector that can be split per event loop. Each pool records
     * the event loop of the context it was opened in; a statement answers {@code {"thread": <thread it ran on>}} after
     * {@code ms} (a timer of the calling context) and counts a run on a thread other than its
     * pool's as crossed.
     */
    static final class Pools implements ConnectorFactory {
        final List<Pool> opened = new CopyOnWriteArrayList<>();
        final AtomicInteger crossed = new AtomicInteger();
        final AtomicInteger cutOff = new AtomicInteger();
        private final Map<Pool, AtomicInteger> running = new ConcurrentHashMap<>();

        @Override
        public String type() {
            return "looped";
        }

        @Override
        public StatementDialect dialect() {
            return StatementDialect.SQLITE;
        }

        @Override
        public List<String> check(AdapterDef adapter, Path projectDir) {
            return List.of();
        }

        @Override
        public int splittableConnections(AdapterDef adapter) {
            return Integer.parseInt(adapter.options().getOrDefault("max_connections", "10"));
        }

        @Override
        public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir) {
            return connect(vertx, adapter, projectDir, splittableConnections(adapter));
        }

        @Override
        public Future<Connector> connect(Vertx vertx, AdapterDef adapter, Path projectDir, int maxConnections) {
            Pool pool = new Pool(maxConnections);
            opened.add(pool);
            running.put(pool, new AtomicInteger());
            return Future.succeededFuture(new Connector() {
                @Override
                public String adapterName() {
                    return adapter.name();
                }

                @Override
                public StatementDialect dialect() {
                    return StatementDialect.SQLITE;
                }

                @Override
                public Future<Void> check(CompiledStatement statement) {
                    return Future.succeededFuture();
                }

                @Override
                public Future<QueryResult> execute(CompiledStatement statement, List<Object> values,
                                                   QueryOptions options) {
                    Thread thread = Thread.currentThread();
                    if (thread != pool.loop) {
                        crossed.incrementAndGet();
                    }
                    pool.executed.incrementAndGet();
                    long ms = ((Number) values.get(0)).longValue();
                    Promise<QueryResult> result = Promise.promise();
                    running.get(pool).incrementAndGet();
                    Runnable done = () -> {
                        running.get(pool).decrementAndGet();
                        result.tryComplete(new QueryResult(new JsonArray().add(new JsonObject()
                                .put("thread", thread.getName())), ResultCut.NONE));
                    };
                    if (ms <= 0) {
                        done.run();
                    } else {
                        vertx.setTimer(ms, id -> done.run());
                    }
                    return result.future();
                }

                @Override
                public Future<Void> close() {
                    pool.closed = true;
                    cutOff.addAndGet(running.get(pool).get());
                    return Future.succeededFuture();
                }
            });
        }
    }
}
