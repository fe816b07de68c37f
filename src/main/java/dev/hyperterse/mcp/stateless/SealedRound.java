package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.InputRound;
import io.vertx.core.json.JsonObject;

/**
 * The input round of one 2026-07-28 request: its {@code _meta}'s capabilities, its
 * {@code inputResponses}, and its {@code requestState} verified once, when the round is made
 * (an altered, forged or expired state refuses the request before anything runs); the state of
 * the next round is sealed with the same key ({@link RequestStateSeal}).
 */
final class SealedRound implements InputRound {
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
    SealedRound(RequestMeta meta, JsonObject responses, JsonObject params, RequestStateSeal seal) {
        this.meta = meta;
        this.responses = responses;
        this.verifiedState = params.containsKey("requestState") ? seal.verify(params.getValue("requestState")) : null;
        this.seal = seal;
    }

    @Override
    public boolean declares(String capability) {
        return meta.declares(capability);
    }

    @Override
    public void require(String capability) {
        if (!declares(capability)) {
            throw new StatelessError(400, StatelessError.MISSING_CLIENT_CAPABILITY,
                    "Missing required client capability: " + capability,
                    new JsonObject().put("requiredCapabilities", new JsonObject().put(capability, new JsonObject())));
        }
    }

    @Override
    public JsonObject response(String key) {
        return responses.getJsonObject(key);
    }

    @Override
    public boolean hasResponses() {
        return !responses.isEmpty();
    }

    @Override
    public boolean hasState() {
        return verifiedState != null;
    }

    @Override
    public JsonObject state(String purpose) {
        return RequestStateSeal.stateFor(purpose, verifiedState);
    }

    @Override
    public JsonObject inputRequired(JsonObject inputRequests, String purpose, JsonObject state) {
        JsonObject result = new JsonObject().put("resultType", "input_required").put("inputRequests", inputRequests);
        if (state != null) {
            result.put("requestState", seal.seal(purpose, state));
        }
        return result;
    }
}
