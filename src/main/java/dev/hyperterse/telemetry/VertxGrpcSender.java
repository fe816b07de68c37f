package dev.hyperterse.telemetry;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.opentelemetry.exporter.internal.RetryUtil;
import io.opentelemetry.exporter.internal.compression.Compressor;
import io.opentelemetry.exporter.internal.grpc.GrpcResponse;
import io.opentelemetry.exporter.internal.grpc.GrpcSender;
import io.opentelemetry.exporter.internal.marshal.Marshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.TrustOptions;
import io.vertx.core.spi.tls.SslContextFactory;
import io.vertx.core.tracing.TracingPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Sends OTLP export requests as unary gRPC calls over HTTP/2 with Vert.x's HTTP client: h2c with
 * prior knowledge for {@code http://} endpoints, TLS with ALPN for {@code https://} ones.
 *
 * <p>A request is one length-prefixed message (a flag byte, 1 when the message is compressed, and
 * the message's length as 4 big-endian bytes) with {@code content-type: application/grpc} and
 * {@code te: trailers}. A call succeeds only on HTTP 200 with {@code grpc-status} 0, read from the
 * trailers or, for a Trailers-Only answer, from the headers; any other status goes to the
 * exporter with its {@code grpc-message}, and an HTTP error without a gRPC status is mapped to one
 * as gRPC clients do (404 is UNIMPLEMENTED, 429 and 502-504 UNAVAILABLE, ...).
 *
 * <p>With a retry policy (the SDK's default), a retryable status (CANCELLED, DEADLINE_EXCEEDED,
 * RESOURCE_EXHAUSTED, ABORTED, OUT_OF_RANGE, UNAVAILABLE, DATA_LOSS; sent by the collector, or the
 * one an HTTP error maps to, such as a balancer's 503), a failed connection, a connection closed
 * before the answer and a stream the server refused unprocessed are tried again after a random
 * backoff below the policy's growing bound, up to its attempts. The timeout bounds the whole
 * export, retries included. An answer's body is read only up to {@link #MAX_ANSWER_BYTES}.
 *
 * <p>The calls run on a Vert.x instance of their own (one event loop on a daemon thread, started
 * with the first export, closed by {@link #shutdown()}): not the server's, whose tracer would
 * otherwise trace the exporter's own requests and whose meters would count them, and which is
 * built after the SDK. The caller's thread only serializes the request.
 */
final class VertxGrpcSender<T extends Marshaler> implements GrpcSender<T> {
    private static final Logger LOG = LoggerFactory.getLogger(VertxGrpcSender.class);
    private static final int OK = 0;
    private static final int UNKNOWN = 2;
    private static final int INTERNAL = 13;
    private static final int UNAUTHENTICATED = 16;
    private static final int PERMISSION_DENIED = 7;
    private static final int UNIMPLEMENTED = 12;
    private static final int UNAVAILABLE = 14;
    /** HTTP/2's CANCEL error code, for a stream given up on. */
    private static final long CANCEL = 0x8;
    /** HTTP/2's REFUSED_STREAM error code: the server did not process the stream. */
    private static final long REFUSED_STREAM = 0x7;
    /** The most of an answer's body read (an export's answer is a few bytes): past it the stream is reset. */
    static final int MAX_ANSWER_BYTES = 4 * 1024 * 1024;
    /** Longer than any deadline worth a timer: no timeout. */
    private static final long NO_DEADLINE = TimeUnit.DAYS.toNanos(365);

    private final String host;
    private final int port;
    private final String path;
    private final boolean ssl;
    private final Compressor compressor;
    private final long timeoutNanos;
    private final long connectTimeoutNanos;
    private final Supplier<Map<String, List<String>>> headersSupplier;
    private final RetryPolicy retryPolicy;
    private final SSLContext sslContext;
    private final X509TrustManager trustManager;

    // guarded by this
    private Transport transport;
    private boolean shutdown;

    /**
     * @param endpoint the call's full URL (collector address and method path)
     * @param compressor null for uncompressed messages
     * @param timeoutNanos bound of one export, retries included; 0 for none
     * @param retryPolicy null for a single attempt
     * @param sslContext null for the JVM's default trust (https only)
     * @param trustManager used when there is a trust manager but no SSL context
     */
    VertxGrpcSender(URI endpoint, Compressor compressor, long timeoutNanos, long connectTimeoutNanos,
                    Supplier<Map<String, List<String>>> headersSupplier, RetryPolicy retryPolicy,
                    SSLContext sslContext, X509TrustManager trustManager) {
        this.ssl = "https".equalsIgnoreCase(endpoint.getScheme());
        this.host = endpoint.getHost();
        this.port = endpoint.getPort() > 0 ? endpoint.getPort() : ssl ? 443 : 80;
        this.path = endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty() ? "/" : endpoint.getRawPath();
        this.compressor = compressor;
        this.timeoutNanos = timeoutNanos <= 0 || timeoutNanos > NO_DEADLINE ? 0 : timeoutNanos;
        this.connectTimeoutNanos = connectTimeoutNanos;
        this.headersSupplier = headersSupplier;
        this.retryPolicy = retryPolicy;
        this.sslContext = sslContext;
        this.trustManager = trustManager;
    }

    @Override
    public void send(T request, Consumer<GrpcResponse> onResponse, Consumer<Throwable> onError) {
        long started = System.nanoTime();
        Buffer body;
        MultiMap headers;
        Transport t;
        try {
            // the exporter may reuse the request's memory once the export completes: serialized now
            body = frame(request);
            headers = headers(headersSupplier.get());
            t = transport();
        } catch (IOException | RuntimeException e) {
            onError.accept(e);
            return;
        }
        Call call = new Call(t, body, headers, started, onResponse, onError);
        t.context.runOnContext(v -> call.start());
    }

    /** Stops calls under way (they fail) and closes the Vert.x instance; done when it is closed. */
    @Override
    public CompletableResultCode shutdown() {
        Transport t;
        synchronized (this) {
            shutdown = true;
            t = transport;
            transport = null;
        }
        if (t == null) {
            return CompletableResultCode.ofSuccess();
        }
        CompletableResultCode result = new CompletableResultCode();
        t.context.runOnContext(v -> {
            t.closed = true;
            for (Call call : List.copyOf(t.calls)) {
                call.finish(null, new IOException("the exporter was shut down"));
            }
            t.vertx.close().onComplete(ar -> {
                if (ar.succeeded()) {
                    result.succeed();
                } else {
                    LOG.debug("closing the OTLP exporter's Vert.x failed", ar.cause());
                    result.fail();
                }
            });
        });
        return result;
    }

    private synchronized Transport transport() {
        if (shutdown) {
            throw new IllegalStateException("the exporter was shut down");
        }
        if (transport == null) {
            transport = new Transport(newVertx());
        }
        return transport;
    }

    private Vertx newVertx() {
        return Vertx.vertx(new VertxOptions()
                // an exporter's threads never keep the JVM alive
                .setUseDaemonThread(true)
                .setEventLoopPoolSize(1)
                .setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1)
                .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
                        .setClassPathResolvingEnabled(false)));
    }

    private HttpClientOptions clientOptions() {
        HttpClientOptions options = new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setDefaultHost(host)
                .setDefaultPort(port)
                .setConnectTimeout((int) Math.min(TimeUnit.NANOSECONDS.toMillis(connectTimeoutNanos), Integer.MAX_VALUE))
                .setTracingPolicy(TracingPolicy.IGNORE);
        if (!ssl) {
            // h2c: the connection starts with HTTP/2's preface, no HTTP/1.1 upgrade
            return options.setHttp2ClearTextUpgrade(false);
        }
        options.setSsl(true).setUseAlpn(true).setVerifyHost(true);
        if (sslContext != null) {
            options.setSslEngineOptions(new GivenSslContext(sslContext));
        } else if (trustManager != null) {
            options.setTrustOptions(TrustOptions.wrap(trustManager));
        }
        return options;
    }

    private Buffer frame(Marshaler request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(compressor == null ? request.getBinarySerializedSize() : 32);
        if (compressor == null) {
            request.writeBinaryTo(out);
        } else {
            try (OutputStream compressed = compressor.compress(out)) {
                request.writeBinaryTo(compressed);
            }
        }
        byte[] message = out.toByteArray();
        return Buffer.buffer(5 + message.length)
                .appendByte((byte) (compressor == null ? 0 : 1))
                .appendInt(message.length)
                .appendBytes(message);
    }

    private MultiMap headers(Map<String, List<String>> configured) {
        MultiMap headers = HttpHeaders.headers();
        if (configured != null) {
            // HTTP/2 field names are lower case
            configured.forEach((name, values) -> values.forEach(value -> headers.add(name.toLowerCase(Locale.ROOT), value)));
        }
        headers.set("content-type", "application/grpc");
        headers.set("te", "trailers");
        if (compressor != null) {
            headers.set("grpc-encoding", compressor.getEncoding());
        }
        return headers;
    }

    /** The exporter's Vert.x, its client, and the calls under way (touched on the context only). */
    private final class Transport {
        final Vertx vertx;
        final Context context;
        final HttpClientAgent client;
        final Set<Call> calls = new HashSet<>();
        boolean closed;

        Transport(Vertx vertx) {
            this.vertx = vertx;
            this.context = vertx.getOrCreateContext();
            this.client = vertx.createHttpClient(clientOptions(), new PoolOptions().setHttp1MaxSize(1).setHttp2MaxSize(1));
        }
    }

    /** One export: its attempts, their backoff and its deadline, all on the transport's context. */
    private final class Call {
        private final Transport transport;
        private final Buffer body;
        private final MultiMap headers;
        private final long started;
        private final Consumer<GrpcResponse> onResponse;
        private final Consumer<Throwable> onError;
        private int attempts;
        // the answer ran past MAX_ANSWER_BYTES: its stream was reset, and the export fails
        private boolean oversized;
        private long backoffNanos;
        private long deadlineTimer = -1;
        private long retryTimer = -1;
        private HttpClientRequest current;
        private boolean done;

        Call(Transport transport, Buffer body, MultiMap headers, long started, Consumer<GrpcResponse> onResponse,
             Consumer<Throwable> onError) {
            this.transport = transport;
            this.body = body;
            this.headers = headers;
            this.started = started;
            this.onResponse = onResponse;
            this.onError = onError;
            this.backoffNanos = retryPolicy == null ? 0 : retryPolicy.getInitialBackoff().toNanos();
        }

        void start() {
            if (transport.closed) {
                finish(null, new IOException("the exporter was shut down"));
                return;
            }
            transport.calls.add(this);
            if (timeoutNanos > 0) {
                long left = timeoutNanos - (System.nanoTime() - started);
                deadlineTimer = transport.vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)), id -> {
                    deadlineTimer = -1;
                    finish(null, new InterruptedIOException("timeout: no answer within "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
                });
            }
            attempt();
        }

        private void attempt() {
            retryTimer = -1;
            if (done) {
                return;
            }
            attempts++;
            MultiMap attemptHeaders = HttpHeaders.headers().addAll(headers);
            String timeout = grpcTimeout();
            if (timeout != null) {
                attemptHeaders.set("grpc-timeout", timeout);
            }
            RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port)
                    .setURI(path).setHeaders(attemptHeaders);
            transport.client.request(options)
                    .compose(request -> {
                        if (done) {
                            request.reset(CANCEL);
                            return io.vertx.core.Future.failedFuture("given up");
                        }
                        current = request;
                        return request.send(body);
                    })
                    // the answer's body is read only to reach its trailers, and bounded: a
                    // collector's answer is a few bytes
                    .compose(response -> {
                        long[] received = {0};
                        response.handler(chunk -> {
                            received[0] += chunk.length();
                            if (received[0] > MAX_ANSWER_BYTES && !oversized) {
                                oversized = true;
                                response.request().reset(CANCEL);
                            }
                        });
                        return response.end().map(ignored -> response);
                    })
                    .onComplete(ar -> {
                        current = null;
                        if (done) {
                            return;
                        }
                        if (ar.succeeded()) {
                            answered(ar.result());
                        } else {
                            failed(ar.cause());
                        }
                    });
        }

        /** The time left as gRPC's {@code grpc-timeout} (at most 8 digits and a unit), or null. */
        private String grpcTimeout() {
            if (timeoutNanos == 0) {
                return null;
            }
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos - (System.nanoTime() - started)));
            return left < 100_000_000L ? left + "m" : TimeUnit.MILLISECONDS.toSeconds(left) + "S";
        }

        private void answered(HttpClientResponse response) {
            String sent = field(response, "grpc-status");
            GrpcResponse outcome = outcome(response.statusCode(), response.statusMessage(), sent,
                    field(response, "grpc-message"));
            // a status the collector sent, or the one an HTTP error maps to (a balancer's 502, 503
            // or 504 in front of a collector that restarts is UNAVAILABLE, tried again)
            if (outcome.grpcStatusValue() != OK
                    && RetryUtil.retryableGrpcStatusCodes().contains(String.valueOf(outcome.grpcStatusValue()))
                    && retryLater()) {
                LOG.debug("OTLP export attempt {} answered {} ({}); trying again", attempts,
                        outcome.grpcStatusValue(), outcome.grpcStatusDescription());
                return;
            }
            finish(outcome, null);
        }

        private void failed(Throwable cause) {
            if (oversized) {
                finish(null, new IOException("the collector's answer passed " + MAX_ANSWER_BYTES + " bytes"));
                return;
            }
            if (retryableFailure(cause) && retryLater()) {
                LOG.debug("OTLP export attempt {} failed ({}); trying again", attempts, cause.toString());
                return;
            }
            finish(null, cause);
        }

        /** Schedules the next attempt when the policy allows one; false when this was the last. */
        private boolean retryLater() {
            if (retryPolicy == null || attempts >= retryPolicy.getMaxAttempts()) {
                return false;
            }
            long bound = Math.min(backoffNanos, retryPolicy.getMaxBackoff().toNanos());
            long delay = bound > 0 ? ThreadLocalRandom.current().nextLong(bound) : 0;
            backoffNanos = (long) (backoffNanos * retryPolicy.getBackoffMultiplier());
            retryTimer = transport.vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(delay)), id -> attempt());
            return true;
        }

        /** Completes the export once, with an answer or a failure, and stops what is left of it. */
        void finish(GrpcResponse outcome, Throwable failure) {
            if (done) {
                return;
            }
            done = true;
            transport.calls.remove(this);
            if (deadlineTimer >= 0) {
                transport.vertx.cancelTimer(deadlineTimer);
            }
            if (retryTimer >= 0) {
                transport.vertx.cancelTimer(retryTimer);
            }
            if (current != null) {
                current.reset(CANCEL);
                current = null;
            }
            try {
                if (outcome != null) {
                    onResponse.accept(outcome);
                } else {
                    onError.accept(failure);
                }
            } catch (RuntimeException e) {
                LOG.warn("the OTLP exporter's completion failed", e);
            }
        }
    }

    /** A header's value, else the trailer's (a Trailers-Only answer carries its status in the headers). */
    private static String field(HttpClientResponse response, String name) {
        String value = response.getHeader(name);
        return value != null ? value : response.trailers().get(name);
    }

    /**
     * What an answer means in gRPC: its {@code grpc-status} on HTTP 200 (UNKNOWN when missing);
     * on another HTTP status a non-zero {@code grpc-status}, else the status gRPC clients map that
     * HTTP status to.
     */
    static GrpcResponse outcome(int httpStatus, String httpMessage, String grpcStatus, String grpcMessage) {
        Integer code = null;
        if (grpcStatus != null) {
            try {
                code = Integer.parseInt(grpcStatus.trim());
            } catch (NumberFormatException e) {
                code = null;
            }
        }
        String message = grpcMessage == null ? "" : unescape(grpcMessage);
        if (httpStatus == 200) {
            if (code == null) {
                return GrpcResponse.create(UNKNOWN, grpcStatus == null
                        ? "the answer has no grpc-status" : "the answer's grpc-status is not a number: " + grpcStatus);
            }
            return GrpcResponse.create(code, message);
        }
        if (code != null && code != OK) {
            return GrpcResponse.create(code, message);
        }
        int mapped = switch (httpStatus) {
            case 400 -> INTERNAL;
            case 401 -> UNAUTHENTICATED;
            case 403 -> PERMISSION_DENIED;
            case 404 -> UNIMPLEMENTED;
            case 429, 502, 503, 504 -> UNAVAILABLE;
            default -> UNKNOWN;
        };
        String http = "HTTP " + httpStatus + (httpMessage == null || httpMessage.isEmpty() ? "" : " " + httpMessage);
        return GrpcResponse.create(mapped, message.isEmpty() ? http : http + ": " + message);
    }

    /** A connection that could not be made: refused, or not made within the connect timeout. */
    static boolean retryableFailure(Throwable cause) {
        if (cause instanceof ConnectException) {
            return true;
        }
        // the connection closed (a collector going away, HTTP/2's GOAWAY) before the answer, or
        // the stream refused unprocessed (REFUSED_STREAM): sent again, at worst a batch twice
        if (cause instanceof io.vertx.core.http.HttpClosedException) {
            return true;
        }
        if (cause instanceof io.vertx.core.http.StreamResetException) {
            return ((io.vertx.core.http.StreamResetException) cause).getCode() == REFUSED_STREAM;
        }
        if (cause instanceof SocketTimeoutException) {
            String message = cause.getMessage();
            return message == null || message.toLowerCase(Locale.ROOT).contains("connect timed out");
        }
        return false;
    }

    /** {@code grpc-message} is percent-encoded UTF-8. */
    static String unescape(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        byte[] in = value.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '%' && i + 2 < in.length) {
                int high = Character.digit(in[i + 1], 16);
                int low = Character.digit(in[i + 2], 16);
                if (high >= 0 && low >= 0) {
                    out.write(high << 4 | low);
                    i += 2;
                    continue;
                }
            }
            out.write(in[i]);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** TLS through the SSL context the SDK built from the certificate variables (trust and client keys). */
    private static final class GivenSslContext extends JdkSSLEngineOptions {
        private final SSLContext context;

        GivenSslContext(SSLContext context) {
            this.context = context;
        }

        @Override
        public JdkSSLEngineOptions copy() {
            return new GivenSslContext(context);
        }

        @Override
        public SslContextFactory sslContextFactory() {
            return new SslContextFactory() {
                private boolean alpn;
                private List<String> protocols = List.of();
                private Set<String> ciphers = Set.of();

                @Override
                public SslContextFactory useAlpn(boolean useAlpn) {
                    this.alpn = useAlpn;
                    return this;
                }

                @Override
                public SslContextFactory applicationProtocols(List<String> applicationProtocols) {
                    this.protocols = applicationProtocols == null ? List.of() : applicationProtocols;
                    return this;
                }

                @Override
                public SslContextFactory enabledCipherSuites(Set<String> enabledCipherSuites) {
                    this.ciphers = enabledCipherSuites == null ? Set.of() : enabledCipherSuites;
                    return this;
                }

                @Override
                public SslContext create() {
                    ApplicationProtocolConfig negotiation = alpn && !protocols.isEmpty()
                            ? new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                                    ApplicationProtocolConfig.SelectorFailureBehavior.FATAL_ALERT,
                                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.FATAL_ALERT, protocols)
                            : ApplicationProtocolConfig.DISABLED;
                    return new JdkSslContext(context, true, ciphers.isEmpty() ? null : ciphers,
                            IdentityCipherSuiteFilter.INSTANCE, negotiation, io.netty.handler.ssl.ClientAuth.NONE,
                            null, false);
                }
            };
        }
    }
}
