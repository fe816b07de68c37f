package dev.hyperterse.mcp;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One round of a multi-round request (MRTR, SEP-2322), as a method that asks the client for input
 * sees it: what the client declared it can answer (its capabilities), the answers it brought
 * ({@code inputResponses}, keyed as the server asked) and the verified state of the previous
 * round. A method that needs more input answers with {@link #inputRequired}: the client asks its
 * user or model and calls again with the answers. The generation that serves input rounds
 * (2026-07-28) makes a round per request and seals its state.
 */
public interface InputRound {

    /** Whether the client declared a capability (elicitation, sampling, roots) for this request. */
    boolean declares(String capability);

    /**
     * Refuses the request (HTTP 400, -32021, with the capability wanted in {@code data}) unless
     * the client declared {@code capability}: for a method that cannot work without it.
     */
    void require(String capability);

    /** The client's answer to the input request named {@code key}, or null. */
    JsonObject response(String key);

    /** Whether the request brought any answers. */
    boolean hasResponses();

    /** Whether the request carried a {@code requestState}. */
    boolean hasState();

    /** The request's state when it was sealed for {@code purpose}; refuses (-32602) one sealed for another. */
    JsonObject state(String purpose);

    /** An InputRequiredResult asking for {@code inputRequests}, carrying {@code state} sealed when given. */
    JsonObject inputRequired(JsonObject inputRequests, String purpose, JsonObject state);

    /** An {@code elicitation/create} input request for a form of the given properties, all required. */
    static JsonObject elicitation(String message, JsonObject properties) {
        JsonArray required = new JsonArray();
        properties.fieldNames().forEach(required::add);
        return new JsonObject().put("method", "elicitation/create").put("params", new JsonObject()
                .put("message", message)
                .put("requestedSchema", new JsonObject().put("type", "object")
                        .put("properties", properties).put("required", required)));
    }

    /** A {@code sampling/createMessage} input request with one user message. */
    static JsonObject sampling(String text, int maxTokens) {
        return new JsonObject().put("method", "sampling/createMessage").put("params", new JsonObject()
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user")
                        .put("content", new JsonObject().put("type", "text").put("text", text))))
                .put("maxTokens", maxTokens));
    }

    /** A {@code roots/list} input request. */
    static JsonObject listRoots() {
        return new JsonObject().put("method", "roots/list").put("params", new JsonObject());
    }

    /** The accepted form content of an ElicitResult, or null when the user declined, cancelled or sent none. */
    static JsonObject accepted(JsonObject elicitResult) {
        if (elicitResult == null || !"accept".equals(elicitResult.getValue("action"))) {
            return null;
        }
        Object content = elicitResult.getValue("content");
        return content instanceof JsonObject ? (JsonObject) content : new JsonObject();
    }
}
