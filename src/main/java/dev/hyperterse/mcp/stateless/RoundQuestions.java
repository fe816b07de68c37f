package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.InputRound;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.McpException;
import dev.hyperterse.mcp.UserConfirmation;
import dev.hyperterse.pipeline.CallContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * A handler's questions to a 2026-07-28 client ({@code ctx.elicit}, {@code ctx.sample}), asked
 * through input rounds: the call runs again from the start with every answer given so far. The
 * first question without an answer ends the round: the request answers with that input request
 * and a sealed state holding the answers so far, bound to this tool, these arguments and this
 * caller. Each question has a key (the one the handler gave it, else {@code ask-N} for the N-th
 * question of the call); on a retry a question is answered from the state and the client's
 * {@code inputResponses} when it is the question asked under its key before, else asked anew.
 */
final class RoundQuestions {
    private static final String PURPOSE = "tools/call:ask";
    private static final String KEY_PREFIX = "ask-";

    private final InputRound round;
    private final SpentStates spent;
    private final String tool;
    private final JsonObject arguments;
    private final CallContext caller;
    /** The digest of this call (tool, arguments, caller), made when first needed: most calls ask nothing. */
    private String call;
    /** This request's state when it is a round of this call's questions, else null. */
    private final JsonObject state;
    /** Answers so far by key: {@code {question: digest, answer: result}}. */
    private final JsonObject answers;
    private int asked;
    /** Whether the user confirmed this call (a tool marked {@code confirm: true}) in this request. */
    private boolean confirmedNow;

    /**
     * @param arguments the call's arguments, exactly: answers carry over only to a retry of the same call
     * @param spent     where a round carrying a confirmation is spent, once
     */
    RoundQuestions(InputRound round, String tool, JsonObject arguments, CallContext caller, SpentStates spent) {
        this.round = round;
        this.spent = spent;
        this.tool = tool;
        this.arguments = arguments;
        this.caller = caller;
        this.state = ownState();
        this.answers = known();
    }

    private JsonObject ownState() {
        if (!round.hasState()) {
            return null;
        }
        JsonObject opened;
        try {
            opened = round.state(PURPOSE);
        } catch (RuntimeException e) {
            // a state sealed for another purpose (a confirmation) is that one's to read
            return null;
        }
        return call().equals(opened.getString("call")) ? opened : null;
    }

    private String call() {
        if (call == null) {
            call = RoundConfirmation.digest(tool, arguments, caller);
        }
        return call;
    }

    /** Whether this request's state is a round of this call's questions (not a confirmation's). */
    boolean ownsState() {
        return state != null;
    }

    /** Whether this round's state says the user confirmed this call in an earlier round. */
    boolean confirmedEarlier() {
        return state != null && state.getBoolean("confirmed", false) && state.getString("nonce") != null;
    }

    String nonce() {
        return state.getString("nonce");
    }

    long until() {
        return state.getLong("until", 0L);
    }

    /** The user confirmed this call in this request: later rounds carry it. */
    synchronized void confirmed() {
        confirmedNow = true;
    }

    /** The answers the state and the client brought, when the state belongs to this call. */
    private JsonObject known() {
        JsonObject out = new JsonObject();
        if (state == null) {
            return out;
        }
        JsonObject before = state.getJsonObject("answers", new JsonObject());
        before.forEach(e -> out.put(e.getKey(), e.getValue()));
        JsonObject pending = state.getJsonObject("pending");
        if (pending != null) {
            String key = pending.getString("key");
            JsonObject answer = key == null ? null : round.response(key);
            if (answer != null) {
                out.put(key, new JsonObject().put("question", pending.getString("question")).put("answer", answer));
            }
        }
        return out;
    }

    /**
     * The client's answer to the handler's next question, when this round has it; else fails with
     * {@link UserConfirmation.AnswerLater} holding the input-required result that asks it.
     */
    synchronized Future<JsonObject> ask(String method, JsonObject params, String named) {
        String capability = "elicitation/create".equals(method) ? "elicitation"
                : "sampling/createMessage".equals(method) ? "sampling" : null;
        if (capability == null) {
            return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "cannot send " + method
                    + " to the client: protocol 2026-07-28 asks only for elicitation and sampling in input rounds"));
        }
        if (!round.declares(capability)) {
            return Future.failedFuture(new McpException(JsonRpc.SERVER_ERROR, "the client did not declare the "
                    + capability + " capability, so it cannot be asked"));
        }
        asked++;
        String key = named != null ? named : KEY_PREFIX + asked;
        String question = digest(method, params);
        JsonObject known = answers.getJsonObject(key);
        if (known != null && question.equals(known.getString("question"))) {
            return Future.succeededFuture(known.getJsonObject("answer"));
        }
        // a question asked anew under a key (or another question under it) is answered anew
        answers.remove(key);
        JsonObject next = new JsonObject().put("call", call()).put("answers", answers.copy())
                .put("pending", new JsonObject().put("key", key).put("question", question));
        if (confirmedNow || confirmedEarlier()) {
            next.put("confirmed", true).put("nonce", SpentStates.nonce()).put("until", spent.expiry());
        }
        return Future.failedFuture(new UserConfirmation.AnswerLater(round.inputRequired(new JsonObject().put(key,
                new JsonObject().put("method", method).put("params", params)), PURPOSE, next)));
    }

    private static String digest(String method, JsonObject params) {
        StringBuilder canonical = new StringBuilder(method).append('\n');
        RoundConfirmation.canonical(params, canonical);
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }
}
