package dev.hyperterse.connector.mongodb;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.ConnectorTestBase;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.testing.MongoTestServer;
import dev.hyperterse.testing.TestDatabases;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.bson.BsonBinary;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.hyperterse.testing.Futures.await;
import static dev.hyperterse.testing.Futures.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mongodb connector against the in-process server (mongo-java-server), or the real server
 * {@code HYPERTERSE_TEST_MONGODB_URL} names. Each run works in a database of its own, dropped at
 * the end.
 */
class MongoConnectorTest extends ConnectorTestBase {
    private final MongoConnectorFactory factory = new MongoConnectorFactory();
    private final String db = TestDatabases.uniqueName("hyperterse_test");
    private MongoTestServer server;
    private Connector mongo;
    private MongoClient seeder;

    MongoConnectorTest() {
        super("docs");
    }

    @BeforeAll
    void start() {
        server = MongoTestServer.start();
        mongo = open(server.url(), Map.of());
        seeder = MongoClients.create(server.url());
        List<BsonDocument> users = List.of(
                BsonDocument.parse("{\"_id\": 1, \"name\": \"alice\", \"secret\": \"a1\"}"),
                BsonDocument.parse("{\"_id\": 2, \"name\": \"bob\", \"secret\": \"b2\"}"));
        block(seeder.getDatabase(db).getCollection("users", BsonDocument.class).insertMany(users));
        List<BsonDocument> many = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            many.add(new BsonDocument("_id", new org.bson.BsonInt32(i)).append("n", new org.bson.BsonInt32(i)));
        }
        block(seeder.getDatabase(db).getCollection("numbers", BsonDocument.class).insertMany(many));
    }

    @AfterAll
    void stop() {
        block(seeder.getDatabase(db).drop());
        seeder.close();
        await(mongo.close());
        server.close();
    }

    // ---- helpers ----

    @Override
    protected ConnectorFactory factory() {
        return factory;
    }

    private static <T> T block(Publisher<T> publisher) {
        CompletableFuture<T> done = new CompletableFuture<>();
        publisher.subscribe(new Subscriber<T>() {
            private T last;

            @Override
            public void onSubscribe(Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(T t) {
                last = t;
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(last);
            }
        });
        try {
            return done.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private String statement(String command) {
        return "{\"database\": \"" + db + "\", \"command\": " + command + "}";
    }

    private Future<QueryResult> execute(String command, int rowLimit, Object... values) {
        try {
            CompiledStatement c = factory.compile(statement(command), Map.of());
            return mongo.execute(c, new ArrayList<>(Arrays.asList(values)), QueryOptions.of(rowLimit, TIMEOUT));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private QueryResult run(String command, int rowLimit, Object... values) {
        return await(execute(command, rowLimit, values));
    }

    private JsonArray rows(String command, Object... values) {
        return run(command, 1000, values).rows();
    }

    // ---- tests ----

    @Test
    void findReturnsOneRowPerDocumentAndOtherCommandsOneRow() {
        JsonArray found = rows("{\"find\": \"users\", \"filter\": {\"name\": \"{{ inputs.name }}\"}}", "alice");
        assertEquals(new JsonArray().add(new JsonObject().put("_id", 1).put("name", "alice").put("secret", "a1")), found);
        JsonArray count = rows("{\"count\": \"users\", \"query\": {}}");
        assertEquals(1, count.size());
        assertEquals(2, count.getJsonObject(0).getInteger("n"));
        assertEquals(1.0, count.getJsonObject(0).getDouble("ok"));
    }

    @Test
    void insertUpdateDeleteWithValuesFromInputs() {
        String coll = "writes";
        JsonObject inserted = rows("{\"insert\": \"" + coll + "\", \"documents\": [{\"_id\": {{ inputs.id }},"
                + " \"label\": \"{{ inputs.label }}\"}]}", 7L, "x\"y").getJsonObject(0);
        assertEquals(1, inserted.getInteger("n"));
        JsonObject updated = rows("{\"update\": \"" + coll + "\", \"updates\": [{\"q\": {\"_id\": {{ inputs.id }}},"
                + " \"u\": {\"$set\": {\"label\": \"{{ inputs.label }}\"}}}]}", 7L, "$unset").getJsonObject(0);
        assertEquals(1, updated.getInteger("nModified"));
        assertEquals("$unset", rows("{\"find\": \"" + coll + "\", \"filter\": {\"_id\": 7}}").getJsonObject(0)
                .getString("label"), "a value that looks like an operator is stored as text");
        JsonObject deleted = rows("{\"delete\": \"" + coll + "\", \"deletes\": [{\"q\": {\"_id\": {{ inputs.id }}},"
                + " \"limit\": 1}]}", 7L).getJsonObject(0);
        assertEquals(1, deleted.getInteger("n"));
    }

    @Test
    void bsonTypesBecomeTypedJson() {
        ObjectId id = new ObjectId("65f0a1b2c3d4e5f601234567");
        BsonDocument doc = new BsonDocument("_id", new BsonObjectId(id))
                .append("at", new BsonDateTime(1717236000123L))
                .append("price", new BsonDecimal128(new Decimal128(new BigDecimal("19.990"))))
                .append("blob", new BsonBinary(new byte[] {1, 2, 3, (byte) 0xff}))
                .append("small", new BsonInt64(9007199254740992L))
                .append("big", new BsonInt64(9007199254740993L))
                .append("nested", BsonDocument.parse("{\"tags\": [\"a\", 2, 2.5, true, null]}"));
        block(seeder.getDatabase(db).getCollection("types", BsonDocument.class).insertOne(doc));
        JsonObject row = rows("{\"find\": \"types\", \"filter\": {\"_id\": {\"$oid\": \"{{ inputs.id }}\"}}}",
                id.toHexString()).getJsonObject(0);
        assertEquals("65f0a1b2c3d4e5f601234567", row.getValue("_id"));
        assertEquals("2024-06-01T10:00:00.123Z", row.getValue("at"));
        assertEquals("19.990", row.getValue("price"));
        assertEquals("AQID/w==", row.getValue("blob"));
        assertEquals(9007199254740992L, row.getValue("small"));
        assertEquals("9007199254740993", row.getValue("big"));
        assertEquals(new JsonArray("[\"a\", 2, 2.5, true, null]"), row.getJsonObject("nested").getJsonArray("tags"));
    }

    @Test
    void theCursorIsFollowedToTheRowLimit() {
        String find = "{\"find\": \"numbers\", \"filter\": {}, \"sort\": {\"n\": 1}, \"batchSize\": 10}";
        QueryResult all = run(find, 1000);
        assertEquals(250, all.rows().size(), "getMore brings every batch, not only the first");
        assertFalse(all.truncated());
        assertEquals(249, all.rows().getJsonObject(249).getInteger("n"));
        QueryResult cut = run(find, 35);
        assertEquals(35, cut.rows().size());
        assertTrue(cut.truncated());
        QueryResult exact = run(find, 250);
        assertEquals(250, exact.rows().size());
        assertFalse(exact.truncated(), "exactly the limit is not a cut");
        QueryResult unbatched = run("{\"find\": \"numbers\", \"filter\": {}}", 120);
        assertEquals(120, unbatched.rows().size());
        assertTrue(unbatched.truncated());
        QueryResult aggregated = run("{\"aggregate\": \"numbers\", \"pipeline\": [{\"$match\": {\"n\": {\"$gte\": 100}}},"
                + " {\"$sort\": {\"n\": 1}}], \"cursor\": {\"batchSize\": 7}}", 60);
        assertEquals(60, aggregated.rows().size());
        assertTrue(aggregated.truncated());
        assertEquals(159, aggregated.rows().getJsonObject(59).getInteger("n"));
    }

    /** The byte cap cuts while batches arrive: documents of ~100 KB under a 350 KB cap give 3 rows and the cut. */
    @Test
    void theResultSizeLimitCutsWhileTheCursorIsRead() throws Exception {
        String big = "x".repeat(100_000);
        for (int i = 0; i < 6; i++) {
            rows("{\"insert\": \"big\", \"documents\": [{\"_id\": {{ inputs.id }}, \"s\": \"{{ inputs.s }}\"}]}", i, big);
        }
        CompiledStatement find = factory.compile(statement("{\"find\": \"big\", \"filter\": {}, \"sort\": {\"_id\": 1}}"),
                Map.of());
        QueryResult result = await(mongo.execute(find, List.of(), QueryOptions.of(1000, 350_000, TIMEOUT)));
        assertEquals(3, result.rows().size());
        assertEquals(dev.hyperterse.model.ResultCut.BYTE_LIMIT, result.cut());
    }

    /** The payloads of the SQL and Redis injection tests, adapted to JSON: none may match a row. */
    @Test
    void injectionPayloadsMatchNothing() {
        List<Object> payloads = List.of("\"", "alice\"", "alice\", \"secret\": {\"$exists\": true}, \"x\": \"",
                "\"}, \"$where\": \"1 == 1", "{\"$gt\": \"\"}", "{\"$ne\": null}", "{\"$regex\": \".*\"}", "$where",
                "this.secret", "'; return true; var x='", "$gt", "$name", "$$ROOT", ".*", "{{ inputs.name }}",
                "\\\"", "alice\\", "' OR '1'='1", "1; db.users.drop()", "{\"$where\": \"sleep(100) || true\"}",
                "\u0000alice");
        List<String> templates = List.of(
                "{\"find\": \"users\", \"filter\": {\"name\": \"{{ inputs.v }}\"}}",
                "{\"find\": \"users\", \"filter\": {\"name\": {{ inputs.v }}}}",
                "{\"find\": \"users\", \"filter\": {\"name\": {\"$eq\": \"{{ inputs.v }}\"}}}",
                "{\"find\": \"users\", \"filter\": {\"name\": {\"$in\": [{{ inputs.v }}]}}}",
                "{\"aggregate\": \"users\", \"pipeline\": [{\"$match\": {\"$expr\": {\"$eq\": [\"$name\", \"{{ inputs.v }}\"]}}}],"
                        + " \"cursor\": {}}");
        List<String> successes = new ArrayList<>();
        for (String template : templates) {
            assertEquals(1, rows(template, "alice").size(), "the control value matches: " + template);
            for (Object payload : payloads) {
                Future<QueryResult> f = execute(template, 1000, payload);
                QueryResult r = f.toCompletionStage().toCompletableFuture().handle((ok, e) -> ok).join();
                if (r != null && !r.rows().isEmpty()) {
                    successes.add(template + " <- " + payload + " -> " + r.rows().encode());
                }
            }
        }
        assertEquals(List.of(), successes, "no payload may match a row");
        assertEquals(2, rows("{\"count\": \"users\"}").getJsonObject(0).getInteger("n"), "nothing was dropped");
        Throwable e = failure(execute("{\"find\": \"users\", \"filter\": {\"name\": {{ inputs.v }}}}", 10,
                Map.of("$ne", "")));
        assertInstanceOf(ConnectorException.class, e);
        assertTrue(e.getMessage().contains("may not start with '$'"), e.getMessage());
    }

    @Test
    void serverErrorsAreTheServersReason() {
        Throwable e = failure(execute("{\"noSuchCommand\": 1}", 10));
        assertInstanceOf(ConnectorException.class, e);
        assertTrue(e.getMessage().startsWith("mongodb command failed: "), e.getMessage());
        assertTrue(e.getMessage().contains("noSuchCommand"), e.getMessage());
    }

    @Test
    void anUnreachableServerIsUnavailableWithoutThePassword() {
        String url = "mongodb://reader:s3cr3t-pw@127.0.0.1:1/shop";
        Throwable e = failure(factory.connect(vertx, adapter(url, Map.of("serverSelectionTimeoutMS", "500")),
                Path.of(".")));
        assertInstanceOf(ConnectorException.class, e);
        assertTrue(e.getMessage().startsWith("adapter 'docs': cannot connect to MongoDB at 127.0.0.1:1/shop: database"
                + " unavailable: cannot connect to 127.0.0.1:1/shop"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
    }

    @Test
    void settingsAreReadAsConnectWillReadThem() {
        List<String> warnings = factory.check(adapter("mongodb://127.0.0.1:27017/shop?appName=x&colour=red",
                Map.of("maxPoolSize", "20", "row_limit", "50", "tlsCAFile", "ca.pem")), Path.of("."));
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("'colour'"), warnings.toString());
        assertTrue(warnings.get(1).startsWith("adapter 'docs': option 'tlsCAFile' is not used by the mongodb connector"),
                warnings.toString());
        ConnectorException bad = org.junit.jupiter.api.Assertions.assertThrows(ConnectorException.class,
                () -> factory.check(adapter("mongodb://u:pw-secret@127.0.0.1/shop", Map.of("maxPoolSize", "many")),
                        Path.of(".")));
        assertTrue(bad.getMessage().startsWith("adapter 'docs': connection_string is not a valid MongoDB connection string"),
                bad.getMessage());
        assertFalse(bad.getMessage().contains("pw-secret"), bad.getMessage());
        ConnectorException scheme = org.junit.jupiter.api.Assertions.assertThrows(ConnectorException.class,
                () -> factory.check(adapter("postgres://127.0.0.1/shop", Map.of()), Path.of(".")));
        assertTrue(scheme.getMessage().contains("must be a URL such as mongodb://"), scheme.getMessage());
    }

    @Test
    void cancellationEndsTheCallAtOnce() {
        Promise<Void> cancel = Promise.promise();
        cancel.complete();
        try {
            CompiledStatement c = factory.compile(statement("{\"find\": \"numbers\", \"filter\": {}, \"batchSize\": 1}"),
                    Map.of());
            Throwable e = failure(mongo.execute(c, List.of(), new QueryOptions(1000, 4L << 20, TIMEOUT, cancel.future())));
            assertEquals("statement cancelled", e.getMessage());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertEquals(250, rows("{\"count\": \"numbers\"}").getJsonObject(0).getInteger("n"), "the pool still works");
    }

    /** Needs a real server: the in-process one neither sleeps nor enforces maxTimeMS. */
    @Test
    void theTimeLimitStopsTheCommand() {
        org.junit.jupiter.api.Assumptions.assumeFalse(server.inProcess(), "needs HYPERTERSE_TEST_MONGODB_URL");
        try {
            CompiledStatement c = factory.compile(statement("{\"find\": \"users\", \"filter\":"
                    + " {\"$where\": \"sleep(3000) || true\"}}"), Map.of());
            Throwable e = failure(mongo.execute(c, List.of(), QueryOptions.of(10, Duration.ofMillis(300))));
            assertEquals("statement timed out after 300ms", e.getMessage());
        } catch (dev.hyperterse.connector.StatementException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void checkExplainsOrKnowsTheCommand() {
        try {
            await(mongo.check(factory.compile(statement("{\"find\": \"users\", \"filter\": {\"name\": {{ inputs.v }}},"
                    + " \"limit\": {{ inputs.n }}}"), Map.of())));
            await(mongo.check(factory.compile(statement("{\"insert\": \"users\", \"documents\": [{\"a\": 1}]}"), Map.of())));
            if (!server.inProcess()) {
                // the in-process server has neither explain nor listCommands: there the check is a ping
                Throwable e = failure(mongo.check(factory.compile(statement("{\"nosuchcommand\": \"users\"}"), Map.of())));
                assertTrue(e.getMessage().contains("nosuchcommand"), e.getMessage());
                Throwable op = failure(mongo.check(factory.compile(statement("{\"find\": \"users\", \"filter\":"
                        + " {\"name\": {\"$nosuchop\": {{ inputs.v }}}}}"), Map.of())));
                assertTrue(op.getMessage().contains("$nosuchop"), op.getMessage());
            }
        } catch (dev.hyperterse.connector.StatementException e) {
            throw new AssertionError(e);
        }
    }
}
