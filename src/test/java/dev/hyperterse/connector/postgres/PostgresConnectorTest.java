package dev.hyperterse.connector.postgres;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.model.ResultCut;
import dev.hyperterse.connector.sql.SqlConnectorContract;
import dev.hyperterse.pipeline.OutputShape;
import dev.hyperterse.testing.LogCapture;
import dev.hyperterse.testing.OutputSchemas;
import dev.hyperterse.testing.SqlDatabase;
import dev.hyperterse.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import io.vertx.core.Future;

import static dev.hyperterse.testing.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQL connector contract on PostgreSQL, plus what only PostgreSQL has. */
class PostgresConnectorTest extends SqlConnectorContract {

    PostgresConnectorTest() {
        super(SqlDatabase.POSTGRES);
    }

    @Override
    protected Isolation isolate(Connector admin) {
        String schema = TestDatabases.uniqueName("hyperterse_test");
        rows(admin, "CREATE SCHEMA " + schema);
        return new Isolation(schema, serverUrl(), Map.of("search_path", schema));
    }

    @Override
    protected void dropIsolation(Connector admin, Isolation isolation) {
        rows(admin, "DROP SCHEMA " + isolation.name() + " CASCADE");
    }

    @Override
    protected String usersWithIdsIn() {
        return "SELECT name FROM users WHERE id = ANY({{ inputs.ids }}) ORDER BY id";
    }

    @Override
    protected String cityOfFilter() {
        return "SELECT {{ inputs.filter }}::jsonb ->> 'city' AS city";
    }

    @Override
    protected List<String> schema() {
        return List.of(USERS.get(0), USERS.get(1),
                "CREATE TABLE things (id INT PRIMARY KEY, n INT, price NUMERIC(10,2), ratio DOUBLE PRECISION,"
                        + " active BOOLEAN, label VARCHAR(50), born DATE, created TIMESTAMP)",
                THINGS_ROWS, SEQ_TABLE,
                "INSERT INTO seq SELECT generate_series(1, 50)");
    }

    @Override
    protected String sleep(int seconds) {
        return "SELECT pg_sleep(" + seconds + ")";
    }

    @Override
    protected String runningStatementsLike() {
        return "SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE '%{{ inputs.m }}%' AND state = 'active'"
                + " AND pid <> pg_backend_pid()";
    }

    @Override
    protected String unknownColumnReason() {
        return "column \"nope\" does not exist (SQLSTATE 42703)";
    }

    @Override
    protected String typedColumns() {
        return "i2=integer i4=integer i8=integer f4=number|string f8=number|string num=number|string"
                + " big=number|string b=boolean t=string vc=string ch=string d=string tm=string ts=string tstz=string"
                + " iv=string j=* jb=* u=string(uuid) bin=string ai=array at=array nothing=integer nan=number|string"
                + " inf=number|string cash=number|string addr=string tinf=string";
    }

    @Override
    protected TypedRow typedRow() {
        return new TypedRow("CREATE TABLE typed (i2 SMALLINT, i4 INTEGER, i8 BIGINT, f4 REAL, f8 DOUBLE PRECISION, num NUMERIC(30,10),"
                + " big NUMERIC, b BOOLEAN, t TEXT, vc VARCHAR(10), ch CHAR(3), d DATE, tm TIME, ts TIMESTAMP,"
                + " tstz TIMESTAMPTZ, iv INTERVAL, j JSON, jb JSONB, u UUID, bin BYTEA, ai INTEGER[], at TEXT[],"
                + " nothing INTEGER, nan NUMERIC, inf DOUBLE PRECISION, cash MONEY, addr INET, tinf TIMESTAMP)",
                "INSERT INTO typed VALUES (-2, 2147483647, 9007199254740993, 1.5, 0.1, 12345.6789, 12345678901234567890.123456789,"
                + " true, 'hé \"quoted\"', 'v', 'ab', '2024-02-29', '13:45:30.25', '2024-02-29 13:45:30',"
                + " '2024-02-29 13:45:30+02', '1 day 2 hours 3.5 seconds', '{\"a\": [1, 2]}', '{\"b\": null}',"
                + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0001ff', '{1,2,NULL}', '{\"x\",\"y z\"}', NULL, 'NaN',"
                + " 'Infinity', 12.34, '192.168.0.1/24', 'infinity')",
                "{\"i2\":-2,\"i4\":2147483647,\"i8\":9007199254740993,\"f4\":1.5,\"f8\":0.1,\"num\":12345.6789000000,"
                        + "\"big\":\"12345678901234567890.123456789\",\"b\":true,\"t\":\"hé \\\"quoted\\\"\",\"vc\":\"v\","
                        + "\"ch\":\"ab \",\"d\":\"2024-02-29\",\"tm\":\"13:45:30.25\",\"ts\":\"2024-02-29T13:45:30\","
                        + "\"tstz\":\"2024-02-29T11:45:30Z\",\"iv\":\"P1DT2H3.5S\",\"j\":{\"a\":[1,2]},\"jb\":{\"b\":null},"
                        + "\"u\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\",\"bin\":\"AAH/\",\"ai\":[1,2,null],"
                        + "\"at\":[\"x\",\"y z\"],\"nothing\":null,\"nan\":\"NaN\",\"inf\":\"Infinity\",\"cash\":12.34,"
                        + "\"addr\":\"192.168.0.1/24\",\"tinf\":\"infinity\"}");
    }

    /**
     * The time limit's cancel request covers a statement's first describe: its PREPARE waiting on
     * a lock is stopped on the server and the connection goes back to the pool (issue: the
     * describe ran before the cancel hook was set, so the call answered "timed out" while the
     * PREPARE went on waiting, holding the connection, until the lock was released).
     */
    @Test
    void theTimeLimitStopsAFirstDescribeWaitingOnALock() throws Exception {
        rows("CREATE TABLE prep_lock (id INT)");
        try {
            Future<QueryResult> locker = execute(db, "DO $$ BEGIN LOCK TABLE prep_lock IN ACCESS EXCLUSIVE MODE;"
                    + " PERFORM pg_sleep(8); END $$", 10, TIMEOUT);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (rows("SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation"
                    + " WHERE c.relname = 'prep_lock' AND l.mode = 'AccessExclusiveLock' AND l.granted")
                    .getJsonObject(0).getLong("n") == 0) {
                assertTrue(System.nanoTime() < deadline, "the lock is taken");
                Thread.sleep(20);
            }
            // a connector of its own: the statement has not been described yet
            Connector c = connect(Map.of("max_connections", "1"));
            String marker = TestDatabases.uniqueName("locked");
            assertEquals("statement timed out after 300ms",
                    error(execute(c, "SELECT id FROM prep_lock /* " + marker + " */", 10, Duration.ofMillis(300))));
            assertStopsOnServer(marker);
            long start = System.nanoTime();
            assertEquals("[{\"one\":1}]", rows(c, "SELECT 1 AS one").encode());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "the connection is free again");
            await(locker);
        } finally {
            rows("DROP TABLE prep_lock");
        }
    }

    /**
     * A row far larger than result_max_bytes is refused before it is read (issue: one 60 MB value
     * was read whole, failed with "Cannot reserve … bytes of direct buffer memory", stretched a
     * 30 s statement timeout to nearly a minute and left its backend blocked writing): the call
     * fails at once naming the cap, the backend stops, and the pool serves the next call on a
     * fresh connection. A row over the cap but not far over it is still cut as before.
     */
    @Test
    void aRowFarLargerThanTheSizeLimitIsRefusedUnreadAndItsConnectionDiscarded() throws Exception {
        Connector c = connect(Map.of("max_connections", "1"));
        String marker = TestDatabases.uniqueName("huge");
        long start = System.nanoTime();
        String failure = error(c.execute(compile("SELECT n, repeat('x', 20 * 1024 * 1024) AS body FROM seq"
                        + " WHERE n <= 2 ORDER BY n /* " + marker + " */"), List.of(),
                QueryOptions.of(1000, MIB, Duration.ofSeconds(30))));
        assertTrue(failure.startsWith("the result exceeds result_max_bytes (1mb): a row of "), failure);
        assertTrue(failure.endsWith(" bytes came from PostgreSQL, too large to read; the statement was stopped."
                + " Select fewer or shorter columns"), failure);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "refused without reading it");
        assertStopsOnServer(marker);
        assertEquals("[{\"one\":1}]", rows(c, "SELECT 1 AS one").encode());
        QueryResult cut = await(c.execute(compile("SELECT n, repeat('x', 2 * 1024 * 1024) AS body FROM seq"
                + " WHERE n <= 2 ORDER BY n"), List.of(), QueryOptions.of(1000, MIB, Duration.ofSeconds(30))));
        assertEquals(0, cut.rows().size());
        assertEquals(ResultCut.BYTE_LIMIT, cut.cut());
    }

    @Test
    void valuesAreConvertedToEachParameterType() {
        // what the server inferred decides: an int input for a numeric, text for a uuid and a timestamptz
        JsonObject row = rows("SELECT {{ inputs.a }}::numeric * 2 AS a, {{ inputs.u }}::uuid AS u,"
                        + " {{ inputs.ts }}::timestamptz AS ts, {{ inputs.j }}::jsonb -> 'k' AS j,"
                        + " {{ inputs.arr }}::int[] AS arr, {{ inputs.b }}::boolean AS b, {{ inputs.d }}::date AS d",
                "1.25", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "2024-06-01T12:00:00+02:00", "{\"k\": [true]}", "[1, 2]",
                "yes", "2024-06-01T23:59:00").getJsonObject(0);
        assertEquals("{\"a\":2.50,\"u\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\",\"ts\":\"2024-06-01T10:00:00Z\","
                + "\"j\":[true],\"arr\":[1,2],\"b\":true,\"d\":\"2024-06-01\"}", row.encode());
        // a 64-bit value for a 32-bit parameter is refused, not cut to 32 bits
        String overflow = error(execute(db, "SELECT id FROM users WHERE id = {{ inputs.id }}", 10, TIMEOUT, 4294967297L));
        assertEquals("input 'id' cannot be bound as integer: 4294967297 is out of range for type integer", overflow);
        assertEquals("input 'u' cannot be bound as uuid: expected a UUID such as 123e4567-e89b-12d3-a456-426614174000, got \"nope\"",
                error(execute(db, "SELECT {{ inputs.u }}::uuid", 10, TIMEOUT, "nope")));
        assertTrue(error(execute(db, "SELECT {{ inputs.j }}::jsonb", 10, TIMEOUT, "{oops")).contains("expected JSON text"));
        // an interval past what the client can hold names the input, as every value that does not fit does
        assertEquals("input 'i' cannot be bound as interval: 9223372036854775807 is out of range for type interval",
                error(execute(db, "SELECT {{ inputs.i }}::interval", 10, TIMEOUT, Long.MAX_VALUE)));
        // enums travel as text and the server checks them
        rows("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')");
        try {
            assertEquals("[{\"m\":\"happy\"}]", rows("SELECT {{ inputs.m }}::mood AS m", "happy").encode());
            assertTrue(error(execute(db, "SELECT {{ inputs.m }}::mood AS m", 10, TIMEOUT, "meh")).contains("22P02"));
        } finally {
            rows("DROP TYPE mood");
        }
    }

    @Test
    void aLongNumberWrittenAsTextIsJudgedWithoutParsingItOnTheEventLoop() {
        // reading digits into a BigInteger or BigDecimal takes time growing with the square of their
        // count: a caller's 400,000 digits held the event loop for seconds
        String nines = "9".repeat(400_000);
        try (LogCapture log = LogCapture.root()) {
            assertEquals("input 'n' cannot be bound as bigint: \"" + "9".repeat(40) + "…\" is out of range for type bigint",
                    error(execute(db, "SELECT {{ inputs.n }}::bigint AS n", 10, TIMEOUT, nines)));
            // leading zeros do not make a number large, as PostgreSQL reads it
            assertEquals("[{\"n\":-42}]", rows("SELECT {{ inputs.n }}::bigint AS n", " -" + "0".repeat(400_000) + "42")
                    .encode());
            assertEquals("input 'n' cannot be bound as numeric: \"" + "9".repeat(40) + "…\" has more than 1000 digits"
                            + " before or after its point; to bind a longer number, pass it as text and cast it in the"
                            + " statement: {{ inputs.x }}::text::numeric",
                    error(execute(db, "SELECT {{ inputs.n }}::numeric AS n", 10, TIMEOUT, nines)));
            // a short text can stand for as many digits, which the server would send back to be read
            assertEquals("input 'n' cannot be bound as numeric: \"9.9e131071\" has more than 1000 digits before or"
                            + " after its point; to bind a longer number, pass it as text and cast it in the statement:"
                            + " {{ inputs.x }}::text::numeric",
                    error(execute(db, "SELECT {{ inputs.n }}::numeric AS n", 10, TIMEOUT, "9.9e131071")));
            assertTrue(error(execute(db, "SELECT {{ inputs.n }}::numeric AS n", 10, TIMEOUT, "1e-1001"))
                    .endsWith("has more than 1000 digits before or after its point; to bind a longer number, pass it"
                            + " as text and cast it in the statement: {{ inputs.x }}::text::numeric"));
            assertEquals("[{\"n\":\"1" + "0".repeat(999) + "\"}]",
                    rows("SELECT {{ inputs.n }}::numeric AS n", "1e999").encode());
            // the limit is per side: 1000 digits before the point and 1000 after, 2,002 characters with a sign
            String widest = "-" + "9".repeat(1000) + "." + "9".repeat(1000);
            assertEquals("[{\"n\":\"" + widest + "\"}]", rows("SELECT {{ inputs.n }}::numeric AS n", widest).encode());
            String balanced = "1".repeat(900) + "." + "2".repeat(900);
            assertEquals("[{\"n\":\"" + balanced + "\"}]", rows("SELECT {{ inputs.n }}::numeric AS n", balanced).encode());
            for (String past : List.of("9".repeat(1001) + "." + "9", "9." + "9".repeat(1001), "9".repeat(1001) + "." + "9".repeat(1001))) {
                assertTrue(error(execute(db, "SELECT {{ inputs.n }}::numeric AS n", 10, TIMEOUT, past))
                        .endsWith("has more than 1000 digits before or after its point; to bind a longer number, pass"
                                + " it as text and cast it in the statement: {{ inputs.x }}::text::numeric"), past.length() + "");
            }
            // what the server reads as text stays possible, and an exponent is not a digit count
            assertEquals("[{\"n\":\"" + "9".repeat(1500) + "\"}]",
                    rows("SELECT {{ inputs.n }}::text::numeric AS n", "9".repeat(1500)).encode());
            assertEquals("[{\"n\":1500}]", rows("SELECT {{ inputs.n }}::numeric AS n", "1.5e3").encode());
            assertEquals("[{\"n\":-9223372036854775808}]",
                    rows("SELECT {{ inputs.n }}::bigint AS n", "-9223372036854775808").encode());
            assertTrue(error(execute(db, "SELECT {{ inputs.n }}::bigint AS n", 10, TIMEOUT, "9223372036854775808"))
                    .endsWith("is out of range for type bigint"));
            assertTrue(error(execute(db, "SELECT {{ inputs.n }}::bigint AS n", 10, TIMEOUT, "-"))
                    .endsWith("expected an integer, got \"-\""));
            assertEquals(List.of(), log.messagesContaining("has been blocked"));
        }
    }

    /**
     * The client reads a numeric column into a BigDecimal as each row arrives, on the event loop,
     * in time growing with the square of its digits: {@code '1e131000'} cast through text (as
     * docs/connectors.md recommends for long numbers) is 131,001 digits, a quarter of a second
     * each. Here 48 of them in one row, on a Vert.x that reports any loop task over half a second.
     */
    @Test
    void aNumericOfManyDigitsIsNotReadOnTheEventLoop() {
        Vertx strict = Vertx.vertx(new VertxOptions().setMaxEventLoopExecuteTime(500)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS).setBlockedThreadCheckInterval(50));
        try (LogCapture log = LogCapture.root()) {
            Connector c = await(factory().connect(strict, adapter(isolation().url(), isolation().options()),
                    Path.of(".")));
            try {
                StringBuilder columns = new StringBuilder("-n AS negative, ARRAY[n, -n] AS arr, 2.50 AS short");
                for (int i = 1; i <= 45; i++) {
                    columns.append(", n AS n").append(i);
                }
                QueryResult result = await(c.execute(compile("SELECT " + columns + " FROM (SELECT"
                                + " {{ inputs.n }}::text::numeric AS n) s"), List.of("1e131000"),
                        QueryOptions.of(10, 64L << 20, TIMEOUT)));
                JsonObject row = result.rows().getJsonObject(0);
                String digits = "1" + "0".repeat(131_000);
                assertEquals(digits, row.getString("n1"));
                assertEquals(digits, row.getString("n45"));
                assertEquals("-" + digits, row.getString("negative"));
                assertEquals(List.of(digits, "-" + digits), row.getJsonArray("arr").getList());
                // a number of a few digits is still a number
                assertEquals(new java.math.BigDecimal("2.50"), row.getValue("short"));
            } finally {
                await(c.close());
            }
            assertEquals(List.of(), log.messagesContaining("has been blocked"));
        } finally {
            await(strict.close());
        }
    }

    /** Numeric columns come as text from a statement rewritten around it: what the statement returns stays the same. */
    @Test
    void numericColumnsKeepTheirStatementsRowsOrderAndNames() {
        rows("CREATE TABLE amounts (id INT, amount NUMERIC)");
        try {
            // a write returning a numeric runs once
            assertEquals("[{\"id\":1,\"amount\":19.90}]",
                    rows("INSERT INTO amounts VALUES (1, {{ inputs.a }}) RETURNING id, amount", "19.90").encode());
            assertEquals(1, count("amounts"));
            rows("INSERT INTO amounts SELECT n, n * 1.5 FROM generate_series(2, 4) n");
            assertEquals("[{\"amount\":39.80}]",
                    rows("UPDATE amounts SET amount = amount * 2 WHERE id = 1 RETURNING amount").encode());
            assertEquals("[{\"id\":4,\"amount\":6.0},{\"id\":3,\"amount\":4.5},{\"id\":2,\"amount\":3.0},"
                    + "{\"id\":1,\"amount\":39.80}]", rows("SELECT id, amount FROM amounts ORDER BY id DESC").encode());
            // a repeated name holds the last column's value; any name is kept; a closing comment ends nothing
            assertEquals("[{\"x\":3.0,\"a \\\"b\\\"\":2}]", rows("SELECT id AS x, amount AS x, id AS \"a \"\"b\"\"\""
                    + " FROM amounts WHERE id = 2 -- the second").encode());
            // PostgreSQL does not take a WITH that writes inside another: it runs as written
            assertEquals("[{\"amount\":6.0}]",
                    rows("WITH d AS (DELETE FROM amounts WHERE id = 4 RETURNING amount) SELECT amount FROM d").encode());
            assertEquals(3, count("amounts"));
            // a read longer than one fetch, read again in a transaction
            QueryResult quarters = await(execute(db, "SELECT n::numeric / 4 AS q FROM generate_series(1, 3000) n",
                    3000, TIMEOUT));
            assertEquals(3000, quarters.rows().size());
            assertEquals(new java.math.BigDecimal("750.0000000000000000"), quarters.rows().getJsonObject(2999)
                    .getValue("q"));
            assertEquals("n=number|string", OutputSchemas.types(await(db.describe(
                    compile("SELECT amount AS n FROM amounts")))));
        } finally {
            rows("DROP TABLE amounts");
        }
    }

    @Test
    void numericInfinitiesAreTheirNames() {
        assertEquals("[{\"i\":\"Infinity\",\"j\":\"-Infinity\",\"k\":\"NaN\",\"l\":[\"Infinity\",1.5]}]",
                rows("SELECT 'Infinity'::numeric AS i, '-Infinity'::numeric AS j, 'NaN'::numeric AS k,"
                        + " ARRAY['Infinity', 1.5]::numeric[] AS l").encode());
    }

    @Test
    void aCallsArgumentsAreConvertedToTheProceduresParameterTypes() {
        // PREPARE does not take CALL, so its parameters are typed from the statement the client prepared
        rows("CREATE TABLE called (v BIGINT, d DATE)");
        rows("CREATE PROCEDURE put_int(a integer, d date) LANGUAGE sql AS $$ INSERT INTO called VALUES (a, d) $$");
        try {
            // a 64-bit value for the 32-bit argument is refused, not cut to 32 bits (it was stored as 1)
            assertEquals("input 'a' cannot be bound as integer: 4294967297 is out of range for type integer",
                    error(execute(db, "CALL put_int({{ inputs.a }}, {{ inputs.d }})", 10, TIMEOUT, 4294967297L,
                            "2024-06-01")));
            // text converts as for any other statement (it was refused with "No current cursor read")
            await(execute(db, "CALL put_int({{ inputs.a }}, {{ inputs.d }})", 10, TIMEOUT, "7", "2024-06-01"));
            assertEquals("[{\"v\":7,\"d\":\"2024-06-01\"}]", rows("SELECT v, d FROM called").encode());
        } finally {
            rows("DROP PROCEDURE put_int");
            rows("DROP TABLE called");
        }
    }

    @Test
    void aViolatedConstraintDoesNotShowTheRowsOtherColumns() {
        // PostgreSQL's detail for a NOT NULL or CHECK violation is the whole new row, columns the
        // tool never returns included; the caller gets the message, the constraint and the code
        rows("CREATE TABLE accounts (id INT PRIMARY KEY, age INT CHECK (age >= 0), nick TEXT NOT NULL,"
                + " password_hash TEXT)");
        rows("INSERT INTO accounts VALUES (1, 30, 'al', 'hash-s3cr3t')");
        try {
            assertEquals("new row for relation \"accounts\" violates check constraint \"accounts_age_check\""
                            + " (SQLSTATE 23514)",
                    error(execute(db, "UPDATE accounts SET age = {{ inputs.age }} WHERE id = {{ inputs.id }}", 10,
                            TIMEOUT, -1L, 1L)));
            assertEquals("null value in column \"nick\" of relation \"accounts\" violates not-null constraint"
                            + " (SQLSTATE 23502)",
                    error(execute(db, "UPDATE accounts SET nick = {{ inputs.nick }} WHERE id = {{ inputs.id }}", 10,
                            TIMEOUT, null, 1L)));
            // a detail that names only the key the caller wrote stays
            assertEquals("duplicate key value violates unique constraint \"accounts_pkey\" (SQLSTATE 23505):"
                            + " Key (id)=(1) already exists.",
                    error(execute(db, "INSERT INTO accounts (id, nick) VALUES ({{ inputs.id }}, 'x')", 10, TIMEOUT,
                            1L)));
        } finally {
            rows("DROP TABLE accounts");
        }
    }

    @Test
    void floatTextReadsAsPostgreSqlReadsIt() {
        // a number past a double's range is out of range, as PostgreSQL says, not an infinity
        assertEquals("input 'f' cannot be bound as double precision: \"1e400\" is out of range for type"
                + " double precision", error(execute(db, "SELECT {{ inputs.f }}::float8 AS f", 10, TIMEOUT, "1e400")));
        assertEquals("input 'f' cannot be bound as real: \"-1e400\" is out of range for type real",
                error(execute(db, "SELECT {{ inputs.f }}::float4 AS f", 10, TIMEOUT, "-1e400")));
        // PostgreSQL's names for the infinities and NaN
        assertEquals("[{\"a\":\"-Infinity\",\"b\":\"Infinity\",\"c\":\"NaN\",\"d\":2.5}]",
                rows("SELECT {{ inputs.a }}::float8 AS a, {{ inputs.b }}::float8 AS b, {{ inputs.c }}::float8 AS c,"
                        + " {{ inputs.d }}::float8 AS d", "-inf", "Infinity", "nan", " 2.5 ").encode());
    }

    @Test
    void anArrayMayBeWrittenAsPostgreSqlWritesIt() {
        // Hyperterse pastes a string input into the statement, so its projects pass '{1,3}' for an array
        assertEquals("[{\"name\":\"Alice\"},{\"name\":\"Charlie\"}]",
                rows("SELECT name FROM users WHERE id = ANY('{{ inputs.ids }}'::int[]) ORDER BY id", "{1, 3}").encode());
        assertEquals("[{\"t\":[\"a\",\"b c\",null,\"NULL\",\"say \\\"hi\\\"\",\"x,y\"]}]",
                rows("SELECT {{ inputs.t }}::text[] AS t", " {a, \"b c\" ,NULL,\"NULL\",\"say \\\"hi\\\"\",x\\,y} ").encode());
        assertEquals("[{\"t\":[]}]", rows("SELECT {{ inputs.t }}::int[] AS t", "{}").encode());
        assertEquals("input 'ids' cannot be bound as integer[]: expected an integer, got \"x\"",
                error(execute(db, "SELECT {{ inputs.ids }}::int[] AS t", 10, TIMEOUT, "{1,x}")));
        for (String bad : new String[] {"{1,2", "{{1,2},{3,4}}", "{1,,2}", "{1} x", "{\"a}"}) {
            assertEquals("input 'ids' cannot be bound as integer[]: expected an array such as [1, 2, 3] or {1,2,3},"
                    + " got \"" + bad + "\"", error(execute(db, "SELECT {{ inputs.ids }}::int[] AS t", 10, TIMEOUT, bad)),
                    bad);
        }
    }

    @Test
    void typedLiteralsWithPlaceholdersRun() {
        // as Hyperterse projects write them, the value pasted into the literal there
        assertEquals("[{\"d\":\"2024-03-01\",\"t\":\"2024-02-28T10:00:00.5\"}]",
                rows("SELECT (DATE '{{ inputs.d }}' + INTERVAL '{{ inputs.n }} days')::date AS d,"
                        + " TIMESTAMP '{{ inputs.d }} 10:00:00.5' AS t", "2024-02-28", "2", "2024-02-28").encode());
    }

    @Test
    void typedLiteralsFilledByOnePlaceholderReadTheTextAsPostgresqlDoes() {
        // the literal is the value as written: '7 days', 'epoch', 'allballs' are PostgreSQL's own readings
        assertEquals("[{\"i\":\"7 days 01:00:00\",\"d\":\"2024-03-01\",\"t\":\"00:00:00\",\"ts\":\"1970-01-01T00:00:00\"}]",
                rows("SELECT INTERVAL '{{ inputs.i }}'::text AS i, (DATE '{{ inputs.d }}' + 2)::text AS d,"
                        + " TIME '{{ inputs.t }}'::text AS t, TIMESTAMP '{{ inputs.ts }}' AS ts",
                        "7 days 1 hour", "2024-02-28", "allballs", "epoch").encode());
        assertEquals("[{\"later\":\"2024-03-07T00:00:00\"}]",
                rows("SELECT TIMESTAMP '2024-02-29' + INTERVAL '{{ inputs.p }}' AS later", "7 days").encode());
        // what the refusal of INTERVAL '{{ inputs.n }}' DAY suggests instead
        assertEquals("[{\"a\":\"3 days\",\"b\":\"3 days\"}]",
                rows("SELECT INTERVAL '{{ inputs.a }} days'::text AS a, ({{ inputs.b }} * INTERVAL '1 day')::text AS b",
                        "3", 3L).encode());
    }

    /**
     * The row description comes through the client's internal prepared statement
     * ({@link PgResultColumns}): pinned here, with what only PostgreSQL describes.
     */
    @Test
    void theServersRowDescriptionNamesAndTypesTheColumns() {
        assertEquals("id=integer", OutputSchemas.types(await(db.describe(
                compile("SELECT id FROM users WHERE ({{ inputs.q }} IS NULL OR name = {{ inputs.q }})")))));
        assertEquals("id=integer v=string", OutputSchemas.types(await(db.describe(
                compile("DELETE FROM users WHERE id = {{ inputs.id }} RETURNING id, name AS v")))));
        assertEquals(3, count("users"));
        // one key per name, as the row holds it: the last column's value
        assertEquals("n=integer n=string", OutputSchemas.types(await(db.describe(compile("SELECT 1 AS n, 'x' AS n")))));
        assertEquals("{\"type\":[\"string\",\"null\"]}", OutputShape.ofColumns(await(db.describe(
                compile("SELECT 1 AS n, 'x' AS n")))).schema().getJsonObject("properties").getJsonObject("rows")
                .getJsonObject("items").getJsonObject("properties").getJsonObject("n").encode());
        assertTrue(await(db.describe(compile("CREATE TEMP TABLE described_only (id INT)"))).affectsRows());
        assertEquals("s=*", OutputSchemas.types(await(db.describe(
                compile("SELECT 'users'::regclass AS s")))));
    }

    @Test
    void aStatementIsPreparedOncePerConnectionAndKept() {
        Connector c = connect(Map.of("max_connections", "1"));
        try {
            for (int i = 1; i <= 5; i++) {
                assertEquals("[{\"id\":2,\"kept_marker\":1}]",
                        rows(c, "SELECT id, 1 AS kept_marker FROM users WHERE id = {{ inputs.id }}", 2).encode());
            }
            // the one connection holds that statement once, not five times (nor closed after each call)
            assertEquals("[{\"n\":1}]", rows(c, "SELECT count(*)::int AS n FROM pg_prepared_statements"
                    + " WHERE statement LIKE '%kept' || '_marker%'").encode());
        } finally {
            await(c.close());
        }
    }

    @Test
    void aKeptStatementIsPreparedAgainWhenItsTableChanges() {
        Connector c = connect(Map.of("max_connections", "1"));
        try {
            rows("CREATE TABLE reshaped (id INT PRIMARY KEY, v INT)");
            rows("INSERT INTO reshaped VALUES (1, 10)");
            assertEquals("[{\"id\":1,\"v\":10}]", rows(c, "SELECT * FROM reshaped WHERE id = {{ inputs.id }}", 1).encode());
            rows("ALTER TABLE reshaped ALTER COLUMN v TYPE TEXT USING 'ten'");
            // the kept plan no longer fits: that call may fail, the next one prepares afresh
            execute(c, "SELECT * FROM reshaped WHERE id = {{ inputs.id }}", 10, TIMEOUT, 1)
                    .otherwiseEmpty().toCompletionStage().toCompletableFuture().join();
            assertEquals("[{\"id\":1,\"v\":\"ten\"}]", rows(c, "SELECT * FROM reshaped WHERE id = {{ inputs.id }}", 1).encode());
        } finally {
            rows("DROP TABLE reshaped");
            await(c.close());
        }
    }

    @Test
    void aCancelRequestNeverReachesTheNextStatementOnItsConnection() {
        // PostgreSQL acts on a cancel request asynchronously: one sent as a statement ends on its own
        // could stop whatever the connection runs next. Statements that end right at their limit
        // provoke it; the one connection's next statement must never be the one cancelled.
        Connector c = connect(Map.of("max_connections", "1"));
        try {
            int hit = 0;
            for (int i = 0; i < 25; i++) {
                execute(c, "SELECT pg_sleep(0.05)", 10, Duration.ofMillis(50)).otherwiseEmpty()
                        .toCompletionStage().toCompletableFuture().join();
                Future<QueryResult> next = execute(c, "SELECT pg_sleep(0.05) IS NULL AS ok", 10, TIMEOUT);
                if (next.toCompletionStage().toCompletableFuture().handle((r, e) -> e != null).join()) {
                    hit++;
                }
            }
            assertEquals(0, hit, "statements stopped by the cancel request of the one before");
        } finally {
            await(c.close());
        }
    }

    /**
     * Runs the statement until it counts as a fast read (eight runs in a row under 5 ms; its first
     * run describes it): from then on it shares a connection when other calls are under way.
     */
    private void warm(Connector c, String template, Object... values) {
        warm(c, compile(template), Arrays.asList(values), QueryOptions.of(1000, TIMEOUT));
    }

    private void warm(Connector c, CompiledStatement statement, List<Object> values, QueryOptions options) {
        dev.hyperterse.connector.sql.ReactiveSqlConnector sql = (dev.hyperterse.connector.sql.ReactiveSqlConnector) c;
        for (int i = 0; i < 500 && !sql.shares(statement); i++) {
            await(c.execute(statement, values, options));
        }
        assertTrue(sql.shares(statement), "never counted as a fast read");
    }

    private static int deepest(Connector c) {
        return ((dev.hyperterse.connector.sql.ReactiveSqlConnector) c).deepestSharing();
    }

    private static <T> List<T> awaitAll(List<Future<T>> calls) {
        return calls.stream().map(f -> f.toCompletionStage().toCompletableFuture().join()).toList();
    }

    /**
     * Once a read has been fast eight times in a row, calls of it share connections, several sent
     * before the first is answered; each call still gets its own row, never another call's.
     */
    @Test
    void fastReadsShareConnectionsAndEachCallGetsItsOwnAnswer() {
        Connector c = connect(Map.of("max_connections", "2"));
        try {
            rows("INSERT INTO seq SELECT generate_series(51, 400)");
            String read = "SELECT n, n * 7 AS seven FROM seq WHERE n = {{ inputs.n }}";
            warm(c, read, 1);
            List<Future<QueryResult>> calls = new java.util.ArrayList<>();
            for (int n = 1; n <= 400; n++) {
                calls.add(execute(c, read, 10, TIMEOUT, n));
            }
            List<QueryResult> answers = awaitAll(calls);
            for (int n = 1; n <= 400; n++) {
                assertEquals("[{\"n\":" + n + ",\"seven\":" + (7 * n) + "}]", answers.get(n - 1).rows().encode());
            }
            int deepest = deepest(c);
            assertTrue(deepest > 1 && deepest <= 16, "statements sent on one connection at once: " + deepest);
        } finally {
            await(c.close());
        }
    }

    /**
     * The same from event loops, as the server calls: each call issued on a context of its own
     * (as each HTTP request has) is answered on that context, with its own row.
     */
    @Test
    void callsFromEventLoopsShareConnectionsAndAreAnsweredOnTheirOwnContexts() throws Exception {
        Connector c = connect(Map.of("max_connections", "2"));
        try {
            String read = "SELECT {{ inputs.n }}::int AS n, pg_backend_pid() AS pid";
            warm(c, read, 1);
            int calls = 300;
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(calls);
            java.util.concurrent.ConcurrentLinkedQueue<String> wrong = new java.util.concurrent.ConcurrentLinkedQueue<>();
            io.vertx.core.Context loop = vertx.getOrCreateContext();
            for (int n = 1; n <= calls; n++) {
                int asked = n;
                // a context of its own per call, on one event loop, as the HTTP server makes them
                io.vertx.core.internal.ContextInternal own = ((io.vertx.core.internal.ContextInternal) loop).duplicate();
                own.runOnContext(v -> execute(c, read, 10, TIMEOUT, asked).onComplete(answer -> {
                    if (io.vertx.core.Vertx.currentContext() != own) {
                        wrong.add(asked + ": answered on another context");
                    } else if (answer.failed()) {
                        wrong.add(asked + ": " + answer.cause());
                    } else if (answer.result().rows().getJsonObject(0).getInteger("n") != asked) {
                        wrong.add(asked + ": got " + answer.result().rows().encode());
                    }
                    done.countDown();
                }));
            }
            assertTrue(done.await(30, TimeUnit.SECONDS), "all answered");
            assertEquals(List.of(), List.copyOf(wrong));
            assertTrue(deepest(c) > 1, "shared: " + deepest(c));
        } finally {
            await(c.close());
        }
    }

    @Test
    void withPipeliningOneEveryStatementRunsAlone() {
        Connector c = connect(Map.of("max_connections", "2", "pipelining", "1"));
        try {
            String read = "SELECT n FROM seq WHERE n = {{ inputs.n }}";
            for (int i = 0; i < 20; i++) {
                rows(c, read, 1);
            }
            List<Future<QueryResult>> calls = new java.util.ArrayList<>();
            for (int n = 1; n <= 50; n++) {
                calls.add(execute(c, read, 10, TIMEOUT, n));
            }
            awaitAll(calls);
            assertEquals(0, deepest(c));
        } finally {
            await(c.close());
        }
    }

    /**
     * A read that was fast gets stuck at the head of a shared connection. The calls sent behind it,
     * with the same time limit, do not wait for it: once the head has gone unanswered for a second the
     * connection is given up (the stuck statement stopped on the server) and they run again alone
     * and succeed; the stuck one runs again alone too and meets its own limit; nothing is left running.
     */
    @Test
    void aStuckSharedReadIsStoppedAndTheCallsBehindItRunAgainAlone() throws Exception {
        Connector c = connect(Map.of("max_connections", "2"));
        String marker = TestDatabases.uniqueName("stuck");
        try {
            String read = "SELECT n FROM seq WHERE n = {{ inputs.n }} AND pg_sleep({{ inputs.s }}::float) IS NOT NULL"
                    + " /* " + marker + " */";
            warm(c, read, 1, 0);
            long start = System.nanoTime();
            Duration limit = Duration.ofSeconds(4);
            Future<QueryResult> first = execute(c, read, 10, limit, 1, 0);
            Future<QueryResult> stuck = execute(c, read, 10, limit, 1, 30);
            List<Future<QueryResult>> behind = new java.util.ArrayList<>();
            for (int n = 2; n <= 6; n++) {
                behind.add(execute(c, read, 10, limit, n, 0));
            }
            assertEquals("[{\"n\":1}]", await(first).rows().encode());
            List<QueryResult> answers = awaitAll(behind);
            for (int n = 2; n <= 6; n++) {
                assertEquals("[{\"n\":" + n + "}]", answers.get(n - 2).rows().encode());
            }
            assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(3000), "not held up by the stuck read");
            assertTrue(deepest(c) > 1, "the calls behind it were sent on its connection: " + deepest(c));
            assertTrue(error(stuck).contains("timed out"), error(stuck));
            assertStopsOnServer(marker);
            assertEquals("[{\"n\":7}]", rows(c, read, 7, 0).encode());
        } finally {
            await(c.close());
        }
    }

    /**
     * A SELECT that writes (here: advances a sequence) fails on a shared connection, which is
     * read-only, before it changes anything; it runs again alone, and from then on always alone:
     * each call advances the sequence exactly once.
     */
    @Test
    void aReadThatWritesRunsAloneAndOnlyOnce() {
        Connector c = connect(Map.of("max_connections", "2"));
        String sequence = TestDatabases.uniqueName("shared_writes");
        try {
            rows("CREATE SEQUENCE " + sequence);
            String read = "SELECT nextval('" + sequence + "') AS v, {{ inputs.n }}::int AS n";
            warm(c, read, 0);
            long before = rows(c, "SELECT last_value AS v FROM " + sequence).getJsonObject(0).getLong("v");
            List<Future<QueryResult>> calls = new java.util.ArrayList<>();
            for (int n = 1; n <= 30; n++) {
                calls.add(execute(c, read, 10, TIMEOUT, n));
            }
            java.util.Set<Long> values = new java.util.TreeSet<>();
            for (QueryResult r : awaitAll(calls)) {
                values.add(r.rows().getJsonObject(0).getLong("v"));
            }
            assertEquals(30, values.size());
            assertEquals(before + 30, rows(c, "SELECT last_value AS v FROM " + sequence).getJsonObject(0).getLong("v"),
                    "advanced once per call");
            assertFalse(((dev.hyperterse.connector.sql.ReactiveSqlConnector) c).shares(compile(read)));
        } finally {
            rows("DROP SEQUENCE IF EXISTS " + sequence);
            await(c.close());
        }
    }

    /** A statement error on a shared connection fails its own call only. */
    @Test
    void aFailingStatementOnASharedConnectionFailsOnlyItsCall() {
        Connector c = connect(Map.of("max_connections", "1"));
        try {
            String read = "SELECT 60 / {{ inputs.d }}::int AS q";
            warm(c, read, 1);
            List<Future<QueryResult>> calls = new java.util.ArrayList<>();
            for (int d = 1; d <= 12; d++) {
                calls.add(execute(c, read, 10, TIMEOUT, d == 6 ? 0 : d));
            }
            for (int d = 1; d <= 12; d++) {
                Future<QueryResult> call = calls.get(d - 1);
                if (d == 6) {
                    assertTrue(error(call).contains("division by zero"), error(call));
                } else {
                    assertEquals("[{\"q\":" + (60 / d) + "}]", await(call).rows().encode());
                }
            }
            assertTrue(deepest(c) > 1, "shared: " + deepest(c));
        } finally {
            await(c.close());
        }
    }

    /**
     * A shared read that turns out to need more than one fetch, or to return a row too large for
     * its result, runs again alone: it comes whole (or refused with its own reason), and the
     * other calls on its connection are answered as usual.
     */
    @Test
    void aSharedReadNeedingMoreThanOneFetchOrTooLargeARowRunsAgainAlone() {
        Connector c = connect(Map.of("max_connections", "1"));
        try {
            String read = "SELECT n, repeat('x', {{ inputs.width }}::int) AS body FROM generate_series(1, {{ inputs.k }}::int) n";
            warm(c, compile(read), List.of(1, 1), QueryOptions.of(1000, MIB, TIMEOUT));
            List<Future<QueryResult>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 10; i++) {
                List<Object> args = i == 4 ? List.of(1, 300) : i == 7 ? List.of(20 * 1024 * 1024, 1) : List.of(1, 1);
                calls.add(c.execute(compile(read), args, QueryOptions.of(1000, MIB, TIMEOUT)));
            }
            for (int i = 0; i < 10; i++) {
                if (i == 7) {
                    assertTrue(error(calls.get(i)).startsWith("the result exceeds result_max_bytes (1mb): a row of "),
                            error(calls.get(i)));
                } else {
                    int call = i;
                    QueryResult result = org.junit.jupiter.api.Assertions.assertDoesNotThrow(
                            () -> calls.get(call).toCompletionStage().toCompletableFuture().join(), "call " + i);
                    assertEquals(i == 4 ? 300 : 1, result.rows().size());
                    assertEquals(ResultCut.NONE, result.cut());
                }
            }
            assertEquals("[{\"one\":1}]", rows(c, "SELECT 1 AS one").encode());
        } finally {
            await(c.close());
        }
    }

    @Test
    void theRowLimitStopsAnEndlessQueryOnTheServer() {
        long start = System.nanoTime();
        QueryResult cut = await(execute(db,
                "WITH RECURSIVE c(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM c) SELECT g FROM c", 5, TIMEOUT));
        assertEquals("[{\"g\":1},{\"g\":2},{\"g\":3},{\"g\":4},{\"g\":5}]", cut.rows().encode());
        assertTrue(cut.truncated());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "read 6 rows, not 2 billion");
    }

    /**
     * A million rows of 1 MiB each (a terabyte) under a row limit of a million: the size limit
     * ends the read after a few rows, because the cursor fetches only as many rows as the
     * remaining budget can hold, and the server never computes the rest.
     */
    @Test
    void theSizeLimitStopsAHugeResultAfterAFewRowsOnTheServer() {
        QueryResult cut = await(db.execute(compile("SELECT n, repeat('x', 1048576) AS body FROM generate_series(1, 1000000) n"),
                List.of(), QueryOptions.of(1_000_000, 4L << 20, TIMEOUT)));
        assertEquals(3, cut.rows().size());
        assertEquals(ResultCut.BYTE_LIMIT, cut.cut());
        assertEquals(50, count("seq"), "the connection serves the next statement");
    }

    /**
     * Outside a transaction a cursor's portal ends with its first fetch (64 rows before any row
     * size is known): a longer read is read again in a transaction, whole, in order, and still
     * cut by either limit.
     */
    @Test
    void aReadLongerThanTheFirstFetchComesWholeAndIsStillCut() {
        QueryResult all = await(db.execute(compile("SELECT n FROM generate_series(1, 200) n"), List.of(),
                QueryOptions.of(1000, 4L << 20, TIMEOUT)));
        assertEquals(200, all.rows().size());
        assertEquals(ResultCut.NONE, all.cut());
        for (int i = 0; i < 200; i++) {
            assertEquals(i + 1, all.rows().getJsonObject(i).getInteger("n"));
        }
        QueryResult rows = await(db.execute(compile("SELECT n FROM generate_series(1, 1000000) n"), List.of(),
                QueryOptions.of(150, 4L << 20, TIMEOUT)));
        assertEquals(150, rows.rows().size());
        assertEquals(150, rows.rows().getJsonObject(149).getInteger("n"));
        assertEquals(ResultCut.ROW_LIMIT, rows.cut());
        // rows of about 1 KB under 100 KB: cut after about 97, past the first fetch
        QueryResult bytes = await(db.execute(compile("SELECT n, repeat('x', 1000) AS body FROM generate_series(1, 1000) n"),
                List.of(), QueryOptions.of(1000, 100_000, TIMEOUT)));
        assertTrue(bytes.rows().size() > 64 && bytes.rows().size() < 100, "rows: " + bytes.rows().size());
        assertEquals(ResultCut.BYTE_LIMIT, bytes.cut());
        assertEquals(50, count("seq"), "the connection serves the next statement");
    }

    /**
     * A read that needed a second reading starts its next call in a transaction: a statement that
     * always returns many rows is run once per call, not twice (seen through a sequence its
     * SELECT advances: by the rows the first fetch evaluated plus 200 on the first call, by exactly
     * 200 on the next).
     */
    @Test
    void aLongReadRunsOnceFromItsSecondCall() {
        rows("CREATE SEQUENCE long_read_calls");
        try {
            CompiledStatement select = compile("SELECT n, nextval('long_read_calls') AS k FROM generate_series(1, 200) n");
            QueryOptions options = QueryOptions.of(1000, 4L << 20, TIMEOUT);
            assertEquals(200, await(db.execute(select, List.of(), options)).rows().size());
            long afterFirst = sequenceValue();
            assertTrue(afterFirst > 200, "the first call read its first fetch, then all again: " + afterFirst);
            QueryResult second = await(db.execute(select, List.of(), options));
            assertEquals(200, second.rows().size());
            assertEquals(ResultCut.NONE, second.cut());
            assertEquals(afterFirst + 200, sequenceValue(), "the second call ran the statement once");
        } finally {
            rows("DROP SEQUENCE long_read_calls");
        }
    }

    private long sequenceValue() {
        return rows("SELECT last_value AS v FROM long_read_calls").getJsonObject(0).getLong("v");
    }

    /** SHOW reads, so it is read again like a SELECT; a statement no transaction block may hold runs outside one. */
    @Test
    void showReadsWholeAndVacuumRunsOutsideATransaction() {
        QueryResult settings = await(db.execute(compile("SHOW ALL"), List.of(), QueryOptions.of(1000, 4L << 20, TIMEOUT)));
        assertTrue(settings.rows().size() > 64, "rows: " + settings.rows().size());
        assertEquals(ResultCut.NONE, settings.cut());
        QueryResult vacuum = await(db.execute(compile("VACUUM seq"), List.of(), QueryOptions.of(1000, 4L << 20, TIMEOUT)));
        assertEquals("[{\"rows_affected\":0}]", vacuum.rows().encode());
    }

    /**
     * A read settled by its first fetch runs in the unnamed portal (pg_cursors names the portal a
     * statement runs in: empty for the unnamed one); a read that needs more is read again in a
     * transaction, through a named cursor, and still answers every row.
     */
    @Test
    void aFirstFetchRunsInTheUnnamedPortal() {
        QueryResult first = await(db.execute(compile("SELECT string_agg(name, ',') AS portals FROM pg_cursors"),
                List.of(), QueryOptions.of(1000, 4L << 20, TIMEOUT)));
        assertEquals("[{\"portals\":\"\"}]", first.rows().encode());
        QueryResult longer = await(db.execute(
                compile("SELECT n, (SELECT string_agg(name, ',') FROM pg_cursors) AS portals FROM generate_series(1, 150) n"),
                List.of(), QueryOptions.of(1000, 4L << 20, TIMEOUT)));
        assertEquals(150, longer.rows().size());
        assertEquals(ResultCut.NONE, longer.cut());
        assertTrue(!longer.rows().getJsonObject(0).getString("portals").isEmpty(),
                "read again through a named cursor: " + longer.rows().getJsonObject(0));
    }

    /** A write whose RETURNING rows pass the first fetch runs in a transaction: once, every row answered. */
    @Test
    void aWriteReturningMoreThanTheFirstFetchRunsOnce() {
        rows("CREATE TABLE written (n INT)");
        try {
            QueryResult written = await(db.execute(compile("INSERT INTO written SELECT generate_series(1, 100) RETURNING n"),
                    List.of(), QueryOptions.of(1000, 4L << 20, TIMEOUT)));
            assertEquals(100, written.rows().size());
            assertEquals(ResultCut.NONE, written.cut());
            assertEquals(100, count("written"), "written once, and committed");
            QueryResult cut = await(db.execute(compile("DELETE FROM written RETURNING n"), List.of(),
                    QueryOptions.of(70, 4L << 20, TIMEOUT)));
            assertEquals(70, cut.rows().size());
            assertEquals(ResultCut.ROW_LIMIT, cut.cut());
            assertEquals(0, count("written"), "a write is whole even when its answer is cut");
        } finally {
            rows("DROP TABLE written");
        }
    }

    @Test
    void connectionStringForms() {
        String url = isolation().url();
        String host = TestDatabases.host(url);
        int port = TestDatabases.port(url, 5432);
        Map<String, String> schema = isolation().options();
        String keyValue = "host=" + host + " port=" + port + " dbname=test user=postgres sslmode=disable";
        assertEquals("[{\"n\":3}]", rows(connectTo(keyValue, schema), "SELECT count(*) AS n FROM users").encode());
        String postgresql = url.replaceFirst("^postgres://", "postgresql://");
        assertEquals("[{\"n\":3}]", rows(connectTo(postgresql, schema), "SELECT count(*) AS n FROM users").encode());
        String unknown = connectFailure(url + (url.contains("?") ? "&" : "?") + "pool_max_conns=4", Map.of());
        assertTrue(unknown.contains("connection_string has the unknown setting 'pool_max_conns'"), unknown);
        assertTrue(connectFailure(url, Map.of("sslmode", "verify-full")).contains("needs sslrootcert"));
        assertTrue(connectFailure(url, Map.of("sslmode", "sometimes")).contains("option sslmode is 'sometimes'"));
        assertTrue(connectFailure("mysql://root@localhost/test", Map.of()).contains("connection_string must be a URL"));
        assertFalse(connectFailure("postgres://u:p%zz@localhost/test", Map.of()).contains("p%zz"));
    }
}
