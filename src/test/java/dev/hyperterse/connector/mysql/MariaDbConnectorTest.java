package dev.hyperterse.connector.mysql;

import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.sql.SqlConnectorContract;
import dev.hyperterse.testing.OutputSchemas;
import dev.hyperterse.testing.SqlDatabase;
import dev.hyperterse.testing.TcpProxy;
import dev.hyperterse.testing.TestDatabases;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.hyperterse.testing.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQL connector contract on MariaDB (the mysql connector), plus what is MySQL's own. */
class MariaDbConnectorTest extends SqlConnectorContract {

    MariaDbConnectorTest() {
        super(SqlDatabase.MARIADB);
    }

    @Override
    protected Isolation isolate(Connector admin) {
        String database = TestDatabases.uniqueName("hyperterse_test");
        rows(admin, "CREATE DATABASE " + database);
        return new Isolation(database, TestDatabases.withDatabase(serverUrl(), database), Map.of());
    }

    @Override
    protected void dropIsolation(Connector admin, Isolation isolation) {
        rows(admin, "DROP DATABASE " + isolation.name());
    }

    @Override
    protected String usersWithIdsIn() {
        return "SELECT name FROM users WHERE id IN (SELECT j.id FROM JSON_TABLE({{ inputs.ids }}, '$[*]'"
                + " COLUMNS (id INT PATH '$')) AS j) ORDER BY id";
    }

    @Override
    protected String cityOfFilter() {
        return "SELECT JSON_VALUE({{ inputs.filter }}, '$.city') AS city";
    }

    @Override
    protected List<String> schema() {
        return List.of(USERS.get(0), USERS.get(1),
                "CREATE TABLE things (id INT PRIMARY KEY, n INT, price DECIMAL(10,2), ratio DOUBLE,"
                        + " active BOOLEAN, label VARCHAR(50), born DATE, created DATETIME)",
                THINGS_ROWS, SEQ_TABLE,
                "INSERT INTO seq WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 50)"
                        + " SELECT n FROM s");
    }

    @Override
    protected String sleep(int seconds) {
        return "SELECT SLEEP(" + seconds + ")";
    }

    @Override
    protected String runningStatementsLike() {
        return "SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%{{ inputs.m }}%'"
                + " AND COMMAND <> 'Sleep' AND ID <> CONNECTION_ID()";
    }

    @Override
    protected String unknownColumnReason() {
        return "Unknown column 'nope' in ";
    }

    @Override
    protected String typedColumns() {
        return "ti=integer si=integer i=integer bi=integer ubi=integer|string f=number d=number dec1=number|string"
                + " dec2=number|string b=integer vc=string t=string ch=string dt=string tm=string dtm=string ts=string"
                + " y=integer j=string bin=string bl=string u=string e=string nothing=integer";
    }

    @Override
    protected TypedRow typedRow() {
        return new TypedRow("CREATE TABLE typed (ti TINYINT, si SMALLINT, i INT, bi BIGINT, ubi BIGINT UNSIGNED, f FLOAT, d DOUBLE,"
                + " dec1 DECIMAL(30,10), dec2 DECIMAL(38,9), b BOOLEAN, vc VARCHAR(20), t TEXT, ch CHAR(3), dt DATE,"
                + " tm TIME(2), dtm DATETIME, ts TIMESTAMP NULL, y YEAR, j JSON, bin VARBINARY(10), bl BLOB, u UUID,"
                + " e ENUM('a','b'), nothing INT)",
                "INSERT INTO typed VALUES (-1, 2, 2147483647, 9007199254740993, 18446744073709551615, 1.5, 0.1, 12345.6789,"
                + " 12345678901234567890.123456789, true, 'hé \"quoted\"', 'long text', 'ab', '2024-02-29', '-01:02:03.25',"
                + " '2024-02-29 13:45:30', '2024-02-29 13:45:30', 2024, '{\"a\": [1, 2]}', x'0001ff', x'00',"
                + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'b', NULL)",
                "{\"ti\":-1,\"si\":2,\"i\":2147483647,\"bi\":9007199254740993,\"ubi\":\"18446744073709551615\","
                        + "\"f\":1.5,\"d\":0.1,\"dec1\":12345.6789000000,\"dec2\":\"12345678901234567890.123456789\",\"b\":1,"
                        + "\"vc\":\"hé \\\"quoted\\\"\",\"t\":\"long text\",\"ch\":\"ab\",\"dt\":\"2024-02-29\","
                        + "\"tm\":\"-01:02:03.25\",\"dtm\":\"2024-02-29T13:45:30\",\"ts\":\"2024-02-29T13:45:30\",\"y\":2024,"
                        + "\"j\":\"{\\\"a\\\": [1, 2]}\",\"bin\":\"AAH/\",\"bl\":\"AA==\","
                        + "\"u\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\",\"e\":\"b\",\"nothing\":null}");
    }

    /**
     * The MySQL client keeps no column definitions from a prepare, so a read is described from an
     * empty result of it (LIMIT 0); what that cannot describe goes without, and nothing is written.
     */
    /**
     * A KILL QUERY that cannot get through is given up on, so the call's connection still goes
     * back to the pool (issue: the kill's connection used the client's default connect timeout,
     * a minute, and nothing bounded its login, while the call's connection waited for it). The
     * server here accepts new connections and never answers them.
     */
    @Test
    void aKillThatCannotGetThroughIsGivenUpAndTheConnectionReturns() throws Exception {
        String url = isolation().url();
        try (TcpProxy proxy = TcpProxy.start(vertx, TestDatabases.host(url), TestDatabases.port(url, 3306))) {
            Connector c = connectTo(TestDatabases.withAddress(url, "127.0.0.1", proxy.port()),
                    Map.of("max_connections", "1", "connect_timeout", "20s"));
            assertEquals("[{\"one\":1}]", rows(c, "SELECT 1 AS one").encode());
            proxy.stallNewConnections();
            assertEquals("statement timed out after 300ms",
                    error(execute(c, "SELECT SLEEP(1) AS slept", 10, Duration.ofMillis(300))));
            long start = System.nanoTime();
            assertEquals("[{\"two\":2}]", await(execute(c, "SELECT 2 AS two", 10, Duration.ofSeconds(30)))
                    .rows().encode(), "the pool's only connection came back");
            assertTrue(System.nanoTime() - start < MySqlFlavor.KILL_GIVE_UP.toNanos() + TimeUnit.SECONDS.toNanos(3),
                    "within the kill's bound");
        }
    }

    @Test
    void readsAreDescribedFromAnEmptyResultAndOtherStatementsGoWithout() {
        assertEquals("id=integer name=string", OutputSchemas.types(await(db.describe(
                compile("SELECT id, name FROM users WHERE id = {{ inputs.id }};")))));
        assertEquals("n=integer", OutputSchemas.types(await(db.describe(
                compile("WITH t AS (SELECT id FROM users) SELECT count(*) AS n FROM t")))));
        // a repeated column name, RETURNING, a CALL: the statement prepares, its rows are not described
        assertNull(await(db.describe(compile("SELECT id, id FROM users"))));
        assertNull(await(db.describe(compile("DELETE FROM users WHERE id = {{ inputs.id }} RETURNING id"))));
        assertEquals(3, count("users"));
        assertNull(await(db.describe(compile("SELECT id INTO @x FROM users LIMIT 1"))));
    }

    @Test
    void statementsWithoutRowsAreNotReadThroughACursor() {
        // the client hangs on a cursor over a statement that returns no rows
        assertTrue(MySqlFlavor.cursorable("SELECT 1"));
        assertTrue(MySqlFlavor.cursorable("/* c */ (SELECT 1) UNION (SELECT 2)"));
        assertFalse(MySqlFlavor.cursorable("SELECT 1 INTO @x"));
        assertFalse(MySqlFlavor.cursorable("UPDATE t SET a = 1"));
        assertFalse(MySqlFlavor.cursorable("WITH x AS (SELECT 1) SELECT * FROM x"));
        assertEquals("[{\"rows_affected\":1}]", rows("SELECT 42 INTO @answer").encode());
        assertEquals("[{\"n\":1},{\"n\":2}]", rows("WITH s AS (SELECT n FROM seq WHERE n < 3) SELECT n FROM s ORDER BY n").encode());
    }

    @Test
    void connectionStringForms() {
        String url = isolation().url();
        String host = TestDatabases.host(url);
        int port = TestDatabases.port(url, 3306);
        String database = isolation().name();
        String user = url.substring(url.indexOf("://") + 3, url.lastIndexOf('@')).split(":")[0];
        // the Go driver's DSN, as Hyperterse projects write it, with its driver-only settings
        String goDsn = user + "@tcp(" + host + ":" + port + ")/" + database + "?parseTime=true&loc=Local&tls=false";
        assertEquals("[{\"n\":3}]", rows(connectTo(goDsn, Map.of()), "SELECT count(*) AS n FROM users").encode());
        String keyValue = "Server=" + host + ";Port=" + port + ";Database=" + database + ";Uid=" + user + ";ssl_mode=disabled";
        assertEquals("[{\"n\":3}]", rows(connectTo(keyValue, Map.of()), "SELECT count(*) AS n FROM users").encode());
        String mariadb = url.replaceFirst("^mysql://", "mariadb://");
        assertEquals("[{\"n\":3}]", rows(connectTo(mariadb, Map.of("charset", "utf8mb4")), "SELECT count(*) AS n FROM users").encode());
        assertTrue(connectFailure(url + "?pool_size=3", Map.of()).contains("unknown setting 'pool_size'"));
        assertTrue(connectFailure(goDsn.replace("tls=false", "tls=custom"), Map.of()).contains("tls='custom'"));
        assertTrue(connectFailure(url, Map.of("ssl_mode", "verify_identity")).contains("needs ssl_ca"));
        assertTrue(connectFailure("root@unix(/run/mysqld.sock)/test", Map.of()).contains("only tcp(host:port)"));
    }

    @Test
    void typedLiteralsWithPlaceholdersRun() {
        // as Hyperterse projects write them, the value pasted into the literal there
        assertEquals("[{\"d\":\"2024-03-01\",\"t\":\"2024-02-28T10:00:00.5\",\"x\":\"-01:02:03\"}]",
                rows("SELECT DATE '{{ inputs.d }}' + INTERVAL '{{ inputs.n }}' DAY AS d,"
                        + " TIMESTAMP '{{ inputs.d }} 10:00:00.5' AS t, TIME '{{ inputs.x }}' AS x",
                        "2024-02-28", 2L, "2024-02-28", "-01:02:03").encode());
    }
}
