package dev.hyperterse.mcp.stateless;

import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.mcp.ToolMethods;
import dev.hyperterse.model.CallerText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Asks the client to confirm an {@code execute} of a tool marked {@code confirm: true} before it
 * runs, through an input round: the first call answers with an elicitation ("Run tool X with these
 * inputs?") and a sealed state naming the exact tool and inputs; the retry that carries the user's
 * acceptance and that state runs the tool. A declined or cancelled confirmation runs nothing. A
 * client that did not declare elicitation cannot be asked, so its call runs as in the session
 * generation.
 */
final class ConfirmationGate {
    static final String EXECUTE = "execute";
    static final String KEY = "confirm";
    private static final String PURPOSE = "tools/call:" + EXECUTE;

    private final ToolMethods methods;

    ConfirmationGate(ToolMethods methods) {
        this.methods = methods;
    }

    /** Runs {@code run} for {@code tools/call} of {@code tool}, after a confirmation round when one is due. */
    Future<JsonObject> call(String tool, JsonObject arguments, CallContext context, InputRound round,
                            Supplier<Future<JsonObject>> run) {
        if (!EXECUTE.equals(tool) || !(arguments.getValue("tool") instanceof String)
                || !(arguments.getValue("inputs") instanceof JsonObject) || !round.declares("elicitation")) {
            return run.get();
        }
        String target = arguments.getString("tool");
        return methods.needsConfirmation(target, context)
                .compose(needed -> needed ? confirmed(target, arguments.getJsonObject("inputs"), round, run) : run.get());
    }

    private static Future<JsonObject> confirmed(String target, JsonObject inputs, InputRound round,
                                                Supplier<Future<JsonObject>> run) {
        String digest = digest(target, inputs);
        if (round.hasState() && digest.equals(round.state(PURPOSE).getString("call"))) {
            JsonObject answer = round.response(KEY);
            if (answer != null) {
                JsonObject form = InputRound.accepted(answer);
                if (form != null && Boolean.TRUE.equals(form.getValue(KEY))) {
                    return run.get();
                }
                return Future.succeededFuture(new JsonObject().put("isError", true).put("content", new JsonArray()
                        .add(new JsonObject().put("type", "text").put("text", "Not run: the user did not confirm '"
                                + CallerText.cut(target) + "'."))));
            }
        }
        String question = "Run '" + CallerText.cut(target) + "' with inputs " + CallerText.cut(inputs.encode()) + "?";
        return Future.succeededFuture(round.inputRequired(new JsonObject().put(KEY, InputRound.elicitation(question,
                        new JsonObject().put(KEY, new JsonObject().put("type", "boolean")
                                .put("description", "true to run the tool")))),
                PURPOSE, new JsonObject().put("call", digest)));
    }

    /** A digest of the tool and its inputs (keys sorted), so a confirmation covers exactly one call. */
    static String digest(String tool, JsonObject inputs) {
        StringBuilder canonical = new StringBuilder(tool).append('\n');
        canonical(inputs, canonical);
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }

    private static void canonical(Object value, StringBuilder out) {
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
