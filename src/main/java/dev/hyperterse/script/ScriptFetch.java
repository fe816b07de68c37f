package dev.hyperterse.script;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The HTTP side of the scripts' {@code fetch}: one Vert.x client whose requests and callbacks
 * run on an event loop of their own. Callbacks must not run on the script worker context: its
 * threads may all be waiting for these very responses.
 */
final class ScriptFetch {
    /** Larger response bodies fail the fetch rather than fill the heap. */
    static final long MAX_BODY_BYTES = 16L * 1024 * 1024;

    /** What a finished request hands back to the script (all plain Java data). */
    record Response(int status, String statusText, String headersJson, String body, String url) {
    }

    private final HttpClient client;
    private final Context eventLoop;

    ScriptFetch(Vertx vertx) {
        // an event-loop context created for the client, so responses never queue behind script workers
        this.eventLoop = ((VertxInternal) vertx).createEventLoopContext();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setMaxRedirects(5)
                .setDecompressionSupported(true)
                .setName("hyperterse-script-fetch"));
    }

    /**
     * Sends a request; exactly one of the callbacks runs, on the client's event loop.
     *
     * @param timeout how long the whole exchange may take (the rest of the script's time)
     */
    void send(String url, String method, JsonObject headers, String body, Duration timeout,
              Consumer<Response> onResponse, Consumer<String> onError) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            onError.accept("invalid URL: " + url);
            return;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            onError.accept("only absolute http and https URLs can be fetched, got " + url);
            return;
        }
        HttpMethod httpMethod = HttpMethod.valueOf(method);
        long ms = Math.max(1, timeout.toMillis());
        RequestOptions options = new RequestOptions()
                .setAbsoluteURI(url)
                .setMethod(httpMethod)
                .setFollowRedirects(httpMethod == HttpMethod.GET || httpMethod == HttpMethod.HEAD)
                .setTimeout(ms)
                .setConnectTimeout(ms);
        headers.forEach(e -> options.addHeader(e.getKey(), String.valueOf(e.getValue())));
        eventLoop.runOnContext(v -> client.request(options)
                .compose(request -> body == null ? request.send() : request.send(Buffer.buffer(body)))
                .compose(response -> readBody(response).map(buffer -> new Response(response.statusCode(),
                        response.statusMessage(), headersJson(response.headers()), buffer.toString(),
                        url)))
                .onComplete(ar -> {
                    if (ar.succeeded()) {
                        onResponse.accept(ar.result());
                    } else {
                        onError.accept(String.valueOf(ar.cause().getMessage()));
                    }
                }));
    }

    private static Future<Buffer> readBody(HttpClientResponse response) {
        String length = response.getHeader("content-length");
        if (length != null) {
            try {
                if (Long.parseLong(length.strip()) > MAX_BODY_BYTES) {
                    response.request().reset();
                    return Future.failedFuture("the response body is larger than " + MAX_BODY_BYTES + " bytes");
                }
            } catch (NumberFormatException ignored) {
                // a malformed length is checked while reading below
            }
        }
        Buffer collected = Buffer.buffer();
        io.vertx.core.Promise<Buffer> done = io.vertx.core.Promise.promise();
        response.handler(chunk -> {
            if (collected.length() + chunk.length() > MAX_BODY_BYTES) {
                response.request().reset();
                done.tryFail("the response body is larger than " + MAX_BODY_BYTES + " bytes");
            } else {
                collected.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(done::tryFail);
        response.endHandler(v -> done.tryComplete(collected));
        return done.future();
    }

    private static String headersJson(MultiMap headers) {
        JsonObject out = new JsonObject();
        for (String name : headers.names()) {
            out.put(name.toLowerCase(Locale.ROOT), String.join(", ", headers.getAll(name)));
        }
        return out.encode();
    }

    Future<Void> close() {
        return client.close();
    }
}
