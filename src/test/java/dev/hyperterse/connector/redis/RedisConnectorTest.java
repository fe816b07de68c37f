package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.ConnectorTestBase;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.testing.TcpProxy;
import dev.hyperterse.testing.TestDatabases;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.hyperterse.testing.Futures.await;
import static dev.hyperterse.testing.Futures.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The redis connector against a real server ({@code HYPERTERSE_TEST_REDIS_URL}, else the local
 * one). Every key starts with a prefix of this run's own and is deleted at the end.
 */
class RedisConnectorTest extends ConnectorTestBase {
    private final RedisConnectorFactory factory = new RedisConnectorFactory();
    private final String prefix = TestDatabases.uniqueName("hyperterse_test") + ":";
    private Connector redis;

    RedisConnectorTest() {
        super("cache");
    }

    @BeforeAll
    void start() {
        redis = open(TestDatabases.redisUrl(), Map.of());
    }

    @AfterAll
    void stop() {
        JsonArray keys = run("KEYS " + prefix + "*").getJsonObject(0).getJsonArray("values");
        for (Object key : keys) {
            run("DEL {{ inputs.k }}", key);
        }
        await(redis.close());
    }

    // ---- helpers ----

    @Override
    protected ConnectorFactory factory() {
        return factory;
    }

    private JsonArray run(String template, Object... values) {
        return rows(redis, template, values);
    }

    private String key(String name) {
        return prefix + name;
    }

    // ---- replies ----

    @Test
    void replyShapes() {
        assertEquals("[{\"value\":\"OK\"}]", run("SET " + key("s") + " {{ inputs.v }}", "hello").encode());
        assertEquals("[{\"value\":\"hello\"}]", run("GET " + key("s")).encode());
        assertEquals("[{\"value\":null}]", run("GET " + key("missing")).encode(), "a missing key is not an error");
        assertEquals("[{\"value\":1}]", run("INCR " + key("n")).encode());
        assertEquals("[{\"value\":3}]", run("INCRBY " + key("n") + " {{ inputs.by }}", 2L).encode());
        assertEquals("[{\"value\":2}]", run("HSET " + key("h") + " name {{ inputs.name }} age {{ inputs.age }}", "Ada", 36L).encode());
        assertEquals("[{\"value\":{\"age\":\"36\",\"name\":\"Ada\"}}]", run("HGETALL " + key("h")).encode());
        assertEquals("[{\"value\":{}}]", run("HGETALL " + key("missing")).encode());
        assertEquals("[{\"value\":\"Ada\"}]", run("HGET " + key("h") + " name").encode());
        run("RPUSH " + key("l") + " a b c");
        assertEquals("[{\"values\":[\"a\",\"b\",\"c\"]}]", run("LRANGE " + key("l") + " 0 -1").encode());
        assertEquals("[{\"values\":[]}]", run("LRANGE " + key("missing") + " 0 -1").encode());
        run("SADD " + key("set") + " x");
        assertEquals("[{\"values\":[\"x\"]}]", run("SMEMBERS " + key("set")).encode());
        run("ZADD " + key("z") + " 1.5 one 2 two");
        assertEquals("[{\"value\":1.5}]", run("ZSCORE " + key("z") + " one").encode());
        assertEquals("[{\"values\":[[\"one\",1.5],[\"two\",2.0]]}]", run("ZRANGE " + key("z") + " 0 -1 WITHSCORES").encode());
        assertEquals("[{\"value\":\"hash\"}]", run("TYPE " + key("h")).encode());
        assertEquals("[{\"value\":2}]", run("EXISTS " + key("h") + " " + key("l")).encode());
    }

    @Test
    void anArrayInputIsAValueListAndAnObjectItsJsonText() {
        run("SET " + key("a:1") + " one");
        run("SET " + key("a:3") + " three");
        assertEquals("[{\"values\":[\"one\",null,\"three\"]}]",
                run("MGET " + key("a:{{ inputs.ids }}"), new JsonArray().add(1L).add(2L).add(3L)).encode(),
                "each element is one argument, with the word's text around it");
        assertEquals("[{\"value\":2}]", run("DEL {{ inputs.keys }}",
                new JsonArray().add(key("a:1")).add(key("a:3")).add(key("a:9"))).encode());
        assertEquals("[{\"value\":0}]", run("EXISTS " + key("a:1")).encode());
        run("SET " + key("doc") + " {{ inputs.doc }}", new io.vertx.core.json.JsonObject().put("city", "Oslo"));
        assertEquals("[{\"value\":\"{\\\"city\\\":\\\"Oslo\\\"}\"}]", run("GET " + key("doc")).encode());
        assertTrue(error(execute(redis, "MGET {{ inputs.a }}:{{ inputs.b }}", 1000, TIMEOUT,
                new JsonArray().add(1L), new JsonArray().add(2L))).contains("can spread one array only"));
    }

    @Test
    void eachValueIsExactlyOneArgument() {
        for (String attack : List.of("a b", "x\r\nFLUSHALL\r\n", "\"quoted\" 'words'", "* 1", "$1", "{{ inputs.v }}")) {
            run("SET " + key("v:{{ inputs.id }}") + " {{ inputs.v }}", "1 2", attack);
            assertEquals("[{\"value\":" + io.vertx.core.json.Json.encode(attack) + "}]",
                    run("GET " + key("v:{{ inputs.id }}"), "1 2").encode());
        }
        assertEquals("[{\"value\":1}]", run("EXISTS {{ inputs.k }}", key("v:1 2")).encode());
        assertEquals("[{\"value\":0}]", run("EXISTS {{ inputs.k }}", key("v:1")).encode());
    }

    @Test
    void theRowLimitCutsLongReplies() {
        for (int i = 0; i < 20; i++) {
            run("RPUSH " + key("long") + " {{ inputs.i }}", (long) i);
        }
        QueryResult cut = await(execute(redis, "LRANGE " + key("long") + " 0 -1", 5, TIMEOUT));
        assertEquals("[{\"values\":[\"0\",\"1\",\"2\",\"3\",\"4\"]}]", cut.rows().encode());
        assertTrue(cut.truncated());
        assertFalse(await(execute(redis, "LRANGE " + key("long") + " 0 -1", 20, TIMEOUT)).truncated());
    }

    private QueryResult capped(String template, long byteLimit, Object... values) {
        try {
            return await(redis.execute(factory.compile(template, Map.of()), Arrays.asList(values),
                    QueryOptions.of(1000, byteLimit, TIMEOUT)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theSizeLimitCutsLongRepliesBeforeConvertingThem() {
        String mib = "x".repeat(1 << 20);
        for (int i = 0; i < 6; i++) {
            run("RPUSH " + key("big") + " {{ inputs.v }}", i + mib);
            run("HSET " + key("bighash") + " {{ inputs.f }} {{ inputs.v }}", "f" + i, mib);
        }
        QueryResult list = capped("LRANGE " + key("big") + " 0 -1", 4L << 20);
        JsonArray values = list.rows().getJsonObject(0).getJsonArray("values");
        assertEquals(3, values.size());
        assertEquals("2" + mib, values.getString(2));
        assertEquals(ResultCut.BYTE_LIMIT, list.cut());
        QueryResult map = capped("HGETALL " + key("bighash"), 4L << 20);
        assertEquals(List.of("f0", "f1", "f2"), List.copyOf(map.rows().getJsonObject(0).getJsonObject("value").fieldNames()));
        assertEquals(ResultCut.BYTE_LIMIT, map.cut());
        assertEquals(ResultCut.NONE, capped("LRANGE " + key("big") + " 0 -1", 8L << 20).cut());
        // a scalar larger than the limit gives no row, and the cut
        run("SET " + key("huge") + " {{ inputs.v }}", mib);
        QueryResult scalar = capped("GET " + key("huge"), 4096);
        assertEquals(new JsonArray(), scalar.rows());
        assertEquals(ResultCut.BYTE_LIMIT, scalar.cut());
        assertEquals("[{\"value\":\"ok\"}]", capped("ECHO ok", 4096).rows().encode());
    }

    @Test
    void redisErrorsAreCallErrors() {
        run("SET " + key("str") + " x");
        String wrongType = error(execute(redis, "LPUSH " + key("str") + " y", 10, TIMEOUT));
        assertTrue(wrongType.startsWith("WRONGTYPE"), wrongType);
        assertTrue(error(execute(redis, "GETT x", 10, TIMEOUT)).toLowerCase().contains("unknown command"));
        assertTrue(error(execute(redis, "GET {{ inputs.k }}", 10, TIMEOUT, (Object) null)).startsWith("input 'k' has no value"));
    }

    @Test
    void checkFindsUnknownCommandsAndWrongArgumentCounts() throws Exception {
        await(redis.check(factory.compile("HGET user:{{ inputs.id }} name", Map.of())));
        await(redis.check(factory.compile("SET k {{ inputs.v }} EX 60", Map.of())));
        assertEquals("unknown Redis command 'GETT'", failure(redis.check(factory.compile("GETT x", Map.of()))).getMessage());
        assertEquals("GET takes 1 argument, the statement gives 2",
                failure(redis.check(factory.compile("get a {{ inputs.b }}", Map.of()))).getMessage());
        assertEquals("HSET takes at least 3 arguments, the statement gives 2",
                failure(redis.check(factory.compile("HSET h f", Map.of()))).getMessage());
    }

    @Test
    void timeoutAndCancellationFailTheCallAtOnce() {
        long start = System.nanoTime();
        assertEquals("statement timed out after 300ms", error(execute(redis, "BLPOP " + key("never") + " 2", 10,
                Duration.ofMillis(300))));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2));
        Promise<Void> cancel = Promise.promise();
        Future<QueryResult> blocked = redis.execute(compileOrFail("BLPOP " + key("never") + " 2"), List.of(),
                new QueryOptions(10, 1L << 20, TIMEOUT, cancel.future()));
        vertx.setTimer(200, id -> cancel.complete());
        assertEquals("statement cancelled", error(blocked));
        assertEquals("[{\"value\":\"PONG\"}]", run("PING").encode(), "other calls go on");
    }

    /**
     * A blocking command whose call timed out or was cancelled gives up its connection: it is
     * closed, so the command ends on the server, and the pool opens another (issue: a
     * {@code BLPOP key 0} kept its pooled connection after the call's time limit, for ever, and
     * would have popped the next element pushed, which no caller saw).
     */
    @Test
    void aBlockingCommandPastItsTimeLimitGivesUpItsConnection() throws Exception {
        Connector one = connectTo(TestDatabases.redisUrl(), Map.of("max_connections", "1"));
        String key = key("abandoned");
        assertEquals("statement timed out after 300ms", error(execute(one, "BLPOP " + key + " 0", 10,
                Duration.ofMillis(300))));
        assertEquals("[{\"value\":\"PONG\"}]", await(execute(one, "PING", 10, Duration.ofSeconds(5))).rows().encode(),
                "the pool's only connection is free again");
        Promise<Void> cancel = Promise.promise();
        Future<QueryResult> blocked = one.execute(compileOrFail("BLPOP " + key + " 0"), List.of(),
                new QueryOptions(10, 1L << 20, TIMEOUT, cancel.future()));
        vertx.setTimer(200, id -> cancel.complete());
        assertEquals("statement cancelled", error(blocked));
        assertEquals("[{\"value\":\"PONG\"}]", await(execute(one, "PING", 10, Duration.ofSeconds(5))).rows().encode());
        // no BLPOP is left waiting on the server to take what is pushed next
        run("RPUSH " + key + " pushed");
        Thread.sleep(200);
        assertEquals("[{\"values\":[\"pushed\"]}]", run("LRANGE " + key + " 0 -1").encode());
    }

    private dev.hyperterse.connector.CompiledStatement compileOrFail(String template) {
        try {
            return factory.compile(template, Map.of());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // ---- connecting and outages ----

    @Test
    void connectFailuresAndOptions() {
        String refused = connectFailure("redis://:s3cret-pw@127.0.0.1:1/0", Map.of("connect_timeout", "2s"));
        assertTrue(refused.startsWith("cannot connect to Redis at 127.0.0.1:1/0: "), refused);
        assertFalse(refused.contains("s3cret-pw"), refused);
        // go-redis's pool_size (Hyperterse's Redis docs) is max_connections; other unknown options are warnings
        assertEquals(java.util.List.of(), factory.check(adapter(TestDatabases.redisUrl(), Map.of("pool_size", "2")),
                Path.of(".")));
        assertEquals(java.util.List.of("adapter 'cache': option 'MinIdleConns' is not used by the redis connector and"
                        + " is ignored; known options: connect_timeout, idle_timeout, max_connections, ssl_ca"),
                factory.check(adapter(TestDatabases.redisUrl(), Map.of("MinIdleConns", "2")), Path.of(".")));
        assertTrue(connectFailure(TestDatabases.redisUrl(), Map.of("pool_size", "0")).contains("option max_connections is '0'"));
        assertTrue(connectFailure("localhost:6379", Map.of()).contains("must be a URL"));
        assertTrue(connectFailure(TestDatabases.redisUrl() + "/x", Map.of()).contains("is not a number"));
        Connector db1 = connectTo(TestDatabases.redisUrl().replaceFirst("(/\\d+)?$", "") + "/1", Map.of("max_connections", "2"));
        rows(db1, "SET " + key("db1") + " one");
        assertEquals("[{\"value\":null}]", run("GET " + key("db1")).encode(), "database 1 is another keyspace");
        rows(db1, "DEL " + key("db1"));
    }

    /**
     * A server with several listeners opens one pool per event loop, each with its share of
     * {@code max_connections}: such a pool holds no more than its share.
     */
    @Test
    void aPoolOfASplitAdapterHoldsOnlyItsShareOfTheConnections() throws Exception {
        // a database of its own, so the share's connections can be told from the others
        String url = TestDatabases.redisUrl().replaceFirst("(/\\d+)?$", "") + "/14";
        dev.hyperterse.model.AdapterDef adapter = adapter(url, Map.of("max_connections", "6"));
        assertEquals(6, factory.splittableConnections(adapter), "Redis adapters can be split");
        Connector share = await(factory.connect(vertx, adapter, Path.of("."), 2));
        try {
            // three calls that each hold a connection for half a second: the share opens two
            List<Future<QueryResult>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(execute(share, "BLPOP " + key("split" + i) + " 0.5", 10, TIMEOUT));
            }
            int most = 0;
            while (!calls.stream().allMatch(Future::isComplete)) {
                String clients = run("CLIENT LIST").getJsonObject(0).getString("value");
                most = Math.max(most, (int) clients.lines().filter(l -> l.contains(" db=14 ")).count());
                Thread.sleep(20);
            }
            for (Future<QueryResult> call : calls) {
                assertTrue(call.succeeded(), String.valueOf(call.cause()));
            }
            assertEquals(2, most, "the share's two connections served the three calls");
        } finally {
            await(share.close());
        }
    }

    @Test
    void aServerThatGoesDownFailsFastAndIsUsedAgainWhenBack() throws Exception {
        String url = TestDatabases.redisUrl();
        try (TcpProxy proxy = TcpProxy.start(vertx, TestDatabases.host(url), TestDatabases.port(url, 6379))) {
            Connector c = connectTo(TestDatabases.withAddress(url, "127.0.0.1", proxy.port()), Map.of());
            assertEquals("[{\"value\":\"PONG\"}]", rows(c, "PING").encode());
            assertEquals(null, c.ping().toCompletionStage().toCompletableFuture().handle((v, e) -> e).get(30, TimeUnit.SECONDS));
            proxy.cut();
            Throwable down = c.ping().toCompletionStage().toCompletableFuture().handle((v, e) -> e).get(30, TimeUnit.SECONDS);
            assertTrue(down != null && String.valueOf(down.getMessage()).contains("database unavailable"), String.valueOf(down));
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                String message = error(execute(c, "PING", 10, TIMEOUT));
                assertTrue(message.startsWith("database unavailable: "), message);
                assertTrue(message.contains("127.0.0.1:" + proxy.port()), message);
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "fails fast: " + message);
            }
            proxy.restore();
            assertEquals("[{\"value\":\"PONG\"}]", rows(c, "PING").encode(), "the first call after the server is back succeeds");
        }
    }
}
