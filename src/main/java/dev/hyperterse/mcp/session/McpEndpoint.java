package dev.hyperterse.mcp.session;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.hyperterse.mcp.BackendSource;
import dev.hyperterse.mcp.ClientAddress;
import dev.hyperterse.mcp.GenerationAdapter;
import dev.hyperterse.mcp.JsonRpc;
import dev.hyperterse.mcp.LargeJson;
import dev.hyperterse.mcp.LogLevel;
import dev.hyperterse.mcp.McpBackend;
import dev.hyperterse.mcp.McpExtension;
import dev.hyperterse.mcp.MethodTable;
import dev.hyperterse.mcp.OriginPolicy;
import dev.hyperterse.mcp.ProtocolVersions;
import dev.hyperterse.mcp.RequestRecord;
import dev.hyperterse.mcp.SseKeepAlive;
import dev.hyperterse.mcp.StrictJson;
import dev.hyperterse.mcp.core.Generation;
import dev.hyperterse.mcp.http.BodyBudget;
import dev.hyperterse.mcp.http.BodyReader;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Telemetry;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * MCP Streamable HTTP at one path. POST carries JSON-RPC messages and is answered with JSON, or
 * with an SSE stream when a call sends notifications before its result; GET opens the session's
 * server-to-client SSE stream, or resumes any stream of the session from {@code Last-Event-ID};
 * DELETE ends a session. Sessions are optional for POST: one without a session id is handled
 * statelessly (no logging level, no cancellation, no resumption).
 */
public final class McpEndpoint {
    private static final Logger LOG = LoggerFactory.getLogger(McpEndpoint.class);
    public static final String SESSION_HEADER = "Mcp-Session-Id";
    public static final String VERSION_HEADER = "MCP-Protocol-Version";
    static final String LAST_EVENT_ID = "Last-Event-ID";
    /**
     * The most messages one batch may hold. Entries are dispatched one after the other on the
     * event loop and answered together, so a body-limit's worth of them (some 30,000 calls in
     * 4 MB) held the loop for seconds and the answer in memory; real clients batch a handful.
     */
    static final int MAX_BATCH = 100;
    /**
     * The most requests of one batch running at once. Each may build a result of up to
     * {@code result_max_bytes} before it answers, so this, with the batch's answer budget (the
     * project's {@code tools.result_max_bytes}), bounds what a batch holds; a few at once keep a
     * batch of slow calls from taking the sum of their times.
     */
    static final int BATCH_CONCURRENCY = 4;

    /** Event-bus addresses by which a cluster's nodes reach requests and streams held by another. */
    static final String CANCEL_ADDRESS = "hyperterse.mcp.cancel";
    static final String ENDED_ADDRESS = "hyperterse.mcp.session-ended";
    static final String RESPONSE_ADDRESS = "hyperterse.mcp.client-response";

    private final Vertx vertx;
    private final BackendSource backends;
    private final SessionStore sessions;
    private final LiveSessions live;
    private final OriginPolicy originPolicy;
    private final ServerSettings settings;
    private final McpMethods methods;
    private final GenerationAdapter stateless;
    private final MethodTable table;
    private final Tracing tracing;
    private final Metrics metrics;
    private final SseKeepAlive keepAlive;
    private final BodyBudget bodyBudget;
    private final BodyReader bodies;

    /**
     * @param backends    leases each request the snapshot it runs on
     * @param listChanged declare {@code tools.listChanged}: the server tells sessions when a reload
     *                    changed the project's tools ({@link #notifyAll})
     * @param telemetry   a span and a count per JSON-RPC request
     * @param sessionless makes the generation served without sessions (2026-07-28) from the parts
     *                    both generations share
     */
    public McpEndpoint(Vertx vertx, BackendSource backends, SessionStore sessions, ServerSettings settings,
                       McpExtension extension, boolean listChanged, Clock clock, Telemetry telemetry,
                       GenerationAdapter.Factory sessionless) {
        this.sessions = sessions;
        this.backends = backends;
        this.live = new LiveSessions(clock);
        this.settings = settings;
        this.vertx = vertx;
        ServerSettings.Network network = settings.network();
        this.originPolicy = new OriginPolicy(network.allowedOrigins(), network.allowedHosts(), network.host());
        ServerSettings.RequestLimits limits = settings.limits();
        this.bodyBudget = new BodyBudget(limits.http().bodiesInFlightBytes(), limits.maxBodyBytes());
        this.bodies = new BodyReader(limits.maxBodyBytes(), bodyBudget, request -> ClientAddress.of(request.remoteAddress()),
                message -> JsonRpc.error(null, JsonRpc.SERVER_ERROR, message).toBuffer());
        GenerationAdapter.Shared shared = GenerationAdapter.Shared.of(vertx, backends, settings, extension, listChanged,
                clock, telemetry, this::extensionToolsChanged);
        this.tracing = shared.tracing();
        this.metrics = shared.metrics();
        this.keepAlive = shared.keepAlive();
        this.table = shared.table();
        this.methods = new McpMethods(backends, sessions, shared.toolMethods(), shared.resources(), table, new SessionUse() {
            @Override
            public boolean inUse(String sessionId) {
                return live.inUse(sessionId);
            }

            @Override
            public boolean callRunning(String sessionId) {
                return live.running(sessionId);
            }

            @Override
            public void ended(String sessionId) {
                endedHere(sessionId, true);
            }
        });
        this.stateless = sessionless.create(shared);
        if (vertx.isClustered()) {
            listenToPeers();
        }
    }

    /** An extension changed its tools: the 2026-07-28 listen streams that asked are told. */
    private int extensionToolsChanged() {
        return stateless.listChanged("notifications/tools/list_changed");
    }

    /** A cancellation for a request of a session that may run on another node of the cluster. */
    private void cancelElsewhere(String sessionId, Object requestId) {
        if (vertx.isClustered()) {
            vertx.eventBus().publish(CANCEL_ADDRESS, new JsonObject().put("session", sessionId).put("requestId", requestId));
        }
    }

    /**
     * A client's response to a request of the server's (such as {@code elicitation/create}): to the
     * call waiting for it here, else (in a cluster) to the node holding that call. A response no
     * one awaits is dropped, as JSON-RPC lets a receiver do.
     */
    private void clientResponded(Session session, LiveSession liveSession, Object id, JsonObject response) {
        if (session == null) {
            return;
        }
        if ((liveSession == null || !liveSession.clientRequests().answered(id, response)) && vertx.isClustered()) {
            vertx.eventBus().publish(RESPONSE_ADDRESS, new JsonObject().put("session", session.id()).put("response", response));
        }
    }

    /** Cancellations and ended sessions from other nodes, for the requests and streams held here. */
    private void listenToPeers() {
        vertx.eventBus().<JsonObject>consumer(CANCEL_ADDRESS, message -> {
            JsonObject body = message.body();
            Object requestId = body.getValue("requestId");
            if (JsonRpc.validId(requestId)) {
                McpMethods.cancelHere(live.find(body.getString("session", "")), requestId);
            }
        });
        vertx.eventBus().<JsonObject>consumer(RESPONSE_ADDRESS, message -> {
            LiveSession session = live.find(message.body().getString("session", ""));
            JsonObject response = message.body().getJsonObject("response");
            if (session != null && response != null) {
                session.clientRequests().answered(response.getValue("id"), response);
            }
        });
        vertx.eventBus().<JsonObject>consumer(ENDED_ADDRESS, message -> endedHere(message.body().getString("session", ""), false));
    }

    public OriginPolicy originPolicy() {
        return originPolicy;
    }

    /** Mounts the endpoint on {@code path} with a body limit. */
    public void mount(Router router, String path) {
        // refused before any of the body is read: a foreign origin, a body that cannot be parsed as
        // JSON-RPC, or one the client will not accept an answer to
        router.post(path).handler(this::acceptable);
        router.post(path).handler(bodies);
        router.post(path).handler(this::post);
        router.delete(path).handler(this::delete);
        router.get(path).handler(this::get);
        router.route(path).handler(rc -> {
            rc.response().putHeader(HttpHeaders.ALLOW, "GET, POST, DELETE, OPTIONS");
            reject(rc, 405, null, JsonRpc.SERVER_ERROR, "Method not allowed: " + rc.request().method());
        });
        router.route(path).failureHandler(this::failed);
    }

    /** A handler failed: answer in JSON-RPC terms. */
    private void failed(RoutingContext rc) {
        if (rc.statusCode() == 400 && rc.request().authority() == null) {
            // the router refuses a request whose Host (HTTP/1.1) or :authority (HTTP/2) is absent or
            // cannot be read before any handler runs: the caller's mistake, not the server's
            reject(rc, 400, null, JsonRpc.SERVER_ERROR, "Bad Request: the Host header is missing or malformed");
            return;
        }
        LOG.warn("request to {} failed: {}", rc.request().path(), String.valueOf(rc.failure()));
        LOG.debug("cause", rc.failure());
        reject(rc, rc.statusCode() >= 400 ? rc.statusCode() : 500, null, JsonRpc.INTERNAL_ERROR, "Internal error");
    }

    /**
     * Sends a notification that belongs to no request to a session's GET stream (kept for a
     * resume while no GET stream is open).
     *
     * @return false when the session has no live state on this node
     */
    public boolean notify(String sessionId, JsonObject notification) {
        LiveSession session = live.find(sessionId);
        if (session == null) {
            return false;
        }
        session.notify(notification);
        return true;
    }

    /**
     * Sends a notification that belongs to no request to every session with live state on this
     * node (e.g. {@code notifications/tools/list_changed} after a reload); sessions without an
     * open GET stream get it when they open one.
     *
     * @return how many sessions it went to
     */
    public int notifyAll(JsonObject notification) {
        // 2026-07-28 listen streams that asked for this list change get it too
        int sent = stateless.listChanged(notification.getString("method"));
        for (LiveSession session : live.all()) {
            session.notify(notification);
            sent++;
        }
        return sent;
    }

    /**
     * Tells the sessions with live state on this node that watch {@code uri} that its content
     * changed ({@code notifications/resources/updated}). Subscriptions are kept with the session,
     * so in a cluster each node tells the sessions it holds, whichever node took the subscription.
     * The 2026-07-28 listen streams on this node that name {@code uri} are told too.
     *
     * @return how many sessions and listen streams it went to
     */
    public Future<Integer> resourceUpdated(String uri) {
        int streams = stateless.resourceUpdated(uri);
        JsonObject notification = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/resources/updated")
                .put("params", new JsonObject().put("uri", uri));
        List<Future<Boolean>> told = new ArrayList<>();
        for (LiveSession session : live.all()) {
            told.add(sessions.find(session.id())
                    .map(found -> found.isPresent() && found.get().subscribes(uri) && notify(session.id(), notification))
                    .otherwise(false));
        }
        return Future.join(told).transform(x -> Future.succeededFuture(
                streams + (int) told.stream().filter(f -> Boolean.TRUE.equals(f.result())).count()));
    }

    /** Sessions with live state on this node (streams, running calls, recent use). */
    public int liveSessions() {
        return live.size();
    }

    /**
     * Periodic housekeeping: sessions with open streams or running calls count as used; sessions
     * that ended (idle, or deleted elsewhere) lose their live state here.
     */
    public Future<Void> sweep() {
        List<Future<?>> touched = new ArrayList<>();
        for (String id : live.active()) {
            touched.add(sessions.find(id).onSuccess(found -> {
                if (found.isEmpty()) {
                    endedHere(id, false);
                }
            }));
        }
        return Future.join(touched)
                .transform(x -> sessions.evictExpired())
                .onSuccess(ended -> {
                    ended.forEach(id -> endedHere(id, false));
                    live.endUnused(settings.sessions().idleTimeout());
                })
                .mapEmpty();
    }

    /**
     * Ends the connection of every open GET stream and {@code subscriptions/listen} stream on this
     * node, leaving sessions and running calls alone: a stopping node tells those clients to
     * reconnect, which through a load balancer reaches a node that stays.
     */
    public void endStreams() {
        for (LiveSession session : live.all()) {
            session.standalone().dropConnection();
        }
        stateless.closeAll();
    }

    /** Ends every session's streams and running calls on this node (shutdown). */
    public void closeAll() {
        live.endAll();
        stateless.closeAll();
    }

    // ---- POST ----

    /** A POST's headers: the origin and the media types, before the body is read. */
    private void acceptable(RoutingContext rc) {
        if (!guard(rc)) {
            return;
        }
        MultiMap headers = rc.request().headers();
        String contentType = headers.get(HttpHeaders.CONTENT_TYPE);
        if (!isJson(contentType)) {
            reject(rc, 415, null, JsonRpc.SERVER_ERROR, "Unsupported Media Type: Content-Type must be application/json");
            return;
        }
        if (!accepts(headers.getAll(HttpHeaders.ACCEPT), true)) {
            reject(rc, 406, null, JsonRpc.SERVER_ERROR,
                    "Not Acceptable: Accept must list application/json and text/event-stream");
            return;
        }
        rc.next();
    }

    /** Bytes of request bodies held now while they arrive (all listeners). */
    public long bodyBytesInFlight() {
        return bodyBudget.held();
    }

    private void post(RoutingContext rc) {
        Buffer body = rc.get(BodyReader.BODY);
        if (body == null || body.length() == 0) {
            reject(rc, 400, null, JsonRpc.PARSE_ERROR, "Parse error: empty body");
            return;
        }
        // a body from LargeJson's threshold on is checked and parsed on a worker
        if (body.length() < LargeJson.ON_WORKER_FROM) {
            Object message;
            try {
                message = decode(body);
            } catch (UnreadableBody e) {
                reject(rc, 400, null, JsonRpc.PARSE_ERROR, e.getMessage());
                return;
            }
            post(rc, message);
        } else {
            // a big body takes milliseconds to check and parse: not on the event loop
            vertx.executeBlocking(() -> decode(body), false).onComplete(decoded -> {
                if (decoded.succeeded()) {
                    post(rc, decoded.result());
                } else if (decoded.cause() instanceof UnreadableBody) {
                    reject(rc, 400, null, JsonRpc.PARSE_ERROR, decoded.cause().getMessage());
                } else {
                    LOG.error("reading a request body failed", decoded.cause());
                    reject(rc, 500, null, JsonRpc.INTERNAL_ERROR, "Internal error");
                }
            });
        }
    }

    /**
     * The body as JSON, or why it is not: UTF-8 checked strictly, then Jackson's parse within its
     * limits, refusing an object that names a member twice at any depth ({@link StrictJson}).
     */
    private static Object decode(Buffer body) throws UnreadableBody {
        if (!StrictUtf8.valid(body)) {
            throw new UnreadableBody("Parse error: the body is not valid UTF-8");
        }
        try {
            return StrictJson.read(body);
        } catch (StrictJson.RepeatedName e) {
            throw new UnreadableBody("Parse error: the member name '" + CallerText.cut(e.name())
                    + "' appears twice in one object");
        } catch (DecodeException e) {
            throw new UnreadableBody(overReaderLimits(e)
                    ? "Parse error: the body goes past the JSON reader's limits (nesting deeper than 1000 levels,"
                            + " a number of more than 1000 digits or a member name of more than 50000 characters)"
                    : "Parse error: the body is not valid JSON");
        }
    }

    /** A body that is not a JSON text; the message is the parse error's. */
    private static final class UnreadableBody extends Exception {
        UnreadableBody(String message) {
            super(message, null, false, false);
        }
    }

    /** A POST whose body was read: the protocol generation, then the session, then the message. */
    private void post(RoutingContext rc, Object message) {
        MultiMap headers = rc.request().headers();
        if (stateless.speaks(headers.get(VERSION_HEADER), message)) {
            // the version a request speaks picks its generation: 2026-07-28 is served without sessions
            stateless.post(rc, message);
            return;
        }
        if (!versionHeaderSupported(rc)) {
            return;
        }
        String headerVersion = headers.get(VERSION_HEADER);
        withSessionOrNone(rc, session -> {
            String version = session != null ? session.protocolVersion()
                    : headerVersion != null ? headerVersion.trim() : ProtocolVersions.ASSUMED;
            LiveSession liveSession = session == null ? null : live.of(session.id());
            if (message instanceof JsonArray) {
                postBatch(rc, (JsonArray) message, session, liveSession, version);
            } else if (message instanceof JsonObject) {
                postSingle(rc, (JsonObject) message, session, liveSession);
            } else {
                reject(rc, 400, null, JsonRpc.INVALID_REQUEST, "Invalid Request: expected a JSON-RPC object");
            }
        });
    }

    private void postSingle(RoutingContext rc, JsonObject message, Session session, LiveSession liveSession) {
        Envelope env = Envelope.of(message);
        if (env.error != null) {
            reject(rc, 400, env.errorId, JsonRpc.INVALID_REQUEST, "Invalid Request: " + env.error);
            return;
        }
        if (!env.isRequest()) {
            if (env.method == null) {
                clientResponded(session, liveSession, env.id, message);
            } else {
                methods.notification(env, session, liveSession, this::cancelElsewhere);
            }
            rc.response().setStatusCode(202).end();
            return;
        }
        if ("initialize".equals(env.method) && session != null) {
            reject(rc, 400, env.id, JsonRpc.INVALID_REQUEST, "Invalid Request: Server already initialized");
            return;
        }
        PostExchange exchange = new PostExchange(rc, liveSession, primes(session), false, keepAlive);
        run(exchange, env, session, liveSession, rc);
        exchange.seal();
    }

    private void postBatch(RoutingContext rc, JsonArray batch, Session session, LiveSession liveSession, String version) {
        if (!ProtocolVersions.V2025_03_26.equals(version)) {
            reject(rc, 400, null, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: batches are not accepted in protocol version " + version);
            return;
        }
        if (batch.isEmpty()) {
            reject(rc, 400, null, JsonRpc.INVALID_REQUEST, "Invalid Request: empty batch");
            return;
        }
        if (batch.size() > MAX_BATCH) {
            reject(rc, 400, null, JsonRpc.INVALID_REQUEST, "Invalid Request: a batch may hold at most " + MAX_BATCH
                    + " messages (this one has " + batch.size() + ")");
            return;
        }
        // the answers together hold at most one result's worth: past it, later entries get an error
        PostExchange exchange = new PostExchange(rc, liveSession, primes(session), true, keepAlive,
                backends.read(McpBackend::batchAnswerBytes));
        BatchRun entries = new BatchRun(exchange, BATCH_CONCURRENCY);
        for (Object item : batch) {
            if (!(item instanceof JsonObject)) {
                entries.other(() -> exchange.respondDirectly(JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
                        "Invalid Request: batch entries must be objects")));
                continue;
            }
            Envelope env = Envelope.of((JsonObject) item);
            if (env.error != null) {
                entries.other(() -> exchange.respondDirectly(JsonRpc.error(env.errorId, JsonRpc.INVALID_REQUEST,
                        "Invalid Request: " + env.error)));
            } else if ("initialize".equals(env.method)) {
                entries.other(() -> exchange.respondDirectly(JsonRpc.error(env.id, JsonRpc.INVALID_REQUEST,
                        "Invalid Request: initialize must not be part of a batch")));
            } else if (env.isRequest()) {
                entries.request(env.id, () -> run(exchange, env, session, liveSession, rc));
            } else if (env.method == null) {
                entries.other(() -> clientResponded(session, liveSession, env.id, (JsonObject) item));
            } else {
                entries.other(() -> methods.notification(env, session, liveSession, this::cancelElsewhere));
            }
        }
        entries.start();
    }

    /** Starts one request of a POST; its response reaches the client through the exchange. */
    private void run(PostExchange exchange, Envelope env, Session session, LiveSession liveSession, RoutingContext rc) {
        LogLevel threshold = session == null ? null : LogLevel.of(session.logLevel());
        RunningRequest request = exchange.open(env.id, env.progressToken(), threshold);
        if (liveSession != null && !liveSession.register(request)) {
            request.respond(JsonRpc.error(env.id, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: id " + env.id + " belongs to a request of this session that is still running"));
            return;
        }
        if (liveSession != null) {
            request.reachClientThrough(() -> new SessionClient(vertx, session, liveSession.clientRequests(),
                    request::sendToClient, ClientRequests.ANSWER_WITHIN));
            if (session.declares("elicitation")) {
                request.confirmWith(new SessionConfirmation(request));
            }
        }
        RequestRecord record = RequestRecord.start(tracing, metrics, table.label(env.method, Generation.SESSION),
                session == null ? null : session.protocolVersion());
        tracing.within(record.span(), () -> methods.request(env, session, request, rc)).onComplete(ar -> {
            if (liveSession != null) {
                liveSession.unregister(request);
            }
            JsonObject response;
            if (ar.succeeded()) {
                response = ar.result();
            } else {
                LOG.warn("request {} failed unexpectedly: {}", env.method, ar.cause().toString());
                response = JsonRpc.error(env.id, JsonRpc.INTERNAL_ERROR, "Internal error");
            }
            record.finish(response, request.cancellation().isComplete());
            request.respond(response);
        });
    }

    // ---- GET ----

    private void get(RoutingContext rc) {
        if (!guard(rc)) {
            return;
        }
        if (stateless.named(rc.request().getHeader(VERSION_HEADER))) {
            noStreamsOrSessions(rc);
            return;
        }
        if (!accepts(rc.request().headers().getAll(HttpHeaders.ACCEPT), false)) {
            reject(rc, 406, null, JsonRpc.SERVER_ERROR, "Not Acceptable: Accept must list text/event-stream");
            return;
        }
        if (!versionHeaderSupported(rc)) {
            return;
        }
        withSession(rc, session -> {
            LiveSession liveSession = live.of(session.id());
            String lastEventId = rc.request().getHeader(LAST_EVENT_ID);
            if (lastEventId != null) {
                resume(rc, session, liveSession, lastEventId);
                return;
            }
            openStandalone(rc, session, liveSession);
        });
    }

    private void openStandalone(RoutingContext rc, Session session, LiveSession liveSession) {
        EventStream standalone = liveSession.standalone();
        if (!standalone.attachIfIdle(() -> SseConnection.start(rc.response(), standalone::detach, keepAlive), primes(session))) {
            reject(rc, 409, null, JsonRpc.SERVER_ERROR,
                    "Conflict: this session already has an open GET stream (resume it with Last-Event-ID)");
        }
    }

    /** GET with {@code Last-Event-ID}: replays that event's stream, and only that stream. */
    private void resume(RoutingContext rc, Session session, LiveSession liveSession, String lastEventId) {
        EventId eventId = EventId.parse(lastEventId);
        if (eventId == null) {
            reject(rc, 400, null, JsonRpc.SERVER_ERROR, "Bad Request: malformed " + LAST_EVENT_ID);
            return;
        }
        if (eventId.stream() == LiveSession.STANDALONE && !eventId.epoch().equals(liveSession.epoch())) {
            // the GET stream of another life of this session's live state: another node's (one that
            // stopped and told its streams to reconnect) or this node's before the state was rebuilt.
            // Its events cannot be replayed here; what it carries belongs to no request, so the
            // client goes on with a new GET stream rather than a dead end
            openStandalone(rc, session, liveSession);
            return;
        }
        switch (liveSession.classify(eventId)) {
            case UNKNOWN:
                reject(rc, 400, null, JsonRpc.SERVER_ERROR,
                        "Bad Request: " + LAST_EVENT_ID + " names no stream of this session");
                return;
            case EXHAUSTED:
                // 204 is how SSE tells a client to stop reconnecting: this stream has nothing more
                rc.response().setStatusCode(204).end();
                return;
            default:
                EventStream stream = liveSession.stream(eventId.stream());
                if (stream == null) {
                    rc.response().setStatusCode(204).end();
                    return;
                }
                stream.resume(SseConnection.start(rc.response(), stream::detach, keepAlive), eventId.seq());
        }
    }

    // ---- DELETE ----

    private void delete(RoutingContext rc) {
        if (!guard(rc)) {
            return;
        }
        if (stateless.named(rc.request().getHeader(VERSION_HEADER))) {
            noStreamsOrSessions(rc);
            return;
        }
        if (!versionHeaderSupported(rc)) {
            return;
        }
        String id = rc.request().getHeader(SESSION_HEADER);
        if (id == null) {
            reject(rc, 400, null, JsonRpc.SERVER_ERROR, "Bad Request: " + SESSION_HEADER + " header is required");
            return;
        }
        sessions.remove(id).onComplete(ar -> {
            endedHere(id, ar.succeeded() && ar.result());
            if (ar.failed()) {
                storeFailed(rc, ar.cause());
            } else if (!ar.result()) {
                reject(rc, 404, null, JsonRpc.SESSION_NOT_FOUND, "Session not found");
            } else {
                rc.response().setStatusCode(200).end();
            }
        });
    }

    /**
     * A session ended: its live state here goes, and (when it was live and the node is clustered)
     * its streams and running calls on other nodes end now, not at their next sweep.
     */
    private void endedHere(String id, boolean tellPeers) {
        live.end(id);
        if (tellPeers && vertx.isClustered()) {
            vertx.eventBus().publish(ENDED_ADDRESS, new JsonObject().put("session", id));
        }
    }

    /** GET and DELETE have no meaning in 2026-07-28 (no GET stream, no sessions). */
    private void noStreamsOrSessions(RoutingContext rc) {
        rc.response().putHeader(HttpHeaders.ALLOW, "POST");
        reject(rc, 405, null, JsonRpc.SERVER_ERROR, "Method Not Allowed: protocol " + stateless.version()
                + " has no GET stream and no sessions; POST each request");
    }

    // ---- shared checks ----

    /** Looks up the request's session; a request without a session id goes on with null. */
    private void withSessionOrNone(RoutingContext rc, Consumer<Session> then) {
        if (rc.request().getHeader(SESSION_HEADER) == null) {
            then.accept(null);
            return;
        }
        withSession(rc, then);
    }

    /** Looks up the request's session; answers 400 without a session id and 404 for an unknown or ended one. */
    private void withSession(RoutingContext rc, Consumer<Session> then) {
        String id = rc.request().getHeader(SESSION_HEADER);
        if (id == null) {
            reject(rc, 400, null, JsonRpc.SERVER_ERROR, "Bad Request: " + SESSION_HEADER + " header is required");
            return;
        }
        sessions.find(id).onComplete(ar -> {
            if (ar.failed()) {
                storeFailed(rc, ar.cause());
                return;
            }
            Optional<Session> found = ar.result();
            if (found.isEmpty()) {
                endedHere(id, false);
                reject(rc, 404, null, JsonRpc.SESSION_NOT_FOUND, "Session not found");
                return;
            }
            then.accept(found.get());
        });
    }

    private boolean versionHeaderSupported(RoutingContext rc) {
        String version = rc.request().getHeader(VERSION_HEADER);
        if (version != null && !ProtocolVersions.supported(version.trim())) {
            reject(rc, 400, null, JsonRpc.SERVER_ERROR, "Bad Request: Unsupported protocol version: "
                    + version + " (supported: " + stateless.version() + ", "
                    + String.join(", ", ProtocolVersions.SUPPORTED) + ")");
            return false;
        }
        return true;
    }

    /** Origin and Host checks shared by every method; answers 403 itself when they fail. */
    private boolean guard(RoutingContext rc) {
        String refusal = originPolicy.refusal(rc.request());
        if (refusal != null) {
            reject(rc, 403, null, JsonRpc.SERVER_ERROR, refusal);
            return false;
        }
        return true;
    }

    /** Streams start with a priming event from protocol 2025-11-25 on, and only within a session. */
    private static boolean primes(Session session) {
        return session != null && ProtocolVersions.primesStreams(session.protocolVersion());
    }

    private static void storeFailed(RoutingContext rc, Throwable e) {
        LOG.warn("session store failed: {}", e.toString());
        reject(rc, 503, null, JsonRpc.INTERNAL_ERROR, "Service Unavailable: sessions cannot be read right now");
    }

    /**
     * Whether the Accept headers allow what this method answers with: POST needs both JSON and an
     * event stream, GET an event stream. An absent Accept means anything (RFC 9110), so plain
     * HTTP tools work without ceremony.
     */
    static boolean accepts(List<String> acceptHeaders, boolean needsJson) {
        if (acceptHeaders.isEmpty()) {
            return true;
        }
        boolean json = false;
        boolean stream = false;
        // read in place (every POST asks this): each comma-separated media range up to its parameters
        for (String header : acceptHeaders) {
            int length = header.length();
            int start = 0;
            while (start <= length) {
                int comma = header.indexOf(',', start);
                int end = comma < 0 ? length : comma;
                int semicolon = header.indexOf(';', start);
                int typeEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
                int from = start;
                while (from < typeEnd && Character.isWhitespace(header.charAt(from))) {
                    from++;
                }
                int to = typeEnd;
                while (to > from && Character.isWhitespace(header.charAt(to - 1))) {
                    to--;
                }
                if (is(header, from, to, "*/*")) {
                    json = true;
                    stream = true;
                } else if (is(header, from, to, "application/json") || is(header, from, to, "application/*")) {
                    json = true;
                } else if (is(header, from, to, "text/event-stream") || is(header, from, to, "text/*")) {
                    stream = true;
                }
                start = end + 1;
            }
        }
        return stream && (json || !needsJson);
    }

    /** Whether a Content-Type names JSON ({@code application/json}, any case, parameters allowed). */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int from = 0;
        while (from < contentType.length() && Character.isWhitespace(contentType.charAt(from))) {
            from++;
        }
        int end = from + "application/json".length();
        // the type ends there: application/jsonx or application/json-seq is another type
        return contentType.regionMatches(true, from, "application/json", 0, "application/json".length())
                && (end == contentType.length() || contentType.charAt(end) == ';'
                || Character.isWhitespace(contentType.charAt(end)));
    }

    /** Whether {@code text[from, to)} is {@code type}, ignoring case. */
    private static boolean is(String text, int from, int to, String type) {
        return to - from == type.length() && text.regionMatches(true, from, type, 0, type.length());
    }

    /**
     * Whether Jackson refused the body for its size limits rather than its syntax. They are what
     * keeps a deeply nested body from overflowing the stack of anything recursive that reads it.
     */
    private static boolean overReaderLimits(DecodeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StreamConstraintsException) {
                return true;
            }
        }
        return false;
    }

    private static void reject(RoutingContext rc, int status, Object id, int code, String message) {
        HttpServerResponse response = rc.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(JsonRpc.error(id, code, message).toBuffer());
    }
}
