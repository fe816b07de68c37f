package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Asking the user, through the client, whether one call of a tool marked {@code confirm: true} may
 * run. Each wire generation asks its own way (an input round in 2026-07-28); where the answer comes
 * with a later request, {@link #ask} fails with {@link AnswerLater}, whose result is this request's
 * answer.
 */
public interface UserConfirmation {
    enum Decision { ACCEPTED, DECLINED, CANNOT_ASK }

    /** The one field of the confirmation form, a boolean; also the key of its answer in an input round. */
    String KEY = "confirm";

    /**
     * The params of the {@code elicitation/create} request that puts {@code question} to the user,
     * whichever generation carries it: a form of one required boolean, {@link #KEY}.
     */
    static JsonObject elicitation(String question) {
        return new JsonObject().put("message", question).put("requestedSchema", new JsonObject()
                .put("type", "object")
                .put("properties", new JsonObject().put(KEY, new JsonObject().put("type", "boolean")
                        .put("description", "true to run the tool")))
                .put("required", new io.vertx.core.json.JsonArray().add(KEY)));
    }

    /** Whether an ElicitResult confirms: {@code action: accept} with {@code content.confirm: true}. */
    static boolean confirms(JsonObject elicitResult) {
        if (elicitResult == null || !"accept".equals(elicitResult.getValue("action"))) {
            return false;
        }
        Object content = elicitResult.getValue("content");
        return content instanceof JsonObject && Boolean.TRUE.equals(((JsonObject) content).getValue(KEY));
    }

    /** For a caller whose client cannot be asked. */
    UserConfirmation CANNOT_ASK = (tool, inputs, question) -> Future.succeededFuture(Decision.CANNOT_ASK);

    /**
     * @param tool     the project tool the call runs
     * @param inputs   the inputs it runs with, exactly: an answer covers this tool and these inputs only
     * @param question what the user is shown
     */
    Future<Decision> ask(String tool, JsonObject inputs, String question);

    /** The question is on its way to the client: {@link #result} answers this request. */
    final class AnswerLater extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient JsonObject result;

        public AnswerLater(JsonObject result) {
            super("the user's answer comes with a later request", null, false, false);
            this.result = result;
        }

        public JsonObject result() {
            return result;
        }
    }
}
