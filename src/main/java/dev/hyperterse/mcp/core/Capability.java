package dev.hyperterse.mcp.core;

import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * A server capability a method declares ({@code initialize}'s and {@code server/discover}'s
 * {@code capabilities}), as it stands on one state of the server: its object, or null when it is
 * not declared right now (a project without prompts declares no {@code prompts}). Two methods
 * may declare the same capability; their objects are merged in the registry's order.
 *
 * @param name       the capability's key ({@code tools}, {@code resources}, …)
 * @param declaredIn the generations that announce it; null for those that offer the method
 * @param <S>        what a declaration reads (the snapshot being served)
 */
public record Capability<S>(String name, Set<Generation> declaredIn, Declaration<S> declaration) {

    /** The capability's object in a generation, on a state; null when it is not declared. */
    @FunctionalInterface
    public interface Declaration<S> {
        JsonObject declare(Generation generation, S state);
    }

    /** A capability announced wherever its method is offered. */
    public static <S> Capability<S> of(String name, Declaration<S> declaration) {
        return new Capability<>(name, null, declaration);
    }
}
