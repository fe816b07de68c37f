package dev.hyperterse.auth;

import dev.hyperterse.model.ScriptRef;
import io.vertx.core.Future;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * A script's answer arrives as decoded JSON text, whose nested arrays and objects are plain lists
 * and maps: its claims reach statements as Vert.x JSON, which every connector binds (SQLite and
 * MySQL refuse a plain list), as a token's claims do.
 */
class ScriptAuthClaimsTest {
    @Test
    void arrayAndObjectClaimsAreJson() throws Exception {
        ScriptAuthCheck check = new ScriptAuthCheck(new ScriptRef(Path.of("auth.ts"), "default", null), "auth");
        check.bind((useKey, script, payload, timeout) -> Future.succeededFuture(
                Json.decodeValue("{\"subject\":\"t1\",\"claims\":{\"groups\":[\"a\",\"b\"],\"org\":{\"id\":7},\"n\":null}}")),
                Duration.ofSeconds(1));
        Caller caller = check.authenticate("tool", name -> null).toCompletionStage().toCompletableFuture()
                .get(5, TimeUnit.SECONDS);
        assertInstanceOf(JsonArray.class, caller.claims().get("groups"));
        assertInstanceOf(JsonObject.class, caller.claims().get("org"));
        assertEquals(Map.of("groups", new JsonArray().add("a").add("b"), "org", new JsonObject().put("id", 7)),
                caller.claims());
    }
}
