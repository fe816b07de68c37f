package dev.hyperterse.server;

import dev.hyperterse.cli.CliRunner;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.redis.RedisConnectorFactory;
import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.testing.McpSdk;
import dev.hyperterse.testing.RunningServer;
import dev.hyperterse.testing.SeedFiles;
import dev.hyperterse.testing.TestDatabases;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.hyperterse.testing.Futures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tools-examples/redis} served for real: its sample keys are loaded from
 * {@code db/seed.redis} under a key prefix of this run's own, and every tool is called through
 * the MCP Java SDK client.
 */
class RedisShopExampleTest {
    @TempDir
    static Path scratch;
    static Vertx vertx;
    static Connector redis;
    static String prefix;
    static Path project;
    static RunningServer server;
    static McpSyncClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        RedisConnectorFactory factory = new RedisConnectorFactory();
        redis = await(factory.connect(vertx, new AdapterDef("seed", "redis", TestDatabases.redisUrl(), Map.of(),
                SourceLocation.of(Path.of("seed.terse"))), Path.of(".")));
        prefix = TestDatabases.uniqueName("hyperterse_shop") + ":";
        for (List<String> words : SeedFiles.redisCommands(Path.of("tools-examples/redis/db/seed.redis"))) {
            List<Object> args = new ArrayList<>();
            StringBuilder template = new StringBuilder(words.get(0));
            for (int i = 1; i < words.size(); i++) {
                String word = words.get(i);
                args.add(word.startsWith("shop:") ? prefix + word.substring(5) : word);
                template.append(" {{ inputs.a").append(i).append(" }}");
            }
            await(redis.execute(factory.compile(template.toString(), Map.of()), args,
                    QueryOptions.of(10, Duration.ofSeconds(10))));
        }
        project = RunningServer.copyExample("redis", scratch);
        server = RunningServer.start(project, env(), s -> s);
        client = McpSdk.connect(server.baseUrl(), Duration.ofSeconds(30));
    }

    private static Map<String, String> env() {
        return Map.of("SHOP_REDIS_URL", TestDatabases.redisUrl(), "SHOP_REDIS_PREFIX", prefix);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            McpSdk.close(client);
            if (server != null) {
                server.close();
            }
        } finally {
            RedisConnectorFactory factory = new RedisConnectorFactory();
            QueryResult keys = await(redis.execute(factory.compile("KEYS {{ inputs.p }}", Map.of()), List.of(prefix + "*"),
                    QueryOptions.of(10_000, Duration.ofSeconds(10))));
            for (Object key : keys.rows().getJsonObject(0).getJsonArray("values")) {
                await(redis.execute(factory.compile("DEL {{ inputs.k }}", Map.of()), List.of(key),
                        QueryOptions.of(10, Duration.ofSeconds(10))));
            }
            await(redis.close());
            await(vertx.close());
        }
    }

    private static JsonArray execute(String tool, Map<String, Object> inputs) {
        McpSchema.CallToolResult result = McpSdk.execute(client, tool, inputs);
        // Redis replies declare no columns, so its tools have no output schema
        org.junit.jupiter.api.Assertions.assertNull(result.structuredContent(), tool);
        return McpSdk.firstRows(result);
    }

    @Test
    void scalarsAndMissingKeys() {
        assertEquals("[{\"value\":\"1\"}]", execute("get-session", Map.of("token", "abc123")).encode());
        assertEquals("[{\"value\":null}]", execute("get-session", Map.of("token", "nope")).encode());
        assertEquals("[{\"value\":null}]", execute("get-session", Map.of("token", "abc123 x")).encode(),
                "a value with a space is one word of the key, not two arguments");
        assertEquals("[{\"value\":\"OK\"}]", execute("start-session", Map.of("token", "t-1", "customer_id", 2)).encode());
        assertEquals("[{\"value\":\"2\"}]", execute("get-session", Map.of("token", "t-1")).encode());
        assertEquals("[{\"value\":1}]", execute("count-page-view", Map.of("page", "/products/1")).encode());
        assertEquals("[{\"value\":2}]", execute("count-page-view", Map.of("page", "/products/1")).encode());
    }

    @Test
    void mapsArraysAndSets() {
        assertEquals("[{\"value\":{\"country\":\"GB\",\"email\":\"ada@example.com\",\"name\":\"Ada Lovelace\","
                + "\"tier\":\"gold\"}}]", execute("customer-profile", Map.of("customer_id", 1)).encode());
        assertEquals("[{\"value\":{}}]", execute("customer-profile", Map.of("customer_id", 99)).encode());
        assertEquals("[{\"values\":[\"keyboard\",\"mouse\",\"monitor\"]}]",
                execute("recently-viewed", Map.of("customer_id", 1)).encode());
        assertEquals(new JsonArray("[{\"values\":[[\"keyboard\",42.0],[\"headphones\",30.0]]}]"),
                execute("best-sellers", Map.of("last_rank", 1)));
        assertEquals(3, execute("best-sellers", Map.of()).getJsonObject(0).getJsonArray("values").size(), "default: top three");
        List<Object> tags = execute("product-tags", Map.of("product_id", 1)).getJsonObject(0).getJsonArray("values")
                .stream().sorted().collect(Collectors.toList());
        assertEquals(List.of("keyboard", "mechanical", "usb"), tags);
    }

    @Test
    void validateChecksTheCommandsOnTheServer() throws Exception {
        Path copy = RunningServer.copyExample("redis", scratch.resolve("validate"));
        Files.writeString(copy.resolve(".env.local"), "SHOP_REDIS_URL=" + TestDatabases.redisUrl() + "\nSHOP_REDIS_PREFIX=x:\n");
        CliRunner.Run ok = CliRunner.run("validate", "--check-db", copy.toString());
        assertEquals(0, ok.code(), ok.err());
        Path broken = Files.createDirectories(copy.resolve("app/tools/broken"));
        Files.writeString(broken.resolve("config.terse"), "use: cache\ndescription: 'x'\nstatement: 'HGET k'\n");
        CliRunner.Run bad = CliRunner.run("validate", "--check-db", copy.toString());
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.err().contains("tools/broken/config.terse:3: tool 'broken': the statement does not prepare on"
                + " adapter 'cache': HGET takes 2 arguments, the statement gives 1"), bad.err());
    }
}
