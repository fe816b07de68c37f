package dev.hyperterse.mcp;

import dev.hyperterse.model.ToolDef;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.ToolException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * The tool methods this server implements, once, for every wire generation: the server's identity,
 * {@code tools/list} and {@code tools/call} ({@link MethodTable} routes every method to its
 * handler). A generation's adapter (the session transport in this package, the stateless one in
 * {@code mcp.stateless}) decodes its envelope, then calls these with a {@link CallScope} for
 * progress, logs and cancellation; none of these knows which adapter called.
 */
public final class ToolMethods {
    private static final Logger LOG = LoggerFactory.getLogger(ToolMethods.class);

    /** The name and version a server reports about itself. */
    public record ServerIdentity(String name, String version) {
    }

    /** The status metrics and spans give a request answered with an {@code isError} result. */
    public static final String TOOL_ERROR = "tool_error";
    /** What the server tells a client it is for ({@code instructions}, in both generations). */
    public static final String INSTRUCTIONS = "This server exposes its tools through two meta-tools. Call 'search' with a "
            + "natural-language query to find the right tool and its inputs, then call 'execute' with "
            + "{\"tool\": <name>, \"inputs\": {...}}.";

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
        return INSTRUCTIONS;
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
