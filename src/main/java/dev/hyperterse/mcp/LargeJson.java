package dev.hyperterse.mcp;

import dev.hyperterse.connector.ResultBudget;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Callable;

/**
 * JSON work sized by its payload: small values are handled where the caller is, large ones on a
 * worker thread. Encoding or parsing takes a few milliseconds per megabyte on a quiet machine and
 * up to a second for a few megabytes on a busy one, all of it time in which an event loop answers
 * nobody else; below {@link #ON_WORKER_FROM} bytes the hop to a worker costs more than it saves.
 *
 * <p>The size of a value is estimated without encoding it, as a tool's result budget counts it
 * ({@link ResultBudget#size(Object, long)}), and the count stops as soon as it reaches the
 * threshold, so deciding costs no more than walking 64 KB worth of values.
 * Work handed to a worker completes back on the calling context, so what follows it runs on the
 * same event loop as before.
 */
public final class LargeJson {
    private static final Logger LOG = LoggerFactory.getLogger(LargeJson.class);
    /** From this size in bytes on, JSON is parsed and encoded on a worker. */
    public static final int ON_WORKER_FROM = 64 * 1024;

    private LargeJson() {
    }

    /** Whether a JSON value (object, array, or scalar) is estimated at {@link #ON_WORKER_FROM} bytes or more. */
    public static boolean large(Object value) {
        return ResultBudget.size(value, ON_WORKER_FROM) >= ON_WORKER_FROM;
    }

    /**
     * {@code work}, on a worker when {@code sizedBy} is {@link #large} and the caller is on an
     * event loop, otherwise at once on the calling thread (then the future is already complete).
     */
    public static <T> Future<T> sizedBy(Object sizedBy, Callable<T> work) {
        return onWorkerIf(large(sizedBy), work);
    }

    private static <T> Future<T> onWorkerIf(boolean large, Callable<T> work) {
        Context context = Vertx.currentContext();
        if (large && context != null && Context.isOnEventLoopThread()) {
            return context.executeBlocking(work, false);
        }
        try {
            return Future.succeededFuture(work.call());
        } catch (Exception e) {
            return Future.failedFuture(e);
        }
    }

    /**
     * {@link JsonObject#toBuffer()} or {@link JsonArray#toBuffer()}, byte for byte: a small value
     * where the caller is, written straight into the buffer with the rows its text block already
     * holds copied rather than encoded again ({@link AnswerJson}: the common answer, on the event
     * loop); a large one by the codec as before, on a worker, off every event loop either way.
     */
    public static Future<Buffer> toBuffer(Object json) {
        boolean large = large(json);
        return onWorkerIf(large, () -> large ? Json.CODEC.toBuffer(json, false) : AnswerJson.encode(json));
    }

    /**
     * The UTF-8 bytes of {@link JsonObject#encode()} or {@link JsonArray#encode()} (which, unlike
     * {@code toBuffer()}, keeps characters outside the Basic Multilingual Plane as they are), on a
     * worker when the value is large.
     */
    public static Future<Buffer> encodeText(Object json) {
        return sizedBy(json, () -> Buffer.buffer(Json.CODEC.toString(json, false)));
    }

    /**
     * Ends {@code response} with {@code body} as {@code application/json} ({@code toBuffer()}'s
     * bytes), a large body encoded on a worker; does nothing when the response ended or closed
     * meanwhile. A body that cannot be encoded is logged and answered 500 with a JSON-RPC internal
     * error for {@code errorId}.
     */
    public static void respond(HttpServerResponse response, int status, Object body, Object errorId) {
        toBuffer(body).onComplete(encoded -> {
            if (response.ended() || response.closed()) {
                return;
            }
            if (encoded.failed()) {
                LOG.error("encoding a response failed", encoded.cause());
                response.setStatusCode(500).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .end(JsonRpc.error(errorId, JsonRpc.INTERNAL_ERROR, "Internal error").toBuffer());
                return;
            }
            response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(encoded.result());
        });
    }
}
