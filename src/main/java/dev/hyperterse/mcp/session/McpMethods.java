package dev.hyperterse.mcp.session;

import dev.hyperterse.mcp.BackendSource;
import dev.hyperterse.mcp.ClientAddress;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LogLevel;
import dev.hyperterse.mcp.McpBackend;
import dev.hyperterse.mcp.McpException;
import dev.hyperterse.mcp.MethodCall;
import dev.hyperterse.mcp.MethodTable;
import dev.hyperterse.mcp.ProtocolVersions;
import dev.hyperterse.mcp.ResourceMethods;
import dev.hyperterse.mcp.ToolMethods;
import dev.hyperterse.mcp.Wire;
import dev.hyperterse.mcp.core.Generation;
import dev.hyperterse.mcp.core.McpMethod;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.ToolException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * The session generation's side of the MCP methods: looks a request's method up in
 * {@link MethodTable} and answers what only sessions do ({@code initialize},
 * {@code logging/setLevel}, {@code resources/subscribe}) and the notifications it acts on
 * ({@code notifications/cancelled}). Transport concerns stay in {@link McpEndpoint}.
 */
final class McpMethods {
    private static final Logger LOG = LoggerFactory.getLogger(McpMethods.class);
    private final BackendSource backends;
    private final SessionStore sessions;
    private final ToolMethods tools;
    private final ResourceMethods resources;
    private final MethodTable table;
    private final SessionUse sessionUse;

    /**
     * @param tools       tools/list and tools/call, shared with the stateless generation
     * @param table       every method, looked up by name for the session generation
     * @param sessionUse  which sessions are in use here, for a store that must make room
     */
    McpMethods(BackendSource backends, SessionStore sessions, ToolMethods tools,
               ResourceMethods resources, MethodTable table, SessionUse sessionUse) {
        this.backends = backends;
        this.sessions = sessions;
        this.sessionUse = sessionUse;
        this.tools = tools;
        this.resources = resources;
        this.table = table;
    }

    /**
     * Answers one request: completes with the response object (a result or an error) and never
     * fails for a caller's mistake.
     *
     * @param session the request's session, or null for a request without one
     */
    Future<JsonObject> request(Envelope env, Session session, RunningRequest scope, RoutingContext rc) {
        Future<JsonObject> result;
        try {
            result = dispatch(env, session, scope, rc);
        } catch (McpException e) {
            return Future.succeededFuture(JsonRpc.error(env.id, e.code(), e.getMessage()));
        } catch (RuntimeException e) {
            result = Future.failedFuture(e);
        }
        return result.map(r -> JsonRpc.result(env.id, r))
                .recover(e -> Future.succeededFuture(ToolMethods.errorResponse(env.id, env.method, e)));
    }

    /**
     * Acts on a notification; unknown ones are ignored, as JSON-RPC requires.
     *
     * @param elsewhere told about a cancellation of a session's request that does not run on this
     *                  node (in a cluster it may run on another)
     */
    void notification(Envelope env, Session session, LiveSession live, java.util.function.BiConsumer<String, Object> elsewhere) {
        if ("notifications/cancelled".equals(env.method)) {
            Object requestId = env.params.getValue("requestId");
            // cancellations refer to requests of the same session; a request without a session
            // cannot be named by anyone else, and unknown or finished ids are ignored
            if (session == null || !JsonRpc.validId(requestId)) {
                return;
            }
            if (!cancelHere(live, requestId)) {
                elsewhere.accept(session.id(), requestId);
            }
            return;
        }
        LOG.debug("notification {}", env.method);
    }

    /** Cancels the session's request if it runs on this node; false when it does not. */
    static boolean cancelHere(LiveSession live, Object requestId) {
        RunningRequest running = live == null ? null : live.running(requestId);
        if (running == null) {
            return false;
        }
        LOG.debug("request {} cancelled by the client", requestId);
        running.cancel();
        live.unregister(running);
        return true;
    }

    private Future<JsonObject> dispatch(Envelope env, Session session, RunningRequest scope, RoutingContext rc) {
        McpMethod<MethodCall, McpBackend> method = table.find(env.method, Generation.SESSION);
        if (method == null) {
            throw new McpException(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + CallerText.cut(env.method));
        }
        return method.handler().handle(new MethodCall(Generation.SESSION, env.method, env.params,
                () -> context(rc, session, scope), new SessionWire(session, scope, rc)));
    }

    /** What the session generation does its own way, for one request. */
    private final class SessionWire implements Wire {
        private final Session session;
        private final RunningRequest scope;
        private final RoutingContext rc;

        SessionWire(Session session, RunningRequest scope, RoutingContext rc) {
            this.session = session;
            this.scope = scope;
            this.rc = rc;
        }

        @Override
        public Future<JsonObject> initialize(MethodCall call) {
            return McpMethods.this.initialize(call.params(), rc);
        }

        @Override
        public Future<JsonObject> listTools(MethodCall call) {
            return tools.listTools(call.params(), call.context(), structuredOutput(session, rc));
        }

        @Override
        public Future<JsonObject> callTool(MethodCall call) {
            return toolsCall(call, session, scope, rc);
        }

        @Override
        public Future<JsonObject> setLevel(MethodCall call) {
            return McpMethods.this.setLevel(call.params(), session);
        }

        @Override
        public Future<JsonObject> subscribe(MethodCall call, boolean on) {
            ResourceMethods.Subscriptions held = session == null ? null
                    : (uri, add, max, full) -> sessions.update(session.id(), kept -> {
                        if (add && kept.subscriptions().size() >= max && !kept.subscribes(uri)) {
                            throw full.get();
                        }
                        return kept.withSubscription(uri, add);
                    }).mapEmpty();
            return backends.onBackend(b -> resources.subscribe(b, call.params(), on, held, call.context()));
        }
    }

    private Future<JsonObject> initialize(JsonObject params, RoutingContext rc) {
        Object requested = params.getValue("protocolVersion");
        if (!(requested instanceof String)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, "initialize: 'protocolVersion' must be a string");
        }
        String version = ProtocolVersions.negotiate((String) requested);
        List<String> declared = clientCapabilities(params.getValue("capabilities"));
        return sessions.create(version, ClientAddress.of(rc.request().remoteAddress()), sessionUse).compose(created -> {
            Session session = created.orElseThrow(() -> new McpException(JsonRpc.SERVER_ERROR,
                    "too many live sessions, all in use; try again later or end unused sessions with DELETE"));
            return declared.isEmpty() ? Future.succeededFuture(session)
                    : sessions.update(session.id(), s -> s.withClientCapabilities(declared)).map(session);
        }).map(session -> {
            rc.response().putHeader(McpEndpoint.SESSION_HEADER, session.id());
            ToolMethods.ServerIdentity server = tools.identity();
            return new JsonObject()
                    .put("protocolVersion", version)
                    .put("capabilities", capabilities())
                    .put("serverInfo", new JsonObject().put("name", server.name()).put("version", server.version()))
                    .put("instructions", ToolMethods.INSTRUCTIONS);
        });
    }

    /** The requests the client declared it answers ({@code elicitation}, {@code sampling}, {@code roots}). */
    private static List<String> clientCapabilities(Object capabilities) {
        if (!(capabilities instanceof JsonObject)) {
            return List.of();
        }
        List<String> declared = new java.util.ArrayList<>();
        for (String name : List.of("elicitation", "sampling", "roots")) {
            if (((JsonObject) capabilities).getValue(name) instanceof JsonObject) {
                declared.add(name);
            }
        }
        return declared;
    }

    /** What the session generation's methods declare ({@link MethodTable}). */
    private JsonObject capabilities() {
        return table.capabilities(Generation.SESSION);
    }

    /**
     * Whether the request's protocol version has {@code outputSchema} and {@code structuredContent}:
     * its session's version, else the version header's, else the version assumed without one.
     */
    private static boolean structuredOutput(Session session, RoutingContext rc) {
        String header = rc.request().getHeader(McpEndpoint.VERSION_HEADER);
        return ProtocolVersions.structuredOutput(session != null ? session.protocolVersion()
                : header != null ? header.trim() : ProtocolVersions.ASSUMED);
    }

    private static CallContext context(RoutingContext rc, Session session, RunningRequest scope) {
        return CallContext.fromRequest(rc.request().headers(), session == null ? null : session.id(),
                scope.cancellation());
    }

    private Future<JsonObject> toolsCall(MethodCall call, Session session, RunningRequest scope, RoutingContext rc) {
        JsonObject params = call.params();
        Object name = params.getValue("name");
        if (!(name instanceof String)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, "tools/call: 'name' must be a string");
        }
        Object arguments = params.getValue("arguments");
        if (arguments != null && !(arguments instanceof JsonObject)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, "tools/call: 'arguments' must be an object");
        }
        return tools.callTool((String) name, arguments == null ? new JsonObject() : (JsonObject) arguments,
                call.context(), scope, structuredOutput(session, rc));
    }

    private Future<JsonObject> setLevel(JsonObject params, Session session) {
        LogLevel level = LogLevel.of(params.getValue("level"));
        if (level == null) {
            throw new McpException(JsonRpc.INVALID_PARAMS, "logging/setLevel: 'level' must be one of " + LogLevel.ALL);
        }
        if (session == null) {
            // nothing to keep it in: without a session no later request could be logged to
            return Future.succeededFuture(new JsonObject());
        }
        return sessions.update(session.id(), s -> s.withLogLevel(level.keyword())).map(x -> new JsonObject());
    }
}
