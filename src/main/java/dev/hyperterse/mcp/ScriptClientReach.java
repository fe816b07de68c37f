package dev.hyperterse.mcp;

import dev.hyperterse.model.BoundedText;
import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.script.ClientReach;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A handler's {@code ctx}, for one {@code tools/call}: logs and progress go to the caller on the
 * call's own stream, {@code readResource} reads the project's resources as {@code resources/read}
 * would for this caller (same auth), {@code elicit} and {@code sample} are the server's requests
 * to the caller's client ({@code elicitation/create}, {@code sampling/createMessage}). Scripts call
 * it on their worker thread; everything here runs on the request's own event loop.
 */
final class ScriptClientReach implements ClientReach {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ScriptClientReach.class);
    /** The most characters of JSON one {@code ctx.log} sends: a log line, not a channel for results. */
    static final int LOG_DATA_CHARS = 16 * 1024;
    /** {@code maxTokens} of a sampling request whose script set none (the protocol requires one). */
    static final int DEFAULT_MAX_TOKENS = 1024;

    private final Context loop;
    private final CallScope scope;
    private final McpBackend backend;
    private final CallContext call;
    private final ResourceMethods resources;
    private final String logger;
    /** Notifications handed to the event loop and not yet sent; guarded by this. */
    private int pending;
    /** Completes when {@link #pending} falls to zero; guarded by this. */
    private Promise<Void> idle;
    /** The input-required result of a question whose answer comes with the client's next request. */
    private volatile JsonObject nextRound;

    ScriptClientReach(Context loop, CallScope scope, McpBackend backend, CallContext call, ResourceMethods resources,
                      String tool) {
        this.loop = loop;
        this.scope = scope;
        this.backend = backend;
        this.call = call;
        this.resources = resources;
        this.logger = tool;
    }

    @Override
    public void log(String level, String message, Object data) {
        LogLevel at = LogLevel.of(level);
        // the scope's log level is fixed for the call: a line nobody reads is neither built nor queued
        if (at == null || !scope.logs(at)) {
            return;
        }
        String text = BoundedText.cut(message, LOG_DATA_CHARS);
        Object sent = text;
        if (data != null) {
            String json = io.vertx.core.json.Json.encode(data);
            sent = new JsonObject().put("message", text)
                    .put("data", json.length() <= LOG_DATA_CHARS ? data : BoundedText.cut(json, LOG_DATA_CHARS));
        }
        Object line = sent;
        onLoop(() -> scope.log(at, logger, line));
    }

    @Override
    public void progress(double done, Double total, String message) {
        if (!scope.wantsProgress()) {
            return;
        }
        String shown = message == null ? null : BoundedText.cut(message, LOG_DATA_CHARS);
        onLoop(() -> scope.progress(done, total, shown));
    }

    /** Sends a notification on the request's event loop, counted until it is sent. */
    private void onLoop(Runnable send) {
        synchronized (this) {
            pending++;
        }
        loop.runOnContext(v -> {
            try {
                send.run();
            } finally {
                Promise<Void> done = null;
                synchronized (this) {
                    if (--pending == 0 && idle != null) {
                        done = idle;
                        idle = null;
                    }
                }
                if (done != null) {
                    done.complete();
                }
            }
        });
    }

    /**
     * Completes once every log line and progress report the script made so far was sent: the call
     * answers after them, as the protocol requires (a notification after the response is lost).
     */
    Future<Void> sent() {
        synchronized (this) {
            if (pending == 0) {
                return Future.succeededFuture();
            }
            if (idle == null) {
                idle = Promise.promise();
            }
            return idle.future();
        }
    }

    @Override
    public Future<JsonObject> ask(String kind, JsonObject params, String key) {
        Promise<JsonObject> answer = Promise.promise();
        loop.runOnContext(v -> {
            Future<JsonObject> asked;
            try {
                asked = switch (kind) {
                    case READ_RESOURCE -> resources.read(backend, params, call);
                    case ELICIT -> scope.requestClient("elicitation/create", params, key);
                    case SAMPLE -> scope.requestClient("sampling/createMessage", sampling(params), key);
                    default -> Future.failedFuture(new McpException(JsonRpc.INVALID_PARAMS, "unknown question " + kind));
                };
            } catch (RuntimeException e) {
                asked = Future.failedFuture(e);
            }
            asked.onComplete(ar -> {
                if (ar.succeeded()) {
                    answer.complete(ar.result());
                } else if (ar.cause() instanceof UserConfirmation.AnswerLater) {
                    // the call ends here, whatever the script makes of it: its answer is this round
                    if (nextRound == null) {
                        nextRound = ((UserConfirmation.AnswerLater) ar.cause()).result();
                    }
                    answer.fail(new IllegalStateException("the client answers with its next request", null));
                } else {
                    answer.fail(new IllegalStateException(reason(ar.cause()), null));
                }
            });
        });
        return answer.future();
    }

    /**
     * The input-required result that answers the call when one of its script's questions is asked
     * in an input round (protocol 2026-07-28), or null.
     */
    JsonObject nextRound() {
        return nextRound;
    }

    @Override
    public boolean answersLater() {
        return nextRound != null;
    }

    /** A sampling request as the protocol requires it: {@code maxTokens} set when the script left it out. */
    private static JsonObject sampling(JsonObject params) {
        if (!(params.getValue("messages") instanceof JsonArray)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, "messages must be a string or an array of messages");
        }
        if (params.getValue("maxTokens") == null) {
            params.put("maxTokens", DEFAULT_MAX_TOKENS);
        }
        return params;
    }

    /** What the script's rejected promise says: the protocol's or the client's reason, never a Java trace. */
    private static String reason(Throwable failure) {
        if (failure instanceof McpException || failure instanceof CallScope.NoAnswer
                || failure instanceof dev.hyperterse.pipeline.ToolException) {
            return failure.getMessage();
        }
        LOG.warn("a script's question to its client failed: {}", failure.toString());
        LOG.debug("cause", failure);
        return "internal error (see the server log)";
    }
}
