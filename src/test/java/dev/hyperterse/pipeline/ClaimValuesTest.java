package dev.hyperterse.pipeline;

import dev.hyperterse.auth.AuthCheck;
import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.cache.CaffeineResultCache;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.server.ToolAssembly;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.hyperterse.pipeline.PipelineCacheTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Token claims that are arrays or objects bind as JSON, as array and object inputs do. */
class ClaimValuesTest {
    static final String SECRET = "a-shared-secret-of-at-least-32-characters!";
    @TempDir
    Path dir;
    Vertx vertx;
    Connector sqlite;
    Pipeline pipeline;

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        Files.writeString(dir.resolve(".hyperterse"), "name: claims\n");
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("app/adapters/db.terse"), "connector: sqlite\nconnection_string: ':memory:'\n");
        Path tool = Files.createDirectories(dir.resolve("app/tools/my-groups"));
        Files.writeString(tool.resolve("config.terse"), String.join("\n",
                "description: 'The caller''s groups'",
                "use: db",
                "statement: SELECT value AS g FROM json_each({{ auth.claims.groups }})",
                "auth:",
                "  plugin: jwt",
                "  policy: { secret: '" + SECRET + "', audience: 'claims-test' }", ""));
        Connectors connectors = Connectors.builtIn();
        AuthPlugins auth = AuthPlugins.builtIn();
        Project project = new ProjectCompiler(Map.of(), connectors.types(), auth.names()).compile(dir);
        ToolAssembly assembly = ToolAssembly.of(project, connectors, auth);
        for (AuthCheck check : assembly.distinctAuthChecks()) {
            await(check.start(vertx));
        }
        sqlite = await(connectors.get("sqlite").connect(vertx, project.adapters().get("db"), dir));
        pipeline = new Pipeline(project.tools(), assembly.statements(), Map.of("db", sqlite), assembly.authChecks(),
                new CaffeineResultCache(vertx, 1 << 20), null);
    }

    @AfterEach
    void tearDown() throws Exception {
        await(sqlite.close());
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void anArrayClaimBindsAsItsJsonText() throws Exception {
        String token = JWTAuth.create(vertx, new JWTAuthOptions()
                        .addPubSecKey(new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(SECRET)))
                .generateToken(new JsonObject().put("sub", "alice").put("aud", "claims-test")
                                .put("groups", new JsonArray().add("sales").add("ops")),
                        new JWTOptions().setExpiresInSeconds(600));
        CallContext context = new CallContext(Map.of("Authorization", "Bearer " + token), null, null);
        assertEquals("[{\"g\":\"sales\"},{\"g\":\"ops\"}]",
                await(pipeline.execute("my-groups", new JsonObject(), context)).rows().encode());
    }
}
