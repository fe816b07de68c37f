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

    /** The prompt, resource and completion methods besides {@code tools/*}. */
    public static final java.util.Set<String> CONTENT_METHODS = java.util.Set.of("prompts/list", "prompts/get",
            "resources/list", "resources/templates/list", "resources/read", "completion/complete");

    private final BackendSource backends;
    private final ToolCatalog tools;
    private final boolean listChanged;
    private final PromptMethods prompts;
    private final ResourceMethods resources;
    private final CompletionMethods completions;

    ToolMethods(BackendSource backends, ToolCatalog tools, boolean listChanged, PromptMethods prompts,
                ResourceMethods resources, CompletionMethods completions) {
        this.backends = backends;
        this.tools = tools;
        this.listChanged = listChanged;
        this.prompts = prompts;
        this.resources = resources;
        this.completions = completions;
    }

    /**
     * The {@code prompts}, {@code resources} and {@code completions} capabilities, each only when
     * the project (or the fixtures) has them.
     *
     * @param subscribe whether resources can be subscribed to (the session generation)
     */
    public JsonObject contentCapabilities(boolean subscribe) {
        BackendSource.Lease lease = backends.acquire();
        try {
            McpBackend b = lease.backend();
            JsonObject caps = new JsonObject();
            if (prompts.offered(b)) {
                caps.put("prompts", new JsonObject().put("listChanged", listChanged));
            }
            if (resources.offered(b)) {
                JsonObject r = new JsonObject().put("listChanged", listChanged);
                caps.put("resources", subscribe ? r.put("subscribe", true) : r);
            }
            if (completions.offered(b)) {
                caps.put("completions", new JsonObject());
            }
            return caps;
        } finally {
            lease.release();
        }
    }

    /**
     * Runs one of {@link #CONTENT_METHODS} on the current snapshot (kept until it completes);
     * fails with an {@link McpException} for a caller's mistake.
     */
    public Future<JsonObject> content(String method, JsonObject params, CallContext context) {
        BackendSource.Lease lease = backends.acquire();
        Future<JsonObject> result;
        try {
            McpBackend b = lease.backend();
            switch (method) {
                case "prompts/list":
                    result = prompts.list(b, context);
                    break;
                case "prompts/get":
                    result = prompts.get(b, params, context);
                    break;
                case "resources/list":
                    result = resources.list(b, context, false);
                    break;
                case "resources/templates/list":
                    result = resources.list(b, context, true);
                    break;
                case "resources/read":
                    result = resources.read(b, params, context);
                    break;
                case "completion/complete":
                    result = completions.complete(b, params, context);
                    break;
                default:
                    throw new IllegalArgumentException("not a content method: " + method);
            }
        } catch (RuntimeException e) {
            lease.release();
            return Future.failedFuture(e);
        }
        return result.andThen(done -> lease.release());
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
