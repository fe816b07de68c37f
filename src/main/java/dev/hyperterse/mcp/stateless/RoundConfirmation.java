package dev.hyperterse.mcp.stateless;

import dev.hyperterse.auth.ApiKeyPlugin;
import dev.hyperterse.mcp.InputRound;
import dev.hyperterse.mcp.UserConfirmation;
import dev.hyperterse.pipeline.CallContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.TreeSet;

/**
 * Asks a 2026-07-28 client to confirm a call of a tool marked {@code confirm: true} through an input
 * round: the first call answers with an elicitation (the tool and every input, see the core's
 * question) and a sealed state naming the exact tool, inputs and caller; the retry that carries the
 * user's acceptance and that state runs the tool, once. A declined or cancelled confirmation runs
 * nothing. A client that did not declare elicitation cannot be asked.
 */
final class RoundConfirmation implements UserConfirmation {
    private static final String PURPOSE = "tools/call:confirm";

    private final InputRound round;
    private final CallContext caller;
    private final SpentStates spent;
    private final RoundQuestions questions;

    /**
     * @param caller    whose credentials the state is bound to: another caller cannot use it
     * @param spent     states already used on this node: each runs its call once
     * @param questions the call's handler questions, whose rounds carry a confirmation given before
     */
    RoundConfirmation(InputRound round, CallContext caller, SpentStates spent, RoundQuestions questions) {
        this.round = round;
        this.caller = caller;
        this.spent = spent;
        this.questions = questions;
    }

    @Override
    public Future<Decision> ask(String tool, JsonObject inputs, String question) {
        if (!round.declares("elicitation")) {
            return Future.succeededFuture(Decision.CANNOT_ASK);
        }
        String digest = digest(tool, inputs, caller);
        if (questions.confirmedEarlier()) {
            // a round of the handler's questions, after the user confirmed this call: each such
            // state carries the confirmation once, as the confirmation's own state does
            return spent.spendOnce(questions.nonce(), questions.until())
                    .compose(first -> first ? accepted() : askAgain(digest, question));
        }
        if (round.hasState() && !questions.ownsState()) {
            JsonObject state = round.state(PURPOSE);
            JsonObject answer = round.response(KEY);
            if (digest.equals(state.getString("call")) && answer != null) {
                if (!UserConfirmation.confirms(answer)) {
                    return Future.succeededFuture(Decision.DECLINED);
                }
                // used before: ask again rather than run the same confirmation twice
                return spent.spendOnce(state.getString("nonce"), state.getLong("until", 0L))
                        .compose(first -> first ? accepted() : askAgain(digest, question));
            }
        }
        return askAgain(digest, question);
    }

    /** Accepted: the handler's later rounds carry the confirmation. */
    private Future<Decision> accepted() {
        questions.confirmed();
        return Future.succeededFuture(Decision.ACCEPTED);
    }

    private Future<Decision> askAgain(String digest, String question) {
        return Future.failedFuture(new AnswerLater(round.inputRequired(new JsonObject().put(KEY,
                        new JsonObject().put("method", "elicitation/create")
                                .put("params", UserConfirmation.elicitation(question))),
                PURPOSE, new JsonObject().put("call", digest).put("nonce", SpentStates.nonce())
                        .put("until", spent.expiry()))));
    }

    /**
     * A digest of the tool, its inputs (keys sorted) and the caller's credentials (the headers the
     * server's auth reads), so a confirmation covers exactly one call by one caller.
     */
    static String digest(String tool, JsonObject inputs, CallContext caller) {
        StringBuilder canonical = new StringBuilder(tool).append('\n');
        canonical(inputs, canonical);
        canonical.append('\n').append(String.valueOf(caller.header("Authorization")))
                .append('\n').append(String.valueOf(caller.header(ApiKeyPlugin.HEADER)));
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }

    static void canonical(Object value, StringBuilder out) {
        if (value instanceof JsonObject) {
            JsonObject object = (JsonObject) value;
            out.append('{');
            for (String key : new TreeSet<>(object.fieldNames())) {
                out.append(io.vertx.core.json.Json.encode(key)).append(':');
                canonical(object.getValue(key), out);
                out.append(',');
            }
            out.append('}');
        } else if (value instanceof JsonArray) {
            out.append('[');
            for (Object item : (JsonArray) value) {
                canonical(item, out);
                out.append(',');
            }
            out.append(']');
        } else {
            out.append(io.vertx.core.json.Json.encode(value));
        }
    }
}
