package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.function.Supplier;

/**
 * What a wire generation does its own way for the methods of {@link MethodTable}: the methods
 * only it offers, and the form its answers take. The table routes a method here only in the
 * generations that offer it, so an adapter implements what its generation offers.
 */
public interface Wire {

    /** {@code tools/list} as this generation shows it. */
    Future<JsonObject> listTools(MethodCall call);

    /**
     * {@code tools/call}; null when the adapter answers the request itself (a stream, or a call
     * that waits for something first).
     */
    Future<JsonObject> callTool(MethodCall call);

    /** A list or read result as this generation hands it out (2026-07-28 adds caching hints). */
    default Future<JsonObject> listing(Future<JsonObject> result) {
        return result;
    }

    /** {@code prompts/get}: by default the project's (and extensions') prompts. */
    default Future<JsonObject> getPrompt(MethodCall call, Supplier<Future<JsonObject>> catalog) {
        return catalog.get();
    }

    /** {@code initialize} (sessions). */
    default Future<JsonObject> initialize(MethodCall call) {
        throw notOffered(call);
    }

    /** {@code logging/setLevel} (sessions). */
    default Future<JsonObject> setLevel(MethodCall call) {
        throw notOffered(call);
    }

    /** {@code resources/subscribe} and {@code resources/unsubscribe} (sessions). */
    default Future<JsonObject> subscribe(MethodCall call, boolean on) {
        throw notOffered(call);
    }

    /** {@code server/discover} (2026-07-28). */
    default Future<JsonObject> discover(MethodCall call) {
        throw notOffered(call);
    }

    /** {@code subscriptions/listen} (2026-07-28); null when the adapter answered with its stream. */
    default Future<JsonObject> listen(MethodCall call) {
        throw notOffered(call);
    }

    private static IllegalStateException notOffered(MethodCall call) {
        return new IllegalStateException(call.method() + " is not offered in " + call.generation());
    }
}
