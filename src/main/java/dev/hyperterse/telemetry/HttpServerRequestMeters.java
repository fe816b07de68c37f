package dev.hyperterse.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.observability.HttpResponse;
import io.vertx.micrometer.Label;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The per-request HTTP server meters of Vert.x's Micrometer binding ({@code vertx_http_server_*}:
 * requests, response time, request and response bytes, active requests, resets), with the same
 * names, descriptions and labels ({@code method}; {@code route} and {@code code} on the response
 * meters), but each meter looked up once and kept: per method, then per route and status code.
 * Vert.x's binding builds the tags and looks every meter up in the registry on each request.
 *
 * <p>One per Vert.x instance, shared by its HTTP servers ({@link #forServer}); what is not
 * per request (connections, bytes on the socket, errors, WebSockets) stays with Vert.x's binding.
 */
final class HttpServerRequestMeters {
    private static final String PREFIX = "vertx.http.server.";
    private static final String METHOD = Label.HTTP_METHOD.toString();
    private static final String ROUTE = Label.HTTP_ROUTE.toString();
    private static final String CODE = Label.HTTP_CODE.toString();
    private static final int FIRST_CODE = 100;
    private static final int LAST_CODE = 599;

    /** The methods counted under their own name; the HTTP server accepts any token as a method. */
    private static final java.util.Set<HttpMethod> KNOWN = java.util.Set.copyOf(HttpMethod.values());
    /** What every other method is counted as (OpenTelemetry's name for it). */
    static final HttpMethod OTHER = HttpMethod.valueOf("_OTHER");

    private final MeterRegistry registry;
    private final Map<HttpMethod, ForMethod> byMethod = new ConcurrentHashMap<>();

    HttpServerRequestMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Vert.x's metrics of one HTTP server, with the per-request part answered here. */
    @SuppressWarnings("unchecked")
    HttpServerMetrics<?, ?, ?> forServer(HttpServerMetrics<?, ?, ?> vertxOwn) {
        return vertxOwn == null ? null : new Server((HttpServerMetrics<Object, Object, Object>) vertxOwn);
    }

    /**
     * The meters of a method. A method outside the known ones is counted as {@link #OTHER}: the
     * method is the client's, and each new one made a new set of series, so a client sending
     * made-up methods grew the registry and every scrape without end.
     */
    private ForMethod method(HttpMethod method) {
        HttpMethod counted = KNOWN.contains(method) ? method : OTHER;
        ForMethod known = byMethod.get(counted);
        return known != null ? known : byMethod.computeIfAbsent(counted, ForMethod::new);
    }

    /** The meters of one method, and of its responses by route and status code. */
    private final class ForMethod {
        private final Tags tags;
        private final LongAdder active = new LongAdder();
        private final DistributionSummary requestBytes;
        /** Registered at the first reset, as Vert.x's binding does. */
        private volatile Counter resets;
        private final Map<String, AtomicReferenceArray<ForResponse>> byRoute = new ConcurrentHashMap<>();

        ForMethod(HttpMethod method) {
            this.tags = Tags.of(METHOD, method.toString());
            Gauge.builder(PREFIX + "active.requests", active, LongAdder::doubleValue)
                    .description("Number of requests being processed")
                    .tags(tags)
                    .register(registry);
            this.requestBytes = DistributionSummary.builder(PREFIX + "request.bytes")
                    .description("Size of requests in bytes")
                    .tags(tags)
                    .register(registry);
        }

        Counter resets() {
            Counter known = resets;
            if (known == null) {
                known = Counter.builder(PREFIX + "request.resets")
                        .description("Number of request resets")
                        .tags(tags)
                        .register(registry);
                resets = known;
            }
            return known;
        }

        ForResponse response(String route, int code) {
            AtomicReferenceArray<ForResponse> byCode = byRoute.get(route);
            if (byCode == null) {
                byCode = byRoute.computeIfAbsent(route, r -> new AtomicReferenceArray<>(LAST_CODE - FIRST_CODE + 1));
            }
            if (code < FIRST_CODE || code > LAST_CODE) {
                return new ForResponse(tags, route, code);
            }
            ForResponse known = byCode.get(code - FIRST_CODE);
            if (known == null) {
                // registering twice gives the same meters, so a race costs only the lookup
                known = new ForResponse(tags, route, code);
                byCode.compareAndSet(code - FIRST_CODE, null, known);
            }
            return known;
        }
    }

    /** The meters of the responses to one method on one route with one status code. */
    private final class ForResponse {
        private final Counter requests;
        private final Timer responseTime;
        private final DistributionSummary responseBytes;

        ForResponse(Tags methodTags, String route, int code) {
            Tags tags = methodTags.and(ROUTE, route).and(CODE, String.valueOf(code));
            this.requests = Counter.builder(PREFIX + "requests")
                    .description("Number of processed requests")
                    .tags(tags)
                    .register(registry);
            this.responseTime = Timer.builder(PREFIX + "response.time")
                    .description("Request processing time")
                    .tags(tags)
                    .register(registry);
            this.responseBytes = DistributionSummary.builder(PREFIX + "response.bytes")
                    .description("Size of responses in bytes")
                    .tags(tags)
                    .register(registry);
        }
    }

    /** One request in flight: its method's meters, when it began, the routes it took. */
    static final class Request {
        private final ForMethod meters;
        private final long started = System.nanoTime();
        /** One route, or several joined by {@code >} as Vert.x's binding does. */
        private String route;
        private boolean requestEnded;
        private boolean responseEnded;
        private boolean reset;

        private Request(ForMethod meters) {
            this.meters = meters;
        }
    }

    /** Delegates all but the requests to Vert.x's own metrics of the server. */
    private final class Server implements HttpServerMetrics<Request, Object, Object> {
        private final HttpServerMetrics<Object, Object, Object> vertxOwn;

        Server(HttpServerMetrics<Object, Object, Object> vertxOwn) {
            this.vertxOwn = vertxOwn;
        }

        @Override
        public Request requestBegin(Object socketMetric, HttpRequest request) {
            return begin(request.method());
        }

        @Override
        public Request responsePushed(Object socketMetric, HttpMethod method, String uri, HttpResponse response) {
            return begin(method);
        }

        private Request begin(HttpMethod method) {
            Request r = new Request(method(method));
            r.meters.active.increment();
            return r;
        }

        @Override
        public void requestEnd(Request r, HttpRequest request, long bytesRead) {
            r.meters.requestBytes.record(bytesRead);
            r.requestEnded = true;
            if (!r.reset && r.responseEnded) {
                r.meters.active.decrement();
            }
        }

        @Override
        public void requestReset(Request r) {
            r.meters.resets().increment();
            r.meters.active.decrement();
            r.reset = true;
        }

        @Override
        public void requestRouted(Request r, String route) {
            if (route != null) {
                r.route = r.route == null ? route : r.route + '>' + route;
            }
        }

        @Override
        public void responseEnd(Request r, HttpResponse response, long bytesWritten) {
            ForResponse meters = r.meters.response(r.route == null ? "" : r.route, response.statusCode());
            meters.requests.increment();
            meters.responseTime.record(System.nanoTime() - r.started, TimeUnit.NANOSECONDS);
            meters.responseBytes.record(bytesWritten);
            r.responseEnded = true;
            if (!r.reset && r.requestEnded) {
                r.meters.active.decrement();
            }
        }

        @Override
        public Object connected(Object socketMetric, Request r, ServerWebSocket webSocket) {
            return vertxOwn.connected(socketMetric, null, webSocket);
        }

        @Override
        public void disconnected(Object webSocketMetric) {
            vertxOwn.disconnected(webSocketMetric);
        }

        @Override
        public Object connected(SocketAddress remoteAddress, String remoteName) {
            return vertxOwn.connected(remoteAddress, remoteName);
        }

        @Override
        public void disconnected(Object socketMetric, SocketAddress remoteAddress) {
            vertxOwn.disconnected(socketMetric, remoteAddress);
        }

        @Override
        public void bytesRead(Object socketMetric, SocketAddress remoteAddress, long numberOfBytes) {
            vertxOwn.bytesRead(socketMetric, remoteAddress, numberOfBytes);
        }

        @Override
        public void bytesWritten(Object socketMetric, SocketAddress remoteAddress, long numberOfBytes) {
            vertxOwn.bytesWritten(socketMetric, remoteAddress, numberOfBytes);
        }

        @Override
        public void exceptionOccurred(Object socketMetric, SocketAddress remoteAddress, Throwable t) {
            vertxOwn.exceptionOccurred(socketMetric, remoteAddress, t);
        }

        @Override
        public void close() {
            vertxOwn.close();
        }
    }
}
