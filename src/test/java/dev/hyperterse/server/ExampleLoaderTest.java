package dev.hyperterse.server;

import dev.hyperterse.testing.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code tools-examples/load.sh}, the one command that loads an example's data, run as the README
 * says (from the repository root, with the clients a user has): twice, into a database of this
 * run's own, leaves the same rows as once; a missing connection string stops it loudly.
 */
class ExampleLoaderTest {
    private static final Path LOADER = Path.of("tools-examples/load.sh").toAbsolutePath();

    @TempDir
    Path scratch;

    @Test
    void postgresLoadsTwiceWithTheSameRows() throws Exception {
        assumeTrue(installed("psql"), "psql is not installed");
        String admin = TestDatabases.postgresUrl();
        String database = TestDatabases.uniqueName("hyperterse_load");
        assertEquals(0, run(List.of("psql", admin, "-qc", "CREATE DATABASE " + database), Map.of()).code);
        try {
            Map<String, String> env = Map.of("SHOP_POSTGRES_URL", TestDatabases.withDatabase(admin, database));
            for (int i = 0; i < 2; i++) {
                Run load = run(List.of("bash", LOADER.toString(), "postgres"), env);
                assertEquals(0, load.code, load.output);
                assertEquals("loaded the postgres example's data", load.output.strip());
            }
            Run counts = run(List.of("psql", env.get("SHOP_POSTGRES_URL"), "-Atc",
                    "SELECT (SELECT count(*) FROM customers) || ' ' || (SELECT count(*) FROM products) || ' ' "
                            + "|| (SELECT count(*) FROM orders) || ' ' "
                            + "|| nextval(pg_get_serial_sequence('orders', 'id'))"), Map.of());
            assertEquals("5 6 10 11", counts.output.strip(), "rows after two loads, and the next order id");
        } finally {
            run(List.of("psql", admin, "-qc", "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)"), Map.of());
        }
    }

    @Test
    void mysqlLoadsTwiceWithTheSameRows() throws Exception {
        String client = installed("mysql") ? "mysql" : "mariadb";
        assumeTrue(installed(client), "no mysql or mariadb client");
        String admin = TestDatabases.mysqlUrl();
        List<String> connect = List.of(client, "--protocol=TCP", "-h", TestDatabases.host(admin),
                "-P", String.valueOf(TestDatabases.port(admin, 3306)), "-u", "root");
        assumeTrue(admin.startsWith("mysql://root@"), "the check connects as root without a password");
        String database = TestDatabases.uniqueName("hyperterse_load");
        assertEquals(0, run(concat(connect, "-e", "CREATE DATABASE " + database), Map.of()).code);
        try {
            Map<String, String> env = Map.of("SHOP_MYSQL_URL", TestDatabases.withDatabase(admin, database));
            for (int i = 0; i < 2; i++) {
                Run load = run(List.of("bash", LOADER.toString(), "mysql"), env);
                assertEquals(0, load.code, load.output);
            }
            Run counts = run(concat(connect, "-N", "-e", "SELECT (SELECT count(*) FROM customers), "
                    + "(SELECT count(*) FROM products), (SELECT count(*) FROM orders)", database), Map.of());
            assertEquals("5\t6\t10", counts.output.strip());
        } finally {
            run(concat(connect, "-e", "DROP DATABASE IF EXISTS " + database), Map.of());
        }
    }

    @Test
    void redisLoadsTwiceUnderTheConfiguredPrefix() throws Exception {
        assumeTrue(installed("redis-cli"), "redis-cli is not installed");
        String url = TestDatabases.redisUrl();
        String prefix = TestDatabases.uniqueName("hyperterse_load") + ":";
        List<String> cli = List.of("redis-cli", "-h", TestDatabases.host(url), "-p",
                String.valueOf(TestDatabases.port(url, 6379)));
        try {
            Map<String, String> env = Map.of("SHOP_REDIS_URL", url, "SHOP_REDIS_PREFIX", prefix);
            for (int i = 0; i < 2; i++) {
                Run load = run(List.of("bash", LOADER.toString(), "redis"), env);
                assertEquals(0, load.code, load.output);
            }
            assertEquals("keyboard\nmouse\nmonitor", run(concat(cli, "LRANGE", prefix + "viewed:1", "0", "-1"),
                    Map.of()).output.strip(), "the list is not appended to twice");
            assertEquals("Ada Lovelace", run(concat(cli, "HGET", prefix + "customer:1", "name"), Map.of()).output.strip());
        } finally {
            for (String key : run(concat(cli, "--scan", "--pattern", prefix + "*"), Map.of()).output.split("\n")) {
                if (!key.isBlank()) {
                    run(concat(cli, "DEL", key.strip()), Map.of());
                }
            }
        }
    }

    /** An empty URL (here: the .env names the variable without a value) stops the loader before any client runs. */
    @Test
    void aMissingConnectionStringIsAnError() throws Exception {
        Path examples = Files.createDirectories(scratch.resolve("tools-examples"));
        Files.copy(LOADER, examples.resolve("load.sh"));
        Files.createDirectories(examples.resolve("postgres"));
        Files.writeString(examples.resolve("postgres/.env"), "SHOP_POSTGRES_URL=\n");
        Run load = run(List.of("bash", examples.resolve("load.sh").toString(), "postgres"), Map.of());
        assertEquals(1, load.code, load.output);
        assertTrue(load.output.contains("SHOP_POSTGRES_URL is empty: set it, or give it a value in "), load.output);
        Run unknown = run(List.of("bash", LOADER.toString(), "oracle"), Map.of());
        assertEquals(2, unknown.code, unknown.output);
    }

    private record Run(int code, String output) {
    }

    /** Runs a command from the repository root, with the test databases' variables replaced by {@code env}. */
    private static Run run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("SHOP_") || name.startsWith("PG"));
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "still running: " + command);
        return new Run(process.exitValue(), output);
    }

    private static boolean installed(String tool) throws IOException, InterruptedException {
        return run(List.of("bash", "-c", "command -v " + tool), Map.of()).code == 0;
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }
}
