package dev.hyperterse.mcp;

import dev.hyperterse.mcp.core.Generation;
import dev.hyperterse.pipeline.CallContext;
import io.vertx.core.json.JsonObject;

import java.util.function.Supplier;

/** One request as a method of {@link MethodTable} receives it, whichever generation decoded it. */
public final class MethodCall {
    private final Generation generation;
    private final String method;
    private final JsonObject params;
    private final Supplier<CallContext> contextSource;
    private final Wire wire;
    private CallContext context;

    /**
     * @param context made when a method first asks for it (the headers auth plugins read, the
     *                session, the request's cancellation)
     */
    public MethodCall(Generation generation, String method, JsonObject params, Supplier<CallContext> context, Wire wire) {
        this.generation = generation;
        this.method = method;
        this.params = params;
        this.contextSource = context;
        this.wire = wire;
    }

    public Generation generation() {
        return generation;
    }

    public String method() {
        return method;
    }

    public JsonObject params() {
        return params;
    }

    public CallContext context() {
        if (context == null) {
            context = contextSource.get();
        }
        return context;
    }

    public Wire wire() {
        return wire;
    }
}
