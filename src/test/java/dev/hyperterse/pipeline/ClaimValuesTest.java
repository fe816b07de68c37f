package dev.hyperterse.pipeline;

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

import static dev.hyperterse.pipeline.SqliteProject.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Token claims that are arrays or objects bind as JSON, as array and object inputs do. */
class ClaimValuesTest {
    static final String SECRET = "a-shared-secret-of-at-least-32-characters!";
    @TempDir
    Path dir;
    SqliteProject db;
    Vertx vertx;
    Pipeline pipeline;

    @BeforeEach
    void setUp() throws Exception {
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
        db = new SqliteProject(dir);
        vertx = db.vertx;
        pipeline = db.pipeline(db.sqlite);
    }

    @AfterEach
    void tearDown() throws Exception {
        db.close();
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
