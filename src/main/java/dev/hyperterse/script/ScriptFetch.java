package dev.hyperterse.script;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The HTTP side of the scripts' {@code fetch}: one Vert.x client whose requests and callbacks
 * run on an event loop of their own. Callbacks must not run on the script worker context: its
 * threads may all be waiting for these very responses.
 *
 * <p>Every request, and every redirect it follows, is checked against the {@link FetchRules}
 * before it connects: hosts outside {@code tools.fetch.allow_hosts} (when set) and this server's
 * own address are refused, and the connection goes to the very address that was checked. Each
 * request can be stopped, so a script's requests end with its call.
 */
final class ScriptFetch {
    /** Larger response bodies fail the fetch rather than fill the heap. */
    static final long MAX_BODY_BYTES = 16L * 1024 * 1024;
    private static final int MAX_REDIRECTS = 5;
    /** Headers that must not follow a redirect to another origin (as browsers and Node's fetch do). */
    private static final List<String> CREDENTIAL_HEADERS = List.of("authorization", "cookie", "proxy-authorization");

    /** What a finished request hands back to the script (all plain Java data). */
    record Response(int status, String statusText, String headersJson, String body, String url) {
    }

    private final Vertx vertx;
    private final HttpClient client;
    private final Context eventLoop;
    private final FetchRules rules;

    ScriptFetch(Vertx vertx, FetchRules rules) {
        this.vertx = vertx;
        // an event-loop context created for the client, so responses never queue behind script workers
        this.eventLoop = ((VertxInternal) vertx).createEventLoopContext();
        this.rules = rules;
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setDecompressionSupported(true)
                .setName("hyperterse-script-fetch"));
    }

    /** One request in flight: its current exchange (a redirect starts another), and whether it was stopped. */
    private static final class Exchange {
        private HttpClientRequest request;
        private boolean stopped;
    }

    /**
     * Sends a request; exactly one of the callbacks runs, on the client's event loop, unless the
     * returned stop runs first (then neither does).
     *
     * @param timeout how long the whole exchange may take (the rest of the script's time)
     * @return stops the request (from any thread): the connection is reset, no callback runs
     */
    Runnable send(String url, String method, JsonObject headers, String body, Duration timeout,
                  Consumer<Response> onResponse, Consumer<String> onError) {
        HttpMethod httpMethod = HttpMethod.valueOf(method);
        long deadline = System.nanoTime() + timeout.toNanos();
        Exchange exchange = new Exchange();
        MultiMap requestHeaders = MultiMap.caseInsensitiveMultiMap();
        headers.forEach(e -> requestHeaders.add(e.getKey(), String.valueOf(e.getValue())));
        eventLoop.runOnContext(v -> hop(exchange, url, httpMethod, requestHeaders, body, deadline, 0)
                .onComplete(ar -> {
                    if (exchange.stopped) {
                        return;
                    }
                    if (ar.succeeded()) {
                        onResponse.accept(ar.result());
                    } else {
                        onError.accept(String.valueOf(ar.cause().getMessage()));
                    }
                }));
        return () -> eventLoop.runOnContext(v -> {
            exchange.stopped = true;
            if (exchange.request != null) {
                exchange.request.reset();
            }
        });
    }

    /** True for a method {@link #send} takes: an HTTP token. */
    static boolean isMethod(String method) {
        try {
            HttpMethod.valueOf(method);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** One exchange of a request: checks the target, sends, and follows a redirect as another hop. */
    private Future<Response> hop(Exchange exchange, String url, HttpMethod method, MultiMap headers, String body,
                                 long deadline, int redirects) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Future.failedFuture("invalid URL: " + url);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            return Future.failedFuture("only absolute http and https URLs can be fetched, got " + url);
        }
        long ms = (deadline - System.nanoTime()) / 1_000_000;
        if (ms <= 0 || exchange.stopped) {
            return Future.failedFuture("the script's time is up");
        }
        String host = uri.getHost();
        int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return check(host, port).compose(checked -> {
            if (exchange.stopped) {
                return Future.failedFuture("stopped");
            }
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            // connects to the address that was checked, never one a second lookup of the name gives;
            // the Host header, TLS's server name and its certificate check keep the name of the URL
            RequestOptions options = new RequestOptions()
                    .setAbsoluteURI(url)
                    .setServer(checked)
                    .setMethod(method)
                    .setFollowRedirects(false)
                    .setTimeout(left)
                    .setConnectTimeout(left)
                    .setHeaders(headers);
            return client.request(options).compose(request -> {
                exchange.request = request;
                if (exchange.stopped) {
                    request.reset();
                    return Future.failedFuture("stopped");
                }
                return body == null ? request.send() : request.send(Buffer.buffer(body));
            }).compose(response -> {
                String location = response.getHeader("location");
                if (isRedirect(response.statusCode()) && location != null
                        && (method == HttpMethod.GET || method == HttpMethod.HEAD)) {
                    if (redirects >= MAX_REDIRECTS) {
                        response.request().reset();
                        return Future.failedFuture("more than " + MAX_REDIRECTS + " redirects");
                    }
                    URI next;
                    try {
                        next = uri.resolve(location);
                    } catch (IllegalArgumentException e) {
                        response.request().reset();
                        return Future.failedFuture("invalid redirect location from " + url);
                    }
                    // the redirect's body is not wanted; the connection goes back to the pool
                    response.handler(chunk -> { });
                    return response.end().recover(e -> Future.succeededFuture()).compose(done -> hop(exchange,
                            next.toString(), method, sameOrigin(uri, next) ? headers : withoutCredentials(headers),
                            null, deadline, redirects + 1));
                }
                return readBody(response).map(buffer -> new Response(response.statusCode(),
                        response.statusMessage(), headersJson(response.headers()), buffer.toString(), url));
            });
        });
    }

    /**
     * Refuses a host outside the allow-list, and this server's own address: any address of this
     * machine (loopback, 0.0.0.0, its interfaces) at the port the server listens on. The host is
     * resolved once, by the client's own resolver (one that does not resolve fails the request),
     * and the request connects to the address this returns: a name whose answer changes between
     * the check and the connection (DNS rebinding) cannot lead it anywhere the check did not see.
     *
     * @return the address to connect to
     */
    private Future<SocketAddress> check(String host, int port) {
        if (!rules.allowed(host, port)) {
            return Future.failedFuture(host + (port > 0 ? ":" + port : "")
                    + " is not in tools.fetch.allow_hosts (" + rules.allowHosts().stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", ")) + ")");
        }
        int own = rules.serverPort().getAsInt();
        boolean mayBeSelf = own > 0 && port == own && !rules.namedWithPort(host, port);
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        // asked of the resolver the client would connect with: the JDK's knows names differently
        // (not localhost., say)
        io.vertx.core.Promise<List<InetSocketAddress>> resolved = io.vertx.core.Promise.promise();
        ((VertxInternal) vertx).nameResolver().resolveAll(name, resolved::handle);
        return resolved.future().compose(addresses -> {
            if (addresses.isEmpty()) {
                return Future.failedFuture("cannot resolve " + host);
            }
            // the address the client's own lookup would have connected to: the first, the preferred family's
            SocketAddress target = SocketAddress.inetSocketAddress(new InetSocketAddress(
                    addresses.get(0).getAddress(), port));
            if (!mayBeSelf) {
                return Future.succeededFuture(target);
            }
            return eventLoop.executeBlocking(() -> {
                for (InetSocketAddress address : addresses) {
                    if (isThisMachine(address.getAddress())) {
                        return true;
                    }
                }
                return false;
            }, false).compose(self -> self
                    ? Future.failedFuture("refused to fetch " + host + ":" + port + ", this server's own address (a "
                            + "script calling its own server can call itself without end; an allow_hosts entry naming "
                            + host + ":" + port + " allows it)")
                    : Future.succeededFuture(target));
        });
    }

    private static boolean isThisMachine(InetAddress address) throws java.net.SocketException {
        return address.isLoopbackAddress() || address.isAnyLocalAddress()
                || NetworkInterface.getByInetAddress(address) != null;
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    private static boolean sameOrigin(URI a, URI b) {
        return Objects.equals(lower(a.getScheme()), lower(b.getScheme())) && Objects.equals(lower(a.getHost()),
                lower(b.getHost())) && a.getPort() == b.getPort();
    }

    private static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }

    private static MultiMap withoutCredentials(MultiMap headers) {
        MultiMap out = MultiMap.caseInsensitiveMultiMap().addAll(headers);
        CREDENTIAL_HEADERS.forEach(out::remove);
        return out;
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
                // failed before the reset, whose own failure (Stream reset) would come first otherwise
                done.tryFail("the response body is larger than " + MAX_BODY_BYTES + " bytes");
                response.request().reset();
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
