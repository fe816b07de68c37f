package dev.hyperterse.mcp.stateless;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One round of a multi-round request (MRTR, SEP-2322): what the client declared it can answer
 * (its capabilities), the answers it brought ({@code inputResponses}, keyed as the server asked)
 * and the sealed state of the previous round. A method that needs more input answers with
 * {@link #inputRequired}: the client asks its user or model and calls again with the answers.
 */
public final class InputRound {
    private final RequestMeta meta;
    private final JsonObject responses;
    /** The request's {@code requestState}, verified once, or null when it carried none. */
    private final JsonObject verifiedState;
    private final RequestStateSeal seal;

    /**
     * @param responses the request's {@code inputResponses} (empty when none)
     * @param params    the request's params, whose {@code requestState}, when present, is verified here
     * @throws StatelessError (-32602) when the state is not a string, was altered, forged or expired:
     *                        the request is refused before anything runs
     */
    InputRound(RequestMeta meta, JsonObject responses, JsonObject params, RequestStateSeal seal) {
        this.meta = meta;
        this.responses = responses;
        this.verifiedState = params.containsKey("requestState") ? seal.verify(params.getValue("requestState")) : null;
        this.seal = seal;
    }

    /** Whether the client declared a capability (elicitation, sampling, roots) for this request. */
    public boolean declares(String capability) {
        return meta.declares(capability);
    }

    /**
     * Refuses the request (HTTP 400, -32021, with the capability wanted in {@code data}) unless
     * the client declared {@code capability}: for a method that cannot work without it.
     */
    public void require(String capability) {
        if (!declares(capability)) {
            throw new StatelessError(400, StatelessError.MISSING_CLIENT_CAPABILITY,
                    "Missing required client capability: " + capability,
                    new JsonObject().put("requiredCapabilities", new JsonObject().put(capability, new JsonObject())));
        }
    }

    /** The client's answer to the input request named {@code key}, or null. */
    public JsonObject response(String key) {
        return responses.getJsonObject(key);
    }

    public boolean hasResponses() {
        return !responses.isEmpty();
    }

    /** Whether the request carried a {@code requestState}. */
    public boolean hasState() {
        return verifiedState != null;
    }

    /** The request's state when it was sealed for {@code purpose}; throws -32602 when it was sealed for another. */
    public JsonObject state(String purpose) {
        return RequestStateSeal.stateFor(purpose, verifiedState);
    }

    /** An InputRequiredResult asking for {@code inputRequests}, carrying {@code state} sealed when given. */
    public JsonObject inputRequired(JsonObject inputRequests, String purpose, JsonObject state) {
        JsonObject result = new JsonObject().put("resultType", "input_required").put("inputRequests", inputRequests);
        if (state != null) {
            result.put("requestState", seal.seal(purpose, state));
        }
        return result;
    }

    /** An {@code elicitation/create} input request for a form of the given properties, all required. */
    public static JsonObject elicitation(String message, JsonObject properties) {
        JsonArray required = new JsonArray();
        properties.fieldNames().forEach(required::add);
        return new JsonObject().put("method", "elicitation/create").put("params", new JsonObject()
                .put("message", message)
                .put("requestedSchema", new JsonObject().put("type", "object")
                        .put("properties", properties).put("required", required)));
    }

    /** A {@code sampling/createMessage} input request with one user message. */
    public static JsonObject sampling(String text, int maxTokens) {
        return new JsonObject().put("method", "sampling/createMessage").put("params", new JsonObject()
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user")
                        .put("content", new JsonObject().put("type", "text").put("text", text))))
                .put("maxTokens", maxTokens));
    }

    public static JsonObject listRoots() {
        return new JsonObject().put("method", "roots/list").put("params", new JsonObject());
    }

    /** The accepted form content of an ElicitResult, or null when the user declined, cancelled or sent none. */
    public static JsonObject accepted(JsonObject elicitResult) {
        if (elicitResult == null || !"accept".equals(elicitResult.getValue("action"))) {
            return null;
        }
        Object content = elicitResult.getValue("content");
        return content instanceof JsonObject ? (JsonObject) content : new JsonObject();
    }
}
