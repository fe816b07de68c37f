package dev.hyperterse.mcp;

import dev.hyperterse.model.ToolDef;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.ToolException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


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

    /** The status metrics and spans give a request answered with an {@code isError} result. */
    public static final String TOOL_ERROR = "tool_error";

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
        return backends.read(b -> {
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
        });
    }

    /** Of these resource URIs, those a listen stream of this caller may watch (see {@link ResourceMethods#watchable}). */
    public Future<java.util.List<String>> watchable(java.util.List<String> uris, CallContext context) {
        return backends.onBackend(b -> resources.watchable(b, uris, context));
    }

    /**
     * Runs one of {@link #CONTENT_METHODS} on the current snapshot (kept until it completes);
     * fails with an {@link McpException} for a caller's mistake.
     */
    public Future<JsonObject> content(String method, JsonObject params, CallContext context) {
        return backends.onBackend(b -> {
            switch (method) {
                case "prompts/list":
                    return prompts.list(b, context);
                case "prompts/get":
                    return prompts.get(b, params, context);
                case "resources/list":
                    return resources.list(b, context, false);
                case "resources/templates/list":
                    return resources.list(b, context, true);
                case "resources/read":
                    return resources.read(b, params, context);
                case "completion/complete":
                    return completions.complete(b, params, context);
                default:
                    throw new IllegalArgumentException("not a content method: " + method);
            }
        });
    }

    /** Whether the server tells clients when a reload changed its tools. */
    public boolean listChanged() {
        return listChanged;
    }

    public String instructions() {
        return McpMethods.INSTRUCTIONS;
    }

    public ServerIdentity identity() {
        return backends.read(this::identity);
    }

    /** {@link #identity()} of a backend the request holds. */
    public ServerIdentity identity(McpBackend backend) {
        return new ServerIdentity(backend.serverName(), backend.serverVersion());
    }

    /**
     * Whether the project guards tools with auth: then what a caller learns from this server
     * depends on its credentials ({@code search} shows each caller its own tools, {@code execute}
     * answers by them), so answers about it are private to the caller, never shared across callers.
     */
    public boolean answersDependOnCredentials() {
        return backends.read(b -> b.pipeline().guardsAnyTool());
    }

    /**
     * One page of {@code tools/list} for this caller (the project's own tools are listed only to
     * those who may run them, when {@code tools.exposure} lists them); fails with an
     * {@link McpException} for a bad cursor.
     *
     * @param structured whether the caller's protocol version has {@code outputSchema}
     *                   ({@link ProtocolVersions#structuredOutput})
     */
    public Future<JsonObject> listTools(JsonObject params, CallContext context, boolean structured) {
        return backends.onBackend(b -> tools.list(b, params, context, structured, false));
    }

    /**
     * One page of {@code tools/list} as protocol 2026-07-28 shows it: with {@code outputSchema},
     * and with the {@code x-mcp-header} declarations of the arguments clients mirror into
     * {@code Mcp-Param-*} headers ({@link #mirroredParams}).
     */
    public Future<JsonObject> listToolsMirrored(JsonObject params, CallContext context) {
        return backends.onBackend(b -> tools.list(b, params, context, true, true));
    }

    /**
     * The arguments of the tool {@code tools/call} reaches by this name that 2026-07-28 clients
     * mirror into headers (as {@link #listToolsMirrored} declares them); empty when none.
     */
    public java.util.List<MirroredParam> mirroredParams(String tool) {
        return backends.read(b -> mirroredParams(b, tool));
    }

    /** {@link #mirroredParams(String)} on a backend the request holds. */
    public java.util.List<MirroredParam> mirroredParams(McpBackend backend, String tool) {
        return tools.mirroredParams(backend, tool);
    }

    /**
     * Leases the current snapshot for a request that reads it more than once (headers checked
     * against the tool, then the call): everything the request does sees that one snapshot, whatever
     * a reload swaps in meanwhile. The caller releases it exactly once, when the request completes.
     */
    public BackendSource.Lease lease() {
        return backends.acquire();
    }

    /**
     * Whether {@code execute} of this project tool must be confirmed by the client first: the tool
     * is marked {@code confirm: true} and this caller passes its auth (a caller who may not run it
     * learns nothing more than {@code execute} itself would tell).
     */
    public Future<Boolean> needsConfirmation(String tool, CallContext context) {
        return backends.onBackend(b -> {
            ToolDef def = b.pipeline().tools().get(tool);
            return def == null || !def.confirm() ? Future.succeededFuture(false) : b.pipeline().mayExecute(def, context);
        });
    }

    /**
     * Runs {@code tools/call} on the current snapshot, kept until the call completes (whatever a
     * reload swaps in meanwhile): completes with the CallToolResult (an {@code isError} one for a
     * failed tool, by default), or fails with an {@link McpException} or (with
     * {@code server.tool_errors: rpc}) a {@link ToolException}; {@link #errorResponse} maps both.
     *
     * @param structured whether the caller's protocol version has {@code structuredContent}
     */
    public Future<JsonObject> callTool(String name, JsonObject arguments, CallContext context, CallScope scope,
                                       boolean structured) {
        return backends.onBackend(b -> tools.call(b, name, arguments, context, scope, structured));
    }

    /** {@link #callTool(String, JsonObject, CallContext, CallScope, boolean)} on a backend the request holds. */
    public Future<JsonObject> callTool(McpBackend backend, String name, JsonObject arguments, CallContext context,
                                       CallScope scope, boolean structured) {
        try {
            return tools.call(backend, name, arguments, context, scope, structured);
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    /**
     * How metrics and spans count a method's result: {@code tool_error} for a CallToolResult with
     * {@code isError: true} (the OpenTelemetry MCP conventions' {@code error.type}), so failed
     * tool calls stay visible now that they answer with results; {@code ok} otherwise.
     */
    public static String resultStatus(Object result) {
        return result instanceof JsonObject && Boolean.TRUE.equals(((JsonObject) result).getValue("isError"))
                ? TOOL_ERROR : "ok";
    }

    /** What a failed stage tells besides its message: {@code {stage, tool}} ({@code tool} when the call named one). */
    static JsonObject errorData(ToolException e) {
        JsonObject data = new JsonObject().put("stage", e.stage().key());
        if (e.tool() != null) {
            data.put("tool", e.tool());
        }
        return data;
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
            return JsonRpc.error(id, ((ToolException) e).code(), e.getMessage(), errorData((ToolException) e));
        }
        LOG.warn("unexpected failure in {}: {}", method, e.toString());
        LOG.debug("cause", e);
        return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "Internal error");
    }
}
