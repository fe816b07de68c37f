package dev.hyperterse.mcp;

import dev.hyperterse.model.ToolDef;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.ToolException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The MCP methods this server implements, once, for every wire generation: the server's identity,
 * {@code tools/list} and {@code tools/call}. A generation's adapter (the session transport in this
 * package, the stateless one in {@code mcp.stateless}) decodes its envelope, then calls these with
 * a {@link CallScope} for progress, logs and cancellation; none of these knows which adapter called.
 */
public final class ToolMethods {
    private static final Logger LOG = LoggerFactory.getLogger(ToolMethods.class);

    /** The name and version a server reports about itself. */
    public record ServerIdentity(String name, String version) {
    }

    private final BackendSource backends;
    private final ToolCatalog tools;
    private final boolean listChanged;

    ToolMethods(BackendSource backends, ToolCatalog tools, boolean listChanged) {
        this.backends = backends;
        this.tools = tools;
        this.listChanged = listChanged;
    }

    /** Whether the server tells clients when a reload changed its tools. */
    public boolean listChanged() {
        return listChanged;
    }

    public String instructions() {
        return McpMethods.INSTRUCTIONS;
    }

    public ServerIdentity identity() {
        BackendSource.Lease lease = backends.acquire();
        try {
            McpBackend b = lease.backend();
            return new ServerIdentity(b.serverName(), b.serverVersion());
        } finally {
            lease.release();
        }
    }

    /**
     * Whether the project guards tools with auth: then what a caller learns from this server
     * depends on its credentials ({@code search} shows each caller its own tools, {@code execute}
     * answers by them), so answers about it are private to the caller, never shared across callers.
     */
    public boolean answersDependOnCredentials() {
        BackendSource.Lease lease = backends.acquire();
        try {
            return lease.backend().pipeline().guardsAnyTool();
        } finally {
            lease.release();
        }
    }

    /**
     * One page of {@code tools/list} for this caller (the project's own tools are listed only to
     * those who may run them, when {@code tools.exposure} lists them); fails with an
     * {@link McpException} for a bad cursor.
     */
    public Future<JsonObject> listTools(JsonObject params, CallContext context) {
        BackendSource.Lease lease = backends.acquire();
        Future<JsonObject> page;
        try {
            page = tools.list(lease.backend(), params, context);
        } catch (RuntimeException e) {
            lease.release();
            return Future.failedFuture(e);
        }
        return page.andThen(done -> lease.release());
    }

    /**
     * Whether {@code execute} of this project tool must be confirmed by the client first: the tool
     * is marked {@code confirm: true} and this caller passes its auth (a caller who may not run it
     * learns nothing more than {@code execute} itself would tell).
     */
    public Future<Boolean> needsConfirmation(String tool, Map<String, String> headers) {
        BackendSource.Lease lease = backends.acquire();
        try {
            ToolDef def = lease.backend().pipeline().tools().get(tool);
            if (def == null || !def.confirm()) {
                return Future.succeededFuture(false);
            }
            return lease.backend().pipeline().mayExecute(def, new CallContext(headers, null, null));
        } finally {
            lease.release();
        }
    }

    /**
     * Runs {@code tools/call}: completes with the CallToolResult, or fails with an
     * {@link McpException} or a {@link ToolException} ({@link #errorResponse} maps both).
     *
     * @param headers   the HTTP request's headers, names lower-cased (auth plugins read them)
     * @param sessionId the caller's session, or null
     */
    public Future<JsonObject> callTool(String name, JsonObject arguments, Map<String, String> headers, String sessionId,
                                       CallScope scope) {
        CallContext context = new CallContext(headers, sessionId, scope.cancellation());
        // the call keeps its snapshot until it completes, whatever a reload swaps in meanwhile
        BackendSource.Lease lease = backends.acquire();
        Future<JsonObject> call;
        try {
            call = tools.call(lease.backend(), name, arguments, context, scope);
        } catch (RuntimeException e) {
            lease.release();
            return Future.failedFuture(e);
        }
        return call.andThen(done -> lease.release());
    }

    /**
     * The JSON-RPC error response for a failed method: the message of an {@link McpException} or
     * {@link ToolException} (with {@code data: {stage, tool}}), "Internal error" for anything else.
     */
    public static JsonObject errorResponse(Object id, String method, Throwable e) {
        if (e instanceof McpException) {
            return JsonRpc.error(id, ((McpException) e).code(), e.getMessage());
        }
        if (e instanceof ToolException) {
            ToolException te = (ToolException) e;
            JsonObject data = new JsonObject().put("stage", te.stage().key());
            if (te.tool() != null) {
                data.put("tool", te.tool());
            }
            return JsonRpc.error(id, te.code(), te.getMessage(), data);
        }
        LOG.warn("unexpected failure in {}: {}", method, e.toString());
        LOG.debug("cause", e);
        return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "Internal error");
    }
}
