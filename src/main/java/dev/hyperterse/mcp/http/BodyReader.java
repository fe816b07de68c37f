package dev.hyperterse.mcp.http;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Function;

/**
 * Reads a POST body within two limits: its own size ({@code server.max_body_size}) and the bytes
 * all bodies still arriving may hold together ({@link BodyBudget}). A declared length is checked
 * and claimed before a byte is read, so a body that cannot fit is refused at once; a body sent
 * without a length claims each chunk as it comes. A refused body is answered (413 or 503 with
 * {@code Retry-After}) and the rest of it is read and dropped. The complete body is left in the routing context under {@link #BODY} for the next handler;
 * its claim is given back then, or when the request fails or its connection closes.
 */
public final class BodyReader implements Handler<RoutingContext> {
    /** Where the complete body is left for the next handler: a {@link Buffer}. */
    public static final String BODY = "hyperterse.body";

    /** A refusal's body in the endpoint's own terms (a JSON-RPC error). */
    public interface Refusal {
        Buffer answer(String message);
    }

    private final long maxBody;
    private final BodyBudget budget;
    private final Function<HttpServerRequest, String> client;
    private final Refusal refusal;

    /**
     * @param client the name a client's share of the budget is counted under (its network address)
     */
    public BodyReader(long maxBody, BodyBudget budget, Function<HttpServerRequest, String> client, Refusal refusal) {
        this.maxBody = maxBody;
        this.budget = budget;
        this.client = client;
        this.refusal = refusal;
    }

    @Override
    public void handle(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        if (request.isEnded()) {
            rc.put(BODY, Buffer.buffer());
            rc.next();
            return;
        }
        long declared = declaredLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
        if (declared == -2) {
            refuse(rc, 400, "Bad Request: Content-Length is not a length");
            return;
        }
        if (declared > maxBody) {
            refuse(rc, 413, tooLarge());
            return;
        }
        BodyBudget.Claim claim = budget.claim(client.apply(request));
        if (declared > 0 && !claim.grow(declared)) {
            refuse(rc, 503, busy());
            return;
        }
        rc.addEndHandler(done -> claim.release());
        Buffer body = Buffer.buffer((int) Math.max(0, declared));
        boolean[] finished = new boolean[1];
        request.exceptionHandler(e -> {
            finished[0] = true;
            claim.release();
        });
        request.handler(chunk -> {
            if (finished[0]) {
                return;
            }
            long size = (long) body.length() + chunk.length();
            if (size > maxBody) {
                finished[0] = true;
                claim.release();
                refuse(rc, 413, tooLarge());
                return;
            }
            if (size > claim.bytes() && !claim.grow(size - claim.bytes())) {
                finished[0] = true;
                claim.release();
                refuse(rc, 503, busy());
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(v -> {
            if (finished[0]) {
                return;
            }
            finished[0] = true;
            claim.release();
            rc.put(BODY, body);
            rc.next();
        });
        request.resume();
    }

    /** The Content-Length as a number; -1 when absent, -2 when it is not a length. */
    static long declaredLength(String header) {
        if (header == null) {
            return -1;
        }
        String text = header.strip();
        if (text.isEmpty() || text.length() > 18) {
            return -2;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return -2;
            }
        }
        return Long.parseLong(text);
    }

    private String tooLarge() {
        return "Payload Too Large: the body exceeds server.max_body_size (" + maxBody + " bytes)";
    }

    private static String busy() {
        return "Service Unavailable: the server is receiving as many request bodies as it holds at once"
                + " (server.http.bodies_in_flight); retry shortly";
    }

    /**
     * Answers, then reads and drops what is still arriving (closing at once could make the client's
     * TCP stack discard the answer while it is still sending). No byte of it is held; a client that
     * never finishes is cut off by the body deadline. An HTTP/1 connection is closed once the body
     * has ended, as its framing may not be trusted for a next request.
     */
    private void refuse(RoutingContext rc, int status, String message) {
        HttpServerRequest request = rc.request();
        boolean http1 = request.version() != HttpVersion.HTTP_2;
        request.handler(dropped -> {
        });
        request.endHandler(ended -> {
            if (http1) {
                request.connection().close();
            }
        });
        request.resume();
        HttpServerResponse response = rc.response();
        if (response.ended() || response.closed()) {
            return;
        }
        if (status == 503) {
            response.putHeader(HttpHeaders.RETRY_AFTER, "1");
        }
        if (http1) {
            response.putHeader(HttpHeaders.CONNECTION, "close");
        }
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(refusal.answer(message));
    }
}
