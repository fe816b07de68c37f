package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * Runs a script export with one JSON payload off the event loop and completes with its
 * (awaited) return value as decoded JSON (JsonObject, JsonArray, String, Number, Boolean or null).
 */
public interface ScriptInvoker {
    /**
     * @param tool the tool the call is for: its scripts see the environment values it passes in
     */
    Future<Object> call(String tool, ScriptRef script, JsonObject payload, Duration timeout);
}
