package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * A tool that an extension adds for protocol 2026-07-28 only, answering through input rounds
 * itself: it reads the round's answers and sealed state, and answers with a result or with
 * {@link InputRound#inputRequired}. (A project tool asks through {@link CallScope#requestClient}
 * instead, which both generations carry.)
 */
@FunctionalInterface
public interface RoundTool {
    /** The CallToolResult, or an InputRequiredResult; may throw {@link InputRound#require}'s refusal. */
    Future<JsonObject> call(InputRound round, CallScope scope);
}
