package dev.hyperterse.connector.sql;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.ConnectorTestBase;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.pipeline.OutputShape;
import dev.hyperterse.pipeline.ToolResult;
import dev.hyperterse.testing.OutputSchemas;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.testing.SqlDatabase;
import dev.hyperterse.testing.TcpProxy;
import dev.hyperterse.testing.TestDatabases;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.hyperterse.testing.Futures.await;
import static dev.hyperterse.testing.Futures.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The behaviour every SQL connector shares, run against a real server by each subclass
 * (PostgreSQL, MariaDB): type mapping, placeholders in every position, injection attempts, the
 * row cap, time limits and cancellation (stopped on the server too), errors, and recovery after an
 * outage (through a {@link TcpProxy}, so the shared server keeps running). Each run works in a
 * schema or database of its own, dropped at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SqlConnectorContract extends ConnectorTestBase {
    protected static final List<String> ATTACKS = List.of("' OR 1=1 --", "1; DROP TABLE users", "\\'", "\\' OR 1=1 --",
            "\u2019 OR 1=1 --", "\u2019; DROP TABLE users; --", "x' OR 'a'='a", "1 OR 1=1", "'; DELETE FROM users; --",
            "%' OR '1'='1", "\" OR \"\"=\"", "*/ OR 1=1 /*", "$$ OR 1=1 $$", "{{ inputs.x }}", "?", "$1");

    /** Connected to the database the run works in. */
    protected Connector db;

    private final SqlDatabase database;

    protected SqlConnectorContract(SqlDatabase database) {
        super("db");
        this.database = database;
    }

    @Override
    protected ConnectorFactory factory() {
        return database.factory();
    }

    /** The server the tests may use (an env variable or the local service). */
    protected String serverUrl() {
        return database.url();
    }

    protected int defaultPort() {
        return database.defaultPort();
    }

    // ---- what each database supplies ----

    /** Creates the run's own schema or database; returns the adapter options and URL to reach it. */
    protected abstract Isolation isolate(Connector admin);

    /** Drops what {@link #isolate} made. */
    protected abstract void dropIsolation(Connector admin, Isolation isolation);

    /**
     * Tables {@code users}, {@code things} and {@code seq} (1..50), in this database's dialect:
     * {@link #USERS}, {@link #THINGS_ROWS} and {@link #SEQ_TABLE} read the same in every one.
     */
    protected abstract List<String> schema();

    /** The users table and its three rows. */
    protected static final List<String> USERS = List.of(
            "CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200))",
            "INSERT INTO users VALUES (1, 'Alice', 'alice@example.com'), (2, 'Bob', 'bob@example.com'),"
                    + " (3, 'Charlie', 'charlie@example.com')");
    /** The rows of {@code things}, whose column types are the dialect's. */
    protected static final String THINGS_ROWS =
            "INSERT INTO things VALUES (1, 10, 19.99, 0.5, true, 'first', '2000-01-31', '2024-01-01 00:00:00'),"
                    + " (2, 20, 5.00, 1.5, false, 'second', '1999-12-31', '2024-06-01 00:00:00'),"
                    + " (3, 30, 100.10, 2.25, true, 'third', NULL, '2024-07-01 12:30:00')";
    protected static final String SEQ_TABLE = "CREATE TABLE seq (n INT)";

    /** A statement that runs for about {@code seconds} seconds. */
    protected abstract String sleep(int seconds);

    /** A count ({@code n}) of statements running on the server whose text contains {@code {{ inputs.m }}}. */
    protected abstract String runningStatementsLike();

    /** The database's own reason for an unknown column, as it appears in the message. */
    protected abstract String unknownColumnReason();

    /**
     * A table {@code typed} with a column of each of the database's common types: how to create
     * and fill it, and the JSON object its row must read as.
     */
    protected abstract TypedRow typedRow();

    public record TypedRow(String create, String insert, String expectedJson) {
    }

    /**
     * The JSON types each column of {@code SELECT * FROM typed} is described with
     * ({@link OutputSchemas#types}): what the values of {@link #typedRow} may be.
     */
    protected abstract String typedColumns();

    /**
     * How this database reads an array input ({@code {{ inputs.ids }}}, the names of the users
     * whose id is in it, by id) and a field of an object input ({@code {{ inputs.filter }}}'s
     * {@code city} as column {@code city}): the idioms the README documents.
     */
    protected abstract String usersWithIdsIn();

    protected abstract String cityOfFilter();

    /** Where the run works: the URL and options that reach it. */
    public record Isolation(String name, String url, Map<String, String> options) {
    }

    private Isolation isolation;
    private Connector admin;

    @BeforeAll
    void start() {
        admin = open(serverUrl(), Map.of());
        isolation = isolate(admin);
        db = open(isolation.url(), isolation.options());
        for (String statement : schema()) {
            rows(db, statement);
        }
    }

    @AfterAll
    void stop() {
        if (db != null) {
            await(db.close());
        }
        if (admin != null) {
            if (isolation != null) {
                dropIsolation(admin, isolation);
            }
            await(admin.close());
        }
    }

    // ---- helpers ----

    /** A further connector to the run's database, closed after the test. */
    protected Connector connect(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(isolation.options());
        all.putAll(options);
        return connectTo(isolation.url(), all);
    }

    protected Isolation isolation() {
        return isolation;
    }

    protected JsonArray rows(String template, Object... values) {
        return rows(db, template, values);
    }

    protected long count(String table) {
        return rows("SELECT count(*) AS n FROM " + table).getJsonObject(0).getLong("n");
    }

    private static List<Object> column(JsonArray rows, String name) {
        return rows.stream().map(r -> ((JsonObject) r).getValue(name)).collect(Collectors.toList());
    }

    /** Waits until no statement containing the marker runs on the server; fails after 5 seconds. */
    protected void assertStopsOnServer(String marker) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long running;
        do {
            running = rows(admin, runningStatementsLike(), marker).getJsonObject(0).getLong("n");
            if (running == 0) {
                return;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(running + " statement(s) marked " + marker + " still run on the server");
    }

    // ---- results ----

    @Test
    void typesMapToJson() {
        TypedRow typed = typedRow();
        rows(typed.create());
        try {
            rows(typed.insert());
            assertEquals(typed.expectedJson(), rows("SELECT * FROM typed").getJsonObject(0).encode());
        } finally {
            rows("DROP TABLE typed");
        }
    }

    @Test
    void theDescribedColumnsFitTheRowsTheStatementReturns() {
        TypedRow typed = typedRow();
        rows(typed.create());
        try {
            rows(typed.insert());
            rows(typed.insert());
            CompiledStatement select = compile("SELECT * FROM typed WHERE {{ inputs.all }} = {{ inputs.all }}");
            ResultColumns described = await(db.describe(select));
            assertEquals(typedColumns(), OutputSchemas.types(described));
            QueryResult result = await(db.execute(select, List.of(1L, 1L), QueryOptions.of(10, TIMEOUT)));
            assertEquals(2, result.rows().size());
            OutputShape shape = OutputShape.ofColumns(described);
            assertNull(shape.mismatch(result.rows()));
            JsonObject content = OutputShape.content(new ToolResult(result.rows(), result.cut(), 10, 1 << 20));
            assertEquals(List.of(), OutputSchemas.problems(shape.schema(), content), content.encode());
            // a value of another type is found, by the server's check and the validator alike
            JsonObject drifted = content.copy();
            drifted.getJsonArray("rows").getJsonObject(1).put(described.columns().get(0).name(), "not a number");
            assertEquals("rows[1]." + described.columns().get(0).name() + ": expected integer or null, got \"not a number\"",
                    shape.mismatch(drifted.getJsonArray("rows")));
            assertFalse(OutputSchemas.problems(shape.schema(), drifted).isEmpty());
        } finally {
            rows("DROP TABLE typed");
        }
    }

    @Test
    void writesAreDescribedAsRowsAffectedWithoutRunning() {
        ResultColumns insert = await(db.describe(compile("INSERT INTO users (id, name) VALUES ({{ inputs.id }}, 'x')")));
        assertTrue(insert.affectsRows(), insert.toString());
        ResultColumns delete = await(db.describe(compile("DELETE FROM users WHERE id > {{ inputs.id }}")));
        assertTrue(delete.affectsRows(), delete.toString());
        assertEquals(3, count("users"));
        QueryResult deleted = await(execute(db, "DELETE FROM users WHERE id > {{ inputs.id }}", 10, TIMEOUT, 99L));
        OutputShape shape = OutputShape.ofColumns(delete);
        JsonObject content = OutputShape.content(new ToolResult(deleted.rows(), deleted.cut(), 10, 1 << 20));
        assertEquals(List.of(), OutputSchemas.problems(shape.schema(), content), content.encode());
        assertEquals("{\"rows\":[{\"rows_affected\":0}]}", content.encode());
        // a statement that does not prepare fails describe as it fails check
        Throwable bad = failure(db.describe(compile("SELECT nope FROM users")));
        assertTrue(bad.getMessage().contains(unknownColumnReason()), bad.getMessage());
    }

    @Test
    void arrayAndObjectInputsBind() {
        assertEquals("[{\"name\":\"Alice\"},{\"name\":\"Charlie\"}]",
                rows(usersWithIdsIn(), new JsonArray().add(3L).add(1L).add(99L)).encode());
        assertEquals("[]", rows(usersWithIdsIn(), new JsonArray()).encode());
        assertEquals("[{\"city\":\"Oslo\"}]", rows(cityOfFilter(),
                new JsonObject().put("city", "Oslo").put("tags", new JsonArray().add("a"))).encode());
    }

    @Test
    void zeroRowsIsAnEmptyArrayAndColumnOrderIsKept() {
        assertEquals(new JsonArray(), rows("SELECT id, name FROM users WHERE id = {{ inputs.id }}", 999L));
        JsonObject row = rows("SELECT email, name, id FROM users WHERE id = {{ inputs.id }}", 1L).getJsonObject(0);
        assertEquals(List.of("email", "name", "id"), List.copyOf(row.fieldNames()));
        assertEquals("{\"email\":\"alice@example.com\",\"name\":\"Alice\",\"id\":1}", row.encode());
    }

    @Test
    void writesReportRowsAffected() {
        String table = TestDatabases.uniqueName("w");
        assertEquals("[{\"rows_affected\":0}]", rows("CREATE TABLE " + table + " (id INT PRIMARY KEY, v VARCHAR(20))").encode());
        try {
            assertEquals("[{\"rows_affected\":3}]", rows("INSERT INTO " + table
                    + " (id, v) VALUES ({{ inputs.a }}, {{ inputs.b }}), (2, 'b'), (3, 'c')", 1L, "a").encode());
            assertEquals("[{\"rows_affected\":2}]", rows("UPDATE " + table + " SET v = 'x' WHERE id > {{ inputs.id }}", 1L).encode());
            assertEquals("[{\"rows_affected\":0}]", rows("DELETE FROM " + table + " WHERE id = 99").encode());
            assertEquals("[{\"id\":1,\"v\":\"a\"}]", rows("DELETE FROM " + table + " WHERE id = {{ inputs.id }} RETURNING id, v", 1L).encode());
            assertEquals("[{\"n\":2}]", rows("SELECT count(*) AS n FROM " + table).encode());
        } finally {
            rows("DROP TABLE " + table);
        }
    }

    @Test
    void boundValuesOfEveryInputType() {
        // the shapes tool inputs arrive in: Long, Double, Boolean, String, ISO-8601 text, null
        String t = "SELECT id FROM things WHERE n = {{ inputs.n }} AND price = {{ inputs.price }}"
                + " AND ratio > {{ inputs.ratio }} AND active = {{ inputs.active }} AND label = {{ inputs.label }}"
                + " AND born = {{ inputs.born }} AND created >= {{ inputs.since }} ORDER BY id";
        assertEquals("[{\"id\":1}]", rows(t, 10L, 19.99, 0.25, true, "first", "2000-01-31", "2024-01-01T00:00:00").encode());
        assertEquals("[{\"id\":1}]", rows(t, 10L, 19.99, 0.25, true, "first", "2000-01-31", "2024-01-01 00:00:00").encode());
        assertEquals("[{\"id\":1}]", rows(t, 10L, 19.99, 0.25, true, "first", "2000-01-31", "2024-01-01").encode());
        assertEquals(new JsonArray(), rows(t, 10L, 19.99, 0.25, false, "first", "2000-01-31", "2024-01-01"));
        // an optional filter: IS NULL with a missing value, and with one given
        String optional = "SELECT id FROM things WHERE ({{ inputs.since }} IS NULL OR created >= {{ inputs.since }})"
                + " AND ({{ inputs.label }} IS NULL OR label = {{ inputs.label }}) ORDER BY id";
        assertEquals("[{\"id\":1},{\"id\":2},{\"id\":3}]", rows(optional, null, null, null, null).encode());
        assertEquals("[{\"id\":2},{\"id\":3}]", rows(optional, "2024-06-01", "2024-06-01", null, null).encode());
        assertEquals("[{\"id\":3}]", rows(optional, "2024-06-01", "2024-06-01", "third", "third").encode());
        // values returned as given
        JsonObject echo = rows("SELECT {{ inputs.n }} + 1 AS n, {{ inputs.s }} AS s", 41L, "it's").getJsonObject(0);
        assertEquals(42, echo.getInteger("n"));
        assertEquals("it's", echo.getString("s"));
    }

    // ---- placeholders ----

    @Test
    void placeholdersInEveryPosition() {
        // bare, whole quoted literal, inside a literal, LIKE prefix/suffix/contains, LIMIT, IN, functions, CASE
        assertEquals("[{\"name\":\"Bob\"}]", rows("SELECT name FROM users WHERE id = {{ inputs.id }}", 2L).encode());
        assertEquals("[{\"id\":2}]", rows("SELECT id FROM users WHERE name = '{{ inputs.name }}'", "Bob").encode());
        assertEquals("[{\"id\":2}]", rows("SELECT id FROM users WHERE email = '{{ inputs.user }}@example.com'", "bob").encode());
        assertEquals("[{\"id\":1},{\"id\":3}]", rows("SELECT id FROM users WHERE name LIKE '%{{ inputs.q }}%' ORDER BY id", "li").encode());
        assertEquals("[{\"id\":3}]", rows("SELECT id FROM users WHERE name LIKE '{{ inputs.q }}%'", "Ch").encode());
        assertEquals("[{\"id\":1},{\"id\":3}]", rows("SELECT id FROM users WHERE email LIKE '%{{ inputs.q }}' AND name LIKE '%e' ORDER BY id",
                "example.com").encode());
        assertEquals("[{\"id\":1},{\"id\":2}]", rows("SELECT id FROM users ORDER BY id LIMIT {{ inputs.n }}", 2L).encode());
        assertEquals("[{\"id\":1},{\"id\":3}]", rows("SELECT id FROM users WHERE id IN ({{ inputs.a }}, {{ inputs.b }}) ORDER BY id",
                1L, 3L).encode());
        assertEquals("[{\"id\":2}]", rows("SELECT id FROM users WHERE lower(name) = lower({{ inputs.n }})", "BOB").encode());
        assertEquals("[{\"k\":\"big\"}]", rows("SELECT CASE WHEN {{ inputs.v }} > 10 THEN 'big' ELSE 'small' END AS k", 11L).encode());
        assertEquals("[{\"greeting\":\"hello, it's 'me'\"}]", rows("SELECT 'hello, {{ inputs.who }}' AS greeting", "it's 'me'").encode());
        // the same input twice, and a placeholder next to text that must not join it
        assertEquals("[{\"id\":2}]", rows("SELECT id FROM users WHERE id = {{ inputs.id }} AND id+0 = {{ inputs.id }}", 2L, 2L).encode());
        // inside comments a placeholder is only text
        assertEquals("[{\"id\":1}]", rows("SELECT id FROM users /* {{ inputs.x }} */ WHERE id = 1 -- {{ inputs.y }}\n").encode());
    }

    @Test
    void writesWithPlaceholders() {
        String table = TestDatabases.uniqueName("p");
        rows("CREATE TABLE " + table + " (id INT PRIMARY KEY, note VARCHAR(100))");
        try {
            rows("INSERT INTO " + table + " (id, note) VALUES ({{ inputs.id }}, '[{{ inputs.note }}]')", 1L, "x'); DROP TABLE users; --");
            rows("UPDATE " + table + " SET note = CONCAT(note, {{ inputs.more }}) WHERE id = {{ inputs.id }}", "!", 1L);
            assertEquals("[{\"note\":\"[x'); DROP TABLE users; --]!\"}]", rows("SELECT note FROM " + table).encode());
            assertEquals(3, count("users"));
        } finally {
            rows("DROP TABLE " + table);
        }
    }

    @Test
    void injectionAttemptsAreJustValues() {
        List<String> templates = List.of(
                "SELECT id FROM users WHERE name = '{{ inputs.v }}'",
                "SELECT id FROM users WHERE name = {{ inputs.v }}",
                "SELECT id FROM users WHERE name LIKE '{{ inputs.v }}%'",
                "SELECT id FROM users WHERE name LIKE '%{{ inputs.v }}%'",
                "SELECT id FROM users WHERE email = '{{ inputs.v }}@example.com'",
                "SELECT id FROM users WHERE name = 'x{{ inputs.v }}'");
        for (String template : templates) {
            CompiledStatement compiled = compile(template);
            for (String attack : ATTACKS) {
                assertFalse(attack.length() > 3 && compiled.text().contains(attack), template);
                QueryResult result = await(db.execute(compiled, List.of(attack), QueryOptions.of(100, TIMEOUT)));
                assertEquals(new JsonArray(), result.rows(), template + " with " + attack);
            }
        }
        // a number column: the value is refused or compared as a number, never run
        for (String attack : ATTACKS) {
            Future<QueryResult> f = execute(db, "SELECT id FROM users WHERE id = {{ inputs.v }}", 100, TIMEOUT, attack);
            JsonArray rows = f.toCompletionStage().toCompletableFuture().handle((r, e) -> e == null ? r.rows() : new JsonArray()).join();
            assertTrue(rows.size() <= 1, attack + " returned " + rows);
        }
        assertEquals(3, count("users"));
        assertEquals(List.of("Alice", "Bob", "Charlie"), column(rows("SELECT name FROM users ORDER BY id"), "name"));
    }

    // ---- row cap ----

    @Test
    void rowLimitCutsAndSaysSo() {
        QueryResult cut = await(execute(db, "SELECT n FROM seq ORDER BY n", 3, TIMEOUT));
        assertEquals("[{\"n\":1},{\"n\":2},{\"n\":3}]", cut.rows().encode());
        assertTrue(cut.truncated());
        QueryResult exact = await(execute(db, "SELECT n FROM seq", 50, TIMEOUT));
        assertEquals(50, exact.rows().size());
        assertFalse(exact.truncated());
        assertFalse(await(execute(db, "SELECT n FROM seq", 51, TIMEOUT)).truncated());
        QueryResult one = await(execute(db, "SELECT n FROM seq WHERE n > {{ inputs.n }} ORDER BY n", 1, TIMEOUT, 48L));
        assertEquals("[{\"n\":49}]", one.rows().encode());
        assertTrue(one.truncated());
        // a write's single rows_affected row is not cut
        QueryResult write = await(execute(db, "UPDATE seq SET n = n WHERE n < 0", 1, TIMEOUT));
        assertEquals("[{\"rows_affected\":0}]", write.rows().encode());
        assertFalse(write.truncated());
    }

    /** 1 MiB of text per row: a 4mb result holds three of them (with their column names). */
    protected static final int MIB = 1 << 20;

    @Test
    void theSizeLimitCutsRowsAsTheyArriveAndSaysSo() {
        // a cursor-read SELECT, and a statement read without one (MySQL reads WITH so)
        for (String template : List.of("SELECT n, repeat('x', " + MIB + ") AS body FROM seq ORDER BY n",
                "WITH s AS (SELECT n FROM seq) SELECT n, repeat('x', " + MIB + ") AS body FROM s ORDER BY n")) {
            QueryResult cut = await(db.execute(compile(template), List.of(), QueryOptions.of(1000, 4L * MIB, TIMEOUT)));
            assertEquals(3, cut.rows().size(), template);
            assertEquals(List.of(1, 2, 3), cut.rows().stream()
                    .map(r -> ((Number) ((JsonObject) r).getValue("n")).intValue()).collect(Collectors.toList()));
            assertEquals(MIB, cut.rows().getJsonObject(2).getString("body").length());
            assertEquals(ResultCut.BYTE_LIMIT, cut.cut(), template);
            // the row limit still applies first when it is the smaller cap
            QueryResult rows = await(db.execute(compile(template), List.of(), QueryOptions.of(2, 4L * MIB, TIMEOUT)));
            assertEquals(2, rows.rows().size());
            assertEquals(ResultCut.ROW_LIMIT, rows.cut());
        }
        // small rows under a big limit are not cut; the same rows under a small one are
        QueryResult whole = await(db.execute(compile("SELECT n FROM seq"), List.of(), QueryOptions.of(1000, 4L * MIB, TIMEOUT)));
        assertEquals(50, whole.rows().size());
        assertEquals(ResultCut.NONE, whole.cut());
        QueryResult small = await(db.execute(compile("SELECT n FROM seq ORDER BY n"), List.of(),
                QueryOptions.of(1000, 50, TIMEOUT)));
        // six rows are 49 bytes of JSON, a seventh would make 57
        assertEquals("[{\"n\":1},{\"n\":2},{\"n\":3},{\"n\":4},{\"n\":5},{\"n\":6}]", small.rows().encode());
        assertEquals(ResultCut.BYTE_LIMIT, small.cut());
    }

    @Test
    void aFirstRowLargerThanTheSizeLimitGivesNoRowsAndTheCut() {
        QueryResult none = await(db.execute(compile("SELECT n, repeat('x', 5000) AS body FROM seq ORDER BY n"),
                List.of(), QueryOptions.of(1000, 4096, TIMEOUT)));
        assertEquals(new JsonArray(), none.rows());
        assertEquals(ResultCut.BYTE_LIMIT, none.cut());
        // the connection is fine afterwards (the cursor was closed)
        assertEquals(50, count("seq"));
    }

    // ---- time limit and cancellation ----

    @Test
    void timeoutStopsTheStatementOnTheServerAndThePoolStaysUsable() throws Exception {
        Connector c = connect(Map.of("max_connections", "1"));
        String marker = TestDatabases.uniqueName("slow");
        long start = System.nanoTime();
        assertEquals("statement timed out after 300ms",
                error(execute(c, sleep(10) + " /* " + marker + " */", 10, Duration.ofMillis(300))));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "fails at the time limit");
        assertStopsOnServer(marker);
        // the only connection is back and not hit by a late cancel
        assertEquals("[{\"one\":1}]", rows(c, "SELECT 1 AS one").encode());
        assertEquals("statement timed out after 1s", error(execute(c, sleep(10), 10, Duration.ofSeconds(1))));
        assertEquals("[{\"two\":2}]", rows(c, "SELECT 2 AS two").encode());
    }

    @Test
    void cancellationStopsARunningStatement() throws Exception {
        Connector c = connect(Map.of("max_connections", "1"));
        String marker = TestDatabases.uniqueName("cancel");
        Promise<Void> cancel = Promise.promise();
        long start = System.nanoTime();
        Future<QueryResult> running = c.execute(compile(sleep(10) + " /* " + marker + " */"), List.of(),
                new QueryOptions(10, 1L << 20, Duration.ofSeconds(30), cancel.future()));
        vertx.setTimer(300, id -> cancel.complete());
        assertEquals("statement cancelled", error(running));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
        assertStopsOnServer(marker);
        assertEquals("[{\"one\":1}]", rows(c, "SELECT 1 AS one").encode());
    }

    @Test
    void timeoutWhileWaitingForAConnection() {
        Connector c = connect(Map.of("max_connections", "1"));
        Future<QueryResult> slow = execute(c, sleep(10), 10, Duration.ofMillis(1500));
        assertEquals("statement timed out after 200ms", error(execute(c, "SELECT 1", 10, Duration.ofMillis(200))));
        assertEquals("statement timed out after 1500ms", error(slow));
        assertEquals("[{\"ok\":1}]", rows(c, "SELECT 1 AS ok").encode());
    }

    @Test
    void concurrentCallsShareThePool() {
        Connector c = connect(Map.of("max_connections", "3"));
        List<Future<QueryResult>> calls = new ArrayList<>();
        for (long i = 1; i <= 30; i++) {
            calls.add(execute(c, "SELECT n FROM seq WHERE n = {{ inputs.n }}", 10, TIMEOUT, i));
        }
        for (int i = 0; i < calls.size(); i++) {
            assertEquals("[{\"n\":" + (i + 1) + "}]", await(calls.get(i)).rows().encode());
        }
    }

    // ---- errors and checks ----

    @Test
    void databaseErrorsCarryTheDriversReason() {
        String unknown = error(execute(db, "SELECT nope FROM users", 10, TIMEOUT));
        assertTrue(unknown.startsWith(unknownColumnReason()), unknown);
        assertFalse(unknown.contains("\n"), unknown);
        assertFalse(unknown.contains("Exception"), unknown);
        String syntax = error(execute(db, "SELEC 1", 10, TIMEOUT));
        assertTrue(syntax.toLowerCase().contains("syntax"), syntax);
        String duplicate = error(execute(db, "INSERT INTO users (id, name) VALUES (1, 'again')", 10, TIMEOUT));
        assertTrue(duplicate.toLowerCase().contains("duplicate"), duplicate);
    }

    @Test
    void checkPreparesWithoutRunning() {
        await(db.check(compile("DELETE FROM users WHERE id = {{ inputs.id }}")));
        await(db.check(compile("SELECT id FROM users WHERE ({{ inputs.q }} IS NULL OR name = {{ inputs.q }})")));
        assertEquals(3, count("users"));
        Throwable bad = failure(db.check(compile("SELECT nope FROM users WHERE id = {{ inputs.id }}")));
        assertInstanceOf(ConnectorException.class, bad);
        assertTrue(bad.getMessage().contains(unknownColumnReason()), bad.getMessage());
        assertTrue(failure(db.check(compile("SELEC 1"))).getMessage().toLowerCase().contains("syntax"));
        assertInstanceOf(ConnectorException.class, failure(db.check(compile("SELECT * FROM no_such_table"))));
    }

    /** A table that does not exist is usually a schema never loaded: the message says so, naming the adapter. */
    @Test
    void aMissingTableHintsAtLoadingTheSchema() {
        String hint = "(is the schema loaded? adapter 'db' (" + factory().type() + ") reaches its database, but the "
                + "table is not there: create the tables its tools use; for the example projects run "
                + "tools-examples/load.sh " + factory().type() + ")";
        String running = error(execute(db, "SELECT * FROM no_such_table", 10, TIMEOUT));
        assertTrue(running.endsWith(hint), running);
        String checking = failure(db.check(compile("SELECT * FROM no_such_table"))).getMessage();
        assertTrue(checking.endsWith(hint), checking);
        String column = error(execute(db, "SELECT nope FROM users", 10, TIMEOUT));
        assertFalse(column.contains("schema"), column);
    }

    @Test
    void argumentsAreValidated() {
        assertInstanceOf(IllegalArgumentException.class,
                failure(db.execute(compile("SELECT {{ inputs.a }}"), List.of(), QueryOptions.of(10, TIMEOUT))));
        assertInstanceOf(IllegalArgumentException.class,
                failure(db.execute(compile("SELECT 1"), List.of(), QueryOptions.of(0, TIMEOUT))));
        assertEquals("db", db.adapterName());
        assertEquals(factory().dialect(), db.dialect());
    }

    // ---- connecting ----

    @Test
    void connectFailuresNameTheServerButNeverThePassword() {
        String url = TestDatabases.withAddress(serverUrl(), "127.0.0.1", 1);
        String withPassword = url.replaceFirst("://([^:@/]+)(:[^@/]*)?@", "://$1:s3cret-pw@");
        String refused = connectFailure(withPassword, Map.of("connect_timeout", "2s"));
        assertTrue(refused.contains("127.0.0.1:1/"), refused);
        assertTrue(refused.toLowerCase().contains("refused"), refused);
        assertFalse(refused.contains("s3cret-pw"), refused);
        String database = TestDatabases.uniqueName("missing");
        String missing = connectFailure(TestDatabases.withDatabase(serverUrl(), database), Map.of());
        assertTrue(missing.contains(database), missing);
    }

    @Test
    void unknownOptionsAreWarningsThatListTheKnownOnes() {
        // as Hyperterse, an option the connector does not use is ignored: named as written, with the known ones
        java.util.List<String> warnings = factory().check(adapter(isolation.url(), Map.of("Pool_Sizzle", "3")),
                Path.of("."));
        assertEquals(1, warnings.size(), warnings.toString());
        String message = warnings.get(0);
        assertTrue(message.startsWith("adapter 'db': option 'Pool_Sizzle' is not used by the " + factory().type()
                + " connector and is ignored; known options: "), message);
        assertTrue(message.contains("connect_timeout") && message.contains("max_connections"), message);
        Map<String, String> withUnknown = new HashMap<>(isolation.options());
        withUnknown.put("Pool_Sizzle", "3");
        assertEquals("[{\"one\":1}]", rows(connectTo(isolation.url(), withUnknown), "SELECT 1 AS one").encode(),
                "an adapter with an option the connector does not use still connects");
        assertTrue(connectFailure(isolation.url(), Map.of("max_connections", "0")).contains("option max_connections is '0'"));
        assertTrue(connectFailure(isolation.url(), Map.of("idle_timeout", "soon")).contains("option idle_timeout"));
        // the options the server reads for every connector are accepted
        Map<String, String> generic = new HashMap<>();
        generic.put("row_limit", "100");
        generic.put("statement_timeout", "5s");
        assertEquals("[{\"one\":1}]", rows(connect(generic), "SELECT 1 AS one").encode());
    }

    // ---- outages ----

    @Test
    void aDatabaseThatGoesDownFailsFastAndIsUsedAgainWhenBack() throws Exception {
        String host = TestDatabases.host(isolation.url());
        int port = TestDatabases.port(isolation.url(), defaultPort());
        try (TcpProxy proxy = TcpProxy.start(vertx, host, port)) {
            Connector c = connectTo(TestDatabases.withAddress(isolation.url(), "127.0.0.1", proxy.port()),
                    isolation.options());
            assertEquals(3, rows(c, "SELECT count(*) AS n FROM users").getJsonObject(0).getInteger("n"));
            assertEquals(null, failureOf(c.ping()), "ping answers while the database is up");

            proxy.cut();
            String pingDown = failureOf(c.ping());
            assertTrue(pingDown != null && pingDown.startsWith("database unavailable: "), "ping reports the outage: " + pingDown);
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                String message = error(execute(c, "SELECT count(*) AS n FROM users", 10, TIMEOUT));
                assertTrue(message.startsWith("database unavailable: "), message);
                assertTrue(message.contains("127.0.0.1:" + proxy.port()), message);
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "fails fast: " + message);
            }

            proxy.restore();
            assertEquals(3, rows(c, "SELECT count(*) AS n FROM users").getJsonObject(0).getInteger("n"),
                    "the first call after the database is back succeeds");
            assertEquals(null, failureOf(c.ping()));

            // a statement running when the connection drops fails clearly too
            Future<QueryResult> running = execute(c, sleep(5), 10, TIMEOUT);
            vertx.setTimer(300, id -> proxy.cut());
            String lost = error(running);
            assertTrue(lost.startsWith("database unavailable: "), lost);
            proxy.restore();
            assertEquals("[{\"one\":1}]", rows(c, "SELECT 1 AS one").encode());
        }
    }

    /** The failure message of a finished future, or null when it succeeded. */
    static String failureOf(Future<?> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().handle((v, e) -> e == null ? null
                : (e instanceof java.util.concurrent.CompletionException ? e.getCause() : e).getMessage())
                .get(30, TimeUnit.SECONDS);
    }
}
