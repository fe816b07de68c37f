package dev.hyperterse.mcp.core;

import io.vertx.core.json.JsonObject;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The MCP methods this server answers, in one place: each generation's adapter looks a request's
 * method up here, metrics and spans name methods by it, and {@code initialize} and
 * {@code server/discover} announce the capabilities its methods declare. Immutable once built.
 *
 * @param <C> what handlers receive
 * @param <S> what capability declarations read
 */
public final class MethodRegistry<C, S> {
    /** The label metrics and spans give a method this server does not answer (never one per name). */
    public static final String OTHER = "other";
    public static final Set<Generation> EVERY_GENERATION = Collections.unmodifiableSet(EnumSet.allOf(Generation.class));

    private final Map<String, McpMethod<C, S>> methods;

    private MethodRegistry(Map<String, McpMethod<C, S>> methods) {
        this.methods = Collections.unmodifiableMap(methods);
    }

    public static <C, S> Builder<C, S> builder() {
        return new Builder<>();
    }

    /** The method by this name if the generation offers it, else null (-32601 to the caller). */
    public McpMethod<C, S> find(String name, Generation generation) {
        McpMethod<C, S> method = name == null ? null : methods.get(name);
        return method != null && method.offeredIn(generation) ? method : null;
    }

    /** How metrics and spans name a request's method: its name when the generation offers it, else {@link #OTHER}. */
    public String label(String name, Generation generation) {
        return find(name, generation) != null ? name : OTHER;
    }

    /** The methods in registration order. */
    public List<McpMethod<C, S>> methods() {
        return List.copyOf(methods.values());
    }

    /** The capabilities a generation announces on this state, in registration order. */
    public JsonObject capabilities(Generation generation, S state) {
        JsonObject capabilities = new JsonObject();
        for (McpMethod<C, S> method : methods.values()) {
            if (!method.declaresIn(generation)) {
                continue;
            }
            Capability<S> capability = method.capability();
            JsonObject declared = capability.declaration().declare(generation, state);
            if (declared == null) {
                continue;
            }
            JsonObject already = capabilities.getJsonObject(capability.name());
            if (already == null) {
                capabilities.put(capability.name(), declared);
            } else {
                already.mergeIn(declared);
            }
        }
        return capabilities;
    }

    public static final class Builder<C, S> {
        private final Map<String, McpMethod<C, S>> methods = new LinkedHashMap<>();

        /** Adds a method; a name may be registered once. */
        public Builder<C, S> add(McpMethod<C, S> method) {
            if (methods.putIfAbsent(method.name(), method) != null) {
                throw new IllegalArgumentException("method registered twice: " + method.name());
            }
            return this;
        }

        public Builder<C, S> add(String name, Set<Generation> generations, McpMethod.Handler<C> handler) {
            return add(new McpMethod<>(name, handler, null, generations));
        }

        public Builder<C, S> add(String name, Set<Generation> generations, Capability<S> capability,
                                 McpMethod.Handler<C> handler) {
            return add(new McpMethod<>(name, handler, capability, generations));
        }

        public MethodRegistry<C, S> build() {
            return new MethodRegistry<>(new LinkedHashMap<>(methods));
        }
    }
}
