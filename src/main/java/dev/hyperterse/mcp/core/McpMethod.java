package dev.hyperterse.mcp.core;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * One MCP method: its name, its handler, the capability it declares (if any) and the
 * generations that offer it.
 *
 * @param <C> what a handler receives (the request, decoded by its generation's adapter)
 * @param <S> what a capability's declaration reads
 */
public record McpMethod<C, S>(String name, Handler<C> handler, Capability<S> capability, Set<Generation> generations) {

    /**
     * Answers one request: completes with the method's result, or fails (an adapter maps the
     * failure to its JSON-RPC error once); may also throw for a caller's mistake found at once.
     */
    @FunctionalInterface
    public interface Handler<C> {
        Future<JsonObject> handle(C call);
    }

    public McpMethod {
        generations = Set.copyOf(generations);
    }

    public boolean offeredIn(Generation generation) {
        return generations.contains(generation);
    }

    /** Whether its capability is announced in this generation. */
    boolean declaresIn(Generation generation) {
        return capability != null
                && (capability.declaredIn() == null ? offeredIn(generation) : capability.declaredIn().contains(generation));
    }
}
