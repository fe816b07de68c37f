package dev.hyperterse.mcp.stateless;

import dev.hyperterse.mcp.BackendSource;
import dev.hyperterse.mcp.ClientAddress;
import dev.hyperterse.mcp.GenerationAdapter;
import dev.hyperterse.mcp.InputRound;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LargeJson;
import dev.hyperterse.mcp.McpBackend;
import dev.hyperterse.mcp.McpException;
import dev.hyperterse.mcp.McpExtensions;
import dev.hyperterse.mcp.MethodCall;
import dev.hyperterse.mcp.MethodTable;
import dev.hyperterse.mcp.MirroredParam;
import dev.hyperterse.mcp.ProtocolVersions;
import dev.hyperterse.mcp.RequestRecord;
import dev.hyperterse.mcp.RoundPrompt;
import dev.hyperterse.mcp.SseKeepAlive;
import dev.hyperterse.mcp.ToolMethods;
import dev.hyperterse.mcp.Wire;
import dev.hyperterse.mcp.core.Generation;
import dev.hyperterse.mcp.core.McpMethod;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Protocol 2026-07-28 on the shared MCP endpoint: every POST is one self-contained request. Its
 * {@code _meta} names the protocol version and the client's capabilities; the standard headers
 * mirror the body and must agree with it; there is no session, no GET stream and nothing to resume,
 * so any node of a cluster answers any request. Results carry {@code resultType}, list and discovery
 * results carry caching hints, and methods that need more from the client answer with an
 * InputRequiredResult whose state is sealed ({@link RequestStateSeal}) rather than kept.
 */
public final class StatelessEndpoint implements GenerationAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(StatelessEndpoint.class);
    public static final String VERSION = "2026-07-28";
    /** How long clients may cache answers about a catalog that can change (a reloading server). */
    static final long TTL_WHEN_RELOADING_MILLIS = 60_000;
    /** How long clients may cache answers about a catalog that only a restart changes. */
    static final long TTL_FIXED_MILLIS = 3_600_000;
    /** The most resources one listen stream watches, and the longest URI: as for a session's subscriptions. */
    static final int MAX_WATCHED_RESOURCES = 100;
    static final int MAX_WATCHED_URI_CHARS = 2048;

    private final ToolMethods methods;
    private final MethodTable table;
    private final ListenStreams listeners;
    private final McpExtensions extensions;
    private final Future<RequestStateSeal> seal;
    private final SpentStates spentConfirmations;
    private final Metrics metrics;
    private final Tracing tracing;
    private final JsonArray supportedVersions;

    /**
     * The 2026-07-28 generation over the parts both generations share. The request-state key
     * comes from the environment ({@value RequestStateKey#ENV}) so every node of a cluster can be
     * given the same one; without it the nodes agree on one.
     */
    public static StatelessEndpoint create(GenerationAdapter.Shared shared) {
        Future<RequestStateSeal> seal = RequestStateKey.resolve(shared.vertx(), System.getenv(RequestStateKey.ENV))
                .map(key -> new RequestStateSeal(key, shared.clock()))
                .onFailure(e -> LOG.error("cannot agree on the request-state key with the cluster: {}", e.toString()));
        // listen streams are held as sessions are: within server.sessions.max and .per_client
        return new StatelessEndpoint(shared.toolMethods(), shared.table(), shared.extensions(), seal,
                new SpentStates(shared.clock(), shared.vertx()), shared.metrics(), shared.tracing(), shared.keepAlive(),
                shared.settings().sessions().max(), shared.settings().sessions().perClient());
    }

    /**
     * @param table               every method, looked up by name for this generation
     * @param extensions          what extensions add, of which this generation alone serves the
     *                            tools and prompts that answer through input rounds
     * @param seal                seals input-round state (every node of a cluster needs the same
     *                            key, which may take a moment to agree on at start)
     * @param spentConfirmations  the confirmation states already used (each runs its call once)
     * @param maxListeners        the most {@code subscriptions/listen} streams open on this node
     * @param listenersPerClient  the most of them one client (network address) holds open
     */
    public StatelessEndpoint(ToolMethods methods, MethodTable table, McpExtensions extensions, Future<RequestStateSeal> seal,
                             SpentStates spentConfirmations, Metrics metrics, Tracing tracing, SseKeepAlive keepAlive,
                             int maxListeners, int listenersPerClient) {
        this.methods = methods;
        this.table = table;
        this.listeners = new ListenStreams(keepAlive, maxListeners, listenersPerClient);
        this.extensions = extensions;
        this.seal = seal;
        this.spentConfirmations = spentConfirmations;
        this.metrics = metrics;
        this.tracing = tracing;
        JsonArray versions = new JsonArray().add(VERSION);
        List<String> legacy = new ArrayList<>(ProtocolVersions.SUPPORTED);
        java.util.Collections.reverse(legacy);
        legacy.forEach(versions::add);
        this.supportedVersions = versions;
    }

    @Override
    public String version() {
        return VERSION;
    }

    /**
     * Whether a POST speaks this generation: its {@code MCP-Protocol-Version} header names
     * 2026-07-28, or its {@code _meta} names a protocol version and the header names none of the
     * session generation's (an unknown version in both is refused here, with the supported ones).
     * Anything else, including a request without {@code _meta} at an unknown version, keeps the
     * session generation's rules.
     */
    @Override
    public boolean speaks(String versionHeader, Object message) {
        String header = versionHeader == null ? null : versionHeader.trim();
        if (VERSION.equals(header)) {
            return true;
        }
        boolean declares = message instanceof JsonObject && RequestMeta.declaredVersion((JsonObject) message) != null;
        return declares && (header == null || header.isEmpty() || !ProtocolVersions.supported(header));
    }

    /**
     * Tells the listen streams that asked for it that a list changed (after a reload):
     * {@code method} is {@code notifications/tools/list_changed}, {@code …/prompts/…} or
     * {@code …/resources/…}; any other method reaches none.
     */
    @Override
    public int listChanged(String method) {
        return listeners.listChanged(method);
    }

    /** Tells the listen streams watching {@code uri} that its content changed (after a reload). */
    @Override
    public int resourceUpdated(String uri) {
        return listeners.resourceUpdated(uri);
    }

    /** Open {@code subscriptions/listen} streams on this node. */
    public int listeners() {
        return listeners.size();
    }

    /** Ends every listen stream with its result (shutdown). */
    @Override
    public void closeAll() {
        listeners.endAll();
    }

    /** Answers one POST whose body was parsed to {@code message}. */
    @Override
    public void post(RoutingContext rc, Object message) {
        if (!(message instanceof JsonObject)) {
            reject(rc.response(), 400, null, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: a " + VERSION + " POST carries one JSON-RPC message (batches are not accepted)");
            return;
        }
        JsonObject m = (JsonObject) message;
        Object rawId = m.getValue("id");
        Object id = JsonRpc.validId(rawId) ? rawId : null;
        if (!"2.0".equals(m.getValue("jsonrpc"))) {
            reject(rc.response(), 400, id, JsonRpc.INVALID_REQUEST, "Invalid Request: 'jsonrpc' must be \"2.0\"");
            return;
        }
        Object method = m.getValue("method");
        if (!(method instanceof String)) {
            reject(rc.response(), 400, id, JsonRpc.INVALID_REQUEST, method == null
                    ? "Invalid Request: 'method' is required (clients send no responses in " + VERSION + ")"
                    : "Invalid Request: 'method' must be a string");
            return;
        }
        if (!m.containsKey("id")) {
            // this revision defines no client notifications over HTTP; any is accepted and ignored
            rc.response().setStatusCode(202).end();
            return;
        }
        if (id == null) {
            reject(rc.response(), 400, null, JsonRpc.INVALID_REQUEST, "Invalid Request: 'id' must be a string or an integer");
            return;
        }
        Object params = m.getValue("params");
        if (params != null && !(params instanceof JsonObject)) {
            reject(rc.response(), 400, id, JsonRpc.INVALID_PARAMS, "Invalid params: 'params' must be an object");
            return;
        }
        String name = (String) method;
        RequestRecord record = RequestRecord.start(tracing, metrics, table.label(name, Generation.STATELESS), VERSION);
        JsonObject p = params == null ? new JsonObject() : (JsonObject) params;
        tracing.within(record.span(), () -> {
            try {
                RequestMeta meta = RequestMeta.of(p);
                StandardHeaders.check(rc.request().headers(), name, p, meta.protocolVersion());
                if (!VERSION.equals(meta.protocolVersion())) {
                    throw new StatelessError(400, StatelessError.UNSUPPORTED_PROTOCOL_VERSION,
                            "Unsupported protocol version: " + CallerText.cut(meta.protocolVersion()),
                            new JsonObject().put("supported", supportedVersions.copy()).put("requested", meta.protocolVersion()));
                }
                dispatch(rc, id, name, p, meta, record);
            } catch (StatelessError e) {
                refuse(rc.response(), id, e, record);
            }
            return Future.succeededFuture();
        });
    }

    /** Answers a request refused before or while it was dispatched, and records why. */
    private static void refuse(HttpServerResponse response, Object id, StatelessError e, RequestRecord record) {
        record.finish(String.valueOf(e.code()), e.getMessage());
        reject(response, e.httpStatus(), id, e.code(), e.getMessage(), e.data());
    }

    private void dispatch(RoutingContext rc, Object id, String method, JsonObject params, RequestMeta meta,
                          RequestRecord record) {
        McpMethod<MethodCall, McpBackend> found = table.find(method, Generation.STATELESS);
        if (found == null) {
            // initialize, ping, logging/setLevel and resources/subscribe were removed in this revision
            throw new StatelessError(404, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + CallerText.cut(method));
        }
        Future<JsonObject> result = found.handler().handle(new MethodCall(Generation.STATELESS, method, params,
                () -> context(rc, null), new StatelessWire(rc, id, meta, record)));
        if (result != null) {
            answer(rc.response(), id, result, record);
        }
    }

    /** What 2026-07-28 does its own way, for one request. */
    private final class StatelessWire implements Wire {
        private final RoutingContext rc;
        private final Object id;
        private final RequestMeta meta;
        private final RequestRecord record;

        StatelessWire(RoutingContext rc, Object id, RequestMeta meta, RequestRecord record) {
            this.rc = rc;
            this.id = id;
            this.meta = meta;
            this.record = record;
        }

        @Override
        public Future<JsonObject> discover(MethodCall call) {
            return StatelessEndpoint.this.discover();
        }

        @Override
        public Future<JsonObject> listTools(MethodCall call) {
            return StatelessEndpoint.this.listTools(call.params(), call.context());
        }

        @Override
        public Future<JsonObject> callTool(MethodCall call) {
            toolsCall(rc, id, call.params(), meta, record);
            return null;
        }

        @Override
        public Future<JsonObject> listen(MethodCall call) {
            StatelessEndpoint.this.listen(rc, id, call.params());
            record.ok();
            return null;
        }

        /** Lists and reads carry caching hints. */
        @Override
        public Future<JsonObject> listing(Future<JsonObject> result) {
            return result.map(r -> cacheable(r, methods.answersDependOnCredentials()));
        }

        /** The prompts that answer through input rounds come first. */
        @Override
        public Future<JsonObject> getPrompt(MethodCall call, Supplier<Future<JsonObject>> catalog) {
            JsonObject params = call.params();
            Object promptName = params.getValue("name");
            RoundPrompt roundPrompt = promptName instanceof String ? extensions.roundPrompt((String) promptName) : null;
            if (roundPrompt == null) {
                return catalog.get();
            }
            if (!seal.isComplete() || seal.failed()) {
                throw new StatelessError(503, JsonRpc.INTERNAL_ERROR,
                        "Service Unavailable: input rounds cannot be sealed right now");
            }
            return roundPrompt.get(new SealedRound(meta, inputResponses(params), params, seal.result()));
        }
    }

    private Future<JsonObject> discover() {
        JsonObject capabilities = table.capabilities(Generation.STATELESS);
        return Future.succeededFuture(cacheable(new JsonObject()
                .put("supportedVersions", supportedVersions.copy())
                .put("capabilities", capabilities)
                .put("instructions", methods.instructions()), false));
    }

    /** What a method knows of its request: the headers auth plugins read, and the call's cancellation if any. */
    private static CallContext context(RoutingContext rc, StatelessExchange exchange) {
        return CallContext.fromRequest(rc.request().headers(), null, exchange == null ? null : exchange.cancellation());
    }

    private Future<JsonObject> listTools(JsonObject params, CallContext context) {
        // 2026-07-28 has outputSchema and structuredContent, and x-mcp-header
        return methods.listToolsMirrored(params, context).map(page -> {
            if (!page.containsKey("nextCursor")) {
                // the input-round tools come after the last page
                JsonArray tools = page.getJsonArray("tools");
                extensions.roundToolDefinitions().forEach(tools::add);
            }
            return cacheable(page, methods.answersDependOnCredentials());
        });
    }

    private void toolsCall(RoutingContext rc, Object id, JsonObject params, RequestMeta meta, RequestRecord record) {
        Object name = params.getValue("name");
        if (!(name instanceof String)) {
            throw new StatelessError(200, JsonRpc.INVALID_PARAMS, "Invalid params: tools/call: 'name' must be a string");
        }
        Object arguments = params.getValue("arguments");
        if (arguments != null && !(arguments instanceof JsonObject)) {
            throw new StatelessError(200, JsonRpc.INVALID_PARAMS, "Invalid params: tools/call: 'arguments' must be an object");
        }
        JsonObject responses = inputResponses(params);
        if (!seal.isComplete()) {
            seal.onComplete(ready -> {
                try {
                    toolsCall(rc, id, params, meta, record);
                } catch (StatelessError e) {
                    refuse(rc.response(), id, e, record);
                }
            });
            return;
        }
        if (seal.failed()) {
            throw new StatelessError(503, JsonRpc.INTERNAL_ERROR, "Service Unavailable: input rounds cannot be sealed right now");
        }
        // a state that is not authentic is refused here, before the snapshot is leased
        InputRound round = new SealedRound(meta, responses, params, seal.result());
        JsonObject args = arguments == null ? new JsonObject() : (JsonObject) arguments;
        String tool = (String) name;
        McpExtensions.Round roundTool = extensions.roundTool(tool);
        // one snapshot from the header check to the answer: a reload meanwhile never splits the request
        BackendSource.Lease lease = methods.lease();
        try {
            // the Mcp-Param-* headers of what the tool declares x-mcp-header
            StandardHeaders.checkParams(rc.request().headers(), args, roundTool != null
                    ? MirroredParam.declaredIn(roundTool.definition().getJsonObject("inputSchema"))
                    : methods.mirroredParams(lease.backend(), tool));
        } catch (RuntimeException e) {
            lease.release();
            throw e;
        }
        StatelessExchange exchange = new StatelessExchange(rc.response(), meta, listeners.keepAlive());
        CallContext context = context(rc, exchange);
        RoundQuestions questions = new RoundQuestions(round, tool, args, context, spentConfirmations);
        exchange.confirmWith(new RoundConfirmation(round, context, spentConfirmations, questions));
        exchange.askWith(questions);
        Future<JsonObject> result;
        try {
            result = roundTool != null ? roundTool.call().call(round, exchange)
                    : methods.callTool(lease.backend(), tool, args, context, exchange, true);
        } catch (RuntimeException e) {
            result = Future.failedFuture(e);
        }
        result.onComplete(ar -> {
            ToolMethods.ServerIdentity server = methods.identity(lease.backend());
            lease.release();
            JsonObject response;
            int httpStatus = 200;
            if (ar.succeeded()) {
                response = JsonRpc.result(id, complete(ar.result(), server));
            } else if (ar.cause() instanceof StatelessError) {
                StatelessError e = (StatelessError) ar.cause();
                response = JsonRpc.error(id, e.code(), e.getMessage(), e.data());
                httpStatus = e.httpStatus();
            } else {
                response = ToolMethods.errorResponse(id, "tools/call", ar.cause());
            }
            record.finish(response, exchange.cancellation().isComplete());
            exchange.respond(response, httpStatus);
        });
    }

    /** {@code params.inputResponses}: absent, or an object of answer objects (anything else is -32602). */
    private static JsonObject inputResponses(JsonObject params) {
        if (!params.containsKey("inputResponses")) {
            return new JsonObject();
        }
        Object value = params.getValue("inputResponses");
        if (!(value instanceof JsonObject)) {
            throw new StatelessError(200, JsonRpc.INVALID_PARAMS,
                    "Invalid params: 'inputResponses' must be an object of answers keyed as the input requests were");
        }
        for (Map.Entry<String, Object> e : (JsonObject) value) {
            if (!(e.getValue() instanceof JsonObject)) {
                throw new StatelessError(200, JsonRpc.INVALID_PARAMS, "Invalid params: inputResponses."
                        + CallerText.cut(e.getKey()) + " must be an object (the client's result for that input request)");
            }
        }
        return (JsonObject) value;
    }

    private void listen(RoutingContext rc, Object id, JsonObject params) {
        Object filter = params.getValue("notifications");
        if (!(filter instanceof JsonObject)) {
            throw new StatelessError(200, JsonRpc.INVALID_PARAMS,
                    "Invalid params: subscriptions/listen: 'notifications' must be an object (the notification types wanted)");
        }
        JsonObject asked = (JsonObject) filter;
        Set<String> lists = new java.util.HashSet<>();
        if (Boolean.TRUE.equals(asked.getValue("toolsListChanged")) && sendsListChanged()) {
            lists.add(ListenStreams.TOOLS_LIST_CHANGED);
        }
        // prompts, resources and their contents change only by a reload, and are promised only
        // when the project offers them (as server/discover's capabilities say)
        JsonObject offered = methods.listChanged() ? table.capabilities(Generation.STATELESS) : new JsonObject();
        if (Boolean.TRUE.equals(asked.getValue("promptsListChanged")) && offered.containsKey("prompts")) {
            lists.add(ListenStreams.PROMPTS_LIST_CHANGED);
        }
        if (Boolean.TRUE.equals(asked.getValue("resourcesListChanged")) && offered.containsKey("resources")) {
            lists.add(ListenStreams.RESOURCES_LIST_CHANGED);
        }
        List<String> uris = resourceSubscriptions(asked.getValue("resourceSubscriptions"));
        String client = ClientAddress.of(rc.request().remoteAddress());
        if (uris.isEmpty() || !offered.containsKey("resources")) {
            listeners.open(rc.response(), id, new ListenStreams.Wanted(lists, Set.of()), client);
            return;
        }
        table.watchable(uris, context(rc, null)).onComplete(ar -> {
            try {
                listeners.open(rc.response(), id, new ListenStreams.Wanted(lists,
                        new java.util.LinkedHashSet<>(ar.succeeded() ? ar.result() : List.of())), client);
            } catch (StatelessError e) {
                reject(rc.response(), e.httpStatus(), id, e.code(), e.getMessage(), e.data());
            }
        });
    }

    /** The resource URIs a listen request names: strings, as many as a session may watch. */
    private static List<String> resourceSubscriptions(Object value) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof JsonArray) || ((JsonArray) value).size() > MAX_WATCHED_RESOURCES
                || ((JsonArray) value).stream().anyMatch(u -> !(u instanceof String)
                        || ((String) u).length() > MAX_WATCHED_URI_CHARS)) {
            throw new StatelessError(200, JsonRpc.INVALID_PARAMS, "Invalid params: subscriptions/listen: "
                    + "'notifications.resourceSubscriptions' must be an array of at most " + MAX_WATCHED_RESOURCES
                    + " resource URIs (each at most " + MAX_WATCHED_URI_CHARS + " characters)");
        }
        List<String> uris = new ArrayList<>();
        ((JsonArray) value).forEach(u -> uris.add((String) u));
        return uris;
    }

    /** Whether this server sends tool-list changes: it reloads, or an extension announces them. */
    private boolean sendsListChanged() {
        return methods.listChanged() || extensions.announcesToolListChanges();
    }

    /** Adds the caching hints of a list or discovery result. */
    private JsonObject cacheable(JsonObject result, boolean dependsOnCredentials) {
        return result.put("ttlMs", methods.listChanged() ? TTL_WHEN_RELOADING_MILLIS : TTL_FIXED_MILLIS)
                .put("cacheScope", dependsOnCredentials ? "private" : "public");
    }

    private void answer(HttpServerResponse response, Object id, Future<JsonObject> result, RequestRecord record) {
        result.onComplete(ar -> {
            if (ar.succeeded()) {
                record.ok();
                send(response, 200, JsonRpc.result(id, complete(ar.result())));
            } else {
                JsonObject error = ToolMethods.errorResponse(id, record.method(), ar.cause());
                record.finish(error, false);
                send(response, 200, error);
            }
        });
    }

    /** Marks a result complete (unless it asks for input) and names the server in its {@code _meta}. */
    private JsonObject complete(JsonObject result) {
        return complete(result, methods.identity());
    }

    private static JsonObject complete(JsonObject result, ToolMethods.ServerIdentity server) {
        if (!result.containsKey("resultType")) {
            result.put("resultType", "complete");
        }
        JsonObject meta = result.getJsonObject("_meta", new JsonObject());
        meta.put(RequestMeta.SERVER_INFO, new JsonObject().put("name", server.name()).put("version", server.version()));
        result.put("_meta", meta);
        return result;
    }

    private static void reject(HttpServerResponse response, int status, Object id, int code, String message) {
        reject(response, status, id, code, message, null);
    }

    private static void reject(HttpServerResponse response, int status, Object id, int code, String message,
                               JsonObject data) {
        send(response, status, JsonRpc.error(id, code, message, data));
    }

    private static void send(HttpServerResponse response, int status, JsonObject body) {
        if (response.ended() || response.closed()) {
            return;
        }
        // a large answer (a resource's rows, say) is encoded on a worker
        LargeJson.respond(response, status, body, body.getValue("id"));
    }
}
