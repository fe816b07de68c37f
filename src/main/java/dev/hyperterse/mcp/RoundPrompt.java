package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * A prompt that an extension adds for protocol 2026-07-28 only, whose {@code prompts/get} may ask
 * the client for input first (an InputRequiredResult) before rendering its messages.
 */
@FunctionalInterface
public interface RoundPrompt {
    /** The GetPromptResult, or an InputRequiredResult. */
    Future<JsonObject> get(InputRound round);
}
