package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * Runs a script export with one JSON payload off the event loop and completes with its
 * (awaited) return value as decoded JSON (JsonObject, JsonArray, String, Number, Boolean or null),
 * or as {@link ScriptContent} when it returned MCP content.
 */
public interface ScriptInvoker {
    /**
     * @param tool  the tool the call is for: its scripts see the environment values it passes in
     * @param reach what the script's {@code ctx} reaches: the client of the request it serves
     */
    Future<Object> call(String tool, ScriptRef script, JsonObject payload, Duration timeout, ClientReach reach);

    /** A call whose script reaches no client (auth scripts, checks). */
    default Future<Object> call(String tool, ScriptRef script, JsonObject payload, Duration timeout) {
        return call(tool, script, payload, timeout, ClientReach.NONE);
    }
}
