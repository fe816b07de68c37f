package dev.hyperterse.telemetry;

import ch.qos.logback.classic.Level;
import dev.hyperterse.testing.LogCapture;
import io.opentelemetry.exporter.internal.FailedExportException;
import io.opentelemetry.exporter.internal.grpc.GrpcSenderProvider;
import io.opentelemetry.exporter.internal.http.HttpSenderProvider;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.PfxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spans leave the process over OTLP as the {@code OTEL_EXPORTER_OTLP_*} settings say, through the
 * SDK the server configures: gRPC over HTTP/2 (cleartext, prior knowledge) to a Vert.x server
 * acting as a collector, and http/protobuf to an HTTP/1.1 one.
 */
class OtlpExportTest {
    private static final String TRACE_EXPORT = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";

    private static Vertx collectorVertx;
    private final List<HttpServer> servers = new ArrayList<>();
    private final List<OpenTelemetrySdk> sdks = new ArrayList<>();
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<CompletableResultCode> results = new ConcurrentLinkedQueue<>();

    /** What the collector saw of one request. */
    record Received(String path, HttpVersion version, MultiMap headers, Buffer body) {
    }

    @BeforeAll
    static void startVertx() {
        collectorVertx = Vertx.vertx();
    }

    @AfterAll
    static void closeVertx() throws Exception {
        collectorVertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        for (OpenTelemetrySdk sdk : sdks) {
            sdk.shutdown().join(10, TimeUnit.SECONDS);
        }
        for (HttpServer server : servers) {
            server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theSendersAreVertxForGrpcAndTheJdkClientForHttp() {
        List<String> grpc = ServiceLoader.load(GrpcSenderProvider.class).stream()
                .map(p -> p.type().getName()).collect(Collectors.toList());
        List<String> http = ServiceLoader.load(HttpSenderProvider.class).stream()
                .map(p -> p.type().getName()).collect(Collectors.toList());
        assertEquals(List.of(VertxGrpcSenderProvider.class.getName()), grpc);
        assertEquals(List.of("io.opentelemetry.exporter.sender.jdk.internal.JdkHttpSenderProvider"), http);
    }

    @Test
    void grpcExportIsOneFramedMessageOverHttp2() throws Exception {
        int port = collector(grpcAnswer(0));
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port));
        String name = spanName();

        Received request = exported(sdk, name);
        assertTrue(received.isEmpty(), "one request");
        assertEquals(TRACE_EXPORT, request.path());
        assertEquals(HttpVersion.HTTP_2, request.version());
        assertEquals("application/grpc", request.headers().get("content-type"));
        assertEquals("trailers", request.headers().get("te"));
        assertEquals("secret-1", request.headers().get("x-collector-key"));
        assertTrue(request.headers().get("user-agent").startsWith("OTel-OTLP-Exporter-Java/"), request.headers().toString());
        assertTrue(request.headers().get("grpc-timeout").matches("\\d{1,8}m"), request.headers().get("grpc-timeout"));
        assertFalse(request.headers().contains("grpc-encoding"));
        Buffer body = request.body();
        assertEquals(0, body.getByte(0), "uncompressed");
        assertEquals(body.length() - 5, body.getInt(1), "the prefix gives the message's length");
        assertTrue(contains(body.getBytes(5, body.length()), name), "the span's name is in the message");
    }

    @Test
    void theGrpcSendersThreadsDoNotKeepTheJvmAlive() throws Exception {
        int port = collector(grpcAnswer(0));
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port));

        assertTrue(export(sdk, spanName()).isSuccess());

        // the collector's Vert.x runs on ordinary threads; the sender's event loop is the daemon one
        List<Thread> loops = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("vert.x-eventloop-thread-")).collect(Collectors.toList());
        assertTrue(loops.stream().anyMatch(Thread::isDaemon), loops.toString());
    }

    @Test
    void grpcCompressionGzipsTheMessage() throws Exception {
        int port = collector(grpcAnswer(0));
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
                "otel.exporter.otlp.compression", "gzip"));
        String name = spanName();

        Received request = exported(sdk, name);
        assertEquals("gzip", request.headers().get("grpc-encoding"));
        Buffer body = request.body();
        assertEquals(1, body.getByte(0), "compressed");
        assertEquals(body.length() - 5, body.getInt(1));
        byte[] message;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body.getBytes(5, body.length())))) {
            message = in.readAllBytes();
        }
        assertTrue(contains(message, name));
    }

    @Test
    void aStatusOtherThanOkInTheTrailersFailsTheExport() throws Exception {
        int port = collector(request -> request.response()
                .putHeader("content-type", "application/grpc")
                .putTrailer("grpc-status", "3")
                .putTrailer("grpc-message", "bad%20spans%3A %C3%A9")
                .end(Buffer.buffer(new byte[5])));
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port));

        CompletableResultCode result = export(sdk, spanName());

        assertFalse(result.isSuccess());
        FailedExportException.GrpcExportException failure =
                assertInstanceOf(FailedExportException.GrpcExportException.class, result.getFailureThrowable());
        assertTrue(failure.failedWithResponse());
        assertEquals(3, failure.getResponse().grpcStatusValue());
        assertEquals("bad spans: é", failure.getResponse().grpcStatusDescription());
        assertEquals(1, received.size(), "INVALID_ARGUMENT is not tried again");
    }

    @Test
    void anEndlessAnswerIsCutOffAndFailsTheExport() throws Exception {
        int port = collector(request -> {
            request.response().putHeader("content-type", "application/grpc").setChunked(true);
            Buffer chunk = Buffer.buffer(new byte[64 * 1024]);
            long timer = collectorVertx.setPeriodic(1, id -> {
                if (!request.response().ended() && !request.response().closed()) {
                    request.response().write(chunk);
                }
            });
            request.response().closeHandler(v -> collectorVertx.cancelTimer(timer));
            request.response().exceptionHandler(e -> collectorVertx.cancelTimer(timer));
        });
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
                "otel.exporter.otlp.timeout", "20000"));

        long t0 = System.nanoTime();
        CompletableResultCode result = export(sdk, spanName());

        assertFalse(result.isSuccess());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(15),
                "cut off by size, not by the 20 s timeout");
    }

    @Test
    void unavailableIsTriedAgainUnderTheRetryPolicy() throws Exception {
        // Trailers-Only: the status in the headers of a response without a body
        assertTriedAgain(2, request -> request.response().putHeader("content-type", "application/grpc")
                .putHeader("grpc-status", "14").putHeader("grpc-message", "collector starting").end());
    }

    /** The first {@code failures} requests get {@code failure}, the next a success: the export succeeds on the last. */
    private void assertTriedAgain(int failures, Consumer<HttpServerRequest> failure) throws Exception {
        int[] calls = {0};
        int port = collector(request -> {
            if (++calls[0] <= failures) {
                failure.accept(request);
            } else {
                grpcAnswer(0).accept(request);
            }
        });
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port));

        assertTrue(export(sdk, spanName()).isSuccess());
        assertEquals(failures + 1, received.size());
    }

    @Test
    void unavailableFailsTheExportWithoutRetries() throws Exception {
        int port = collector(request -> request.response().putHeader("content-type", "application/grpc")
                .putHeader("grpc-status", "14").putHeader("grpc-message", "collector down").end());
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
                "otel.java.exporter.otlp.retry.disabled", "true"));

        CompletableResultCode result = export(sdk, spanName());

        assertFalse(result.isSuccess());
        FailedExportException.GrpcExportException failure =
                assertInstanceOf(FailedExportException.GrpcExportException.class, result.getFailureThrowable());
        assertEquals(14, failure.getResponse().grpcStatusValue());
        assertEquals("collector down", failure.getResponse().grpcStatusDescription());
        assertEquals(1, received.size());
    }

    @Test
    void anHttpErrorWithoutGrpcStatusIsMappedAsGrpcClientsDo() throws Exception {
        int port = collector(request -> request.response().setStatusCode(404).end());
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port));

        CompletableResultCode result = export(sdk, spanName());

        FailedExportException.GrpcExportException failure =
                assertInstanceOf(FailedExportException.GrpcExportException.class, result.getFailureThrowable());
        assertEquals(12, failure.getResponse().grpcStatusValue(), "UNIMPLEMENTED");
        assertTrue(failure.getResponse().grpcStatusDescription().startsWith("HTTP 404"));
    }

    @Test
    void aBalancersUnavailableAnswerIsTriedAgain() throws Exception {
        // a proxy in front of a collector that restarts: plain HTTP, no gRPC status
        assertTriedAgain(2, request -> request.response().setStatusCode(503).end("no upstream"));
    }

    @Test
    void aConnectionClosedBeforeTheAnswerIsTriedAgain() throws Exception {
        assertTriedAgain(1, request -> request.connection().close());
    }

    @Test
    void aCollectorThatIsNotThereFailsTheExport() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
                "otel.java.exporter.otlp.retry.disabled", "true"));

        CompletableResultCode result = export(sdk, spanName());

        FailedExportException.GrpcExportException failure =
                assertInstanceOf(FailedExportException.GrpcExportException.class, result.getFailureThrowable());
        assertFalse(failure.failedWithResponse());
        assertInstanceOf(java.net.ConnectException.class, failure.getCause(), "retried under a retry policy");
    }

    @Test
    void aRefusedConnectionIsTriedAgainUnderTheRetryPolicy() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port));
        CompletableResultCode flushed;
        try (LogCapture log = LogCapture.of(VertxGrpcSender.class).atLevel(Level.DEBUG)) {
            sdk.getTracer("test").spanBuilder(spanName()).startSpan().end();
            flushed = sdk.getSdkTracerProvider().forceFlush();
            // the first attempt is refused; the collector is there for a later one
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (log.messagesContaining("attempt 1 failed").isEmpty() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertEquals(1, log.messagesContaining("attempt 1 failed").size(), log.messages().toString());
        }
        HttpServer server = collectorVertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port));
        server.requestHandler(request -> request.body().onSuccess(body -> {
            received.add(new Received(request.path(), request.version(), copy(request.headers()), body));
            grpcAnswer(0).accept(request);
        }));
        listen(server);

        assertTrue(flushed.join(30, TimeUnit.SECONDS).isDone());
        CompletableResultCode result = results.poll();
        assertNotNull(result);
        assertTrue(result.join(30, TimeUnit.SECONDS).isSuccess());
        assertEquals(1, received.size());
    }

    @Test
    void anExportWithoutAnswerEndsAtTheTimeout() throws Exception {
        int port = collector(request -> { /* never answers */ });
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
                "otel.exporter.otlp.timeout", "300"));

        long start = System.nanoTime();
        CompletableResultCode result = export(sdk, spanName());

        assertFalse(result.isSuccess());
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
        FailedExportException.GrpcExportException failure =
                assertInstanceOf(FailedExportException.GrpcExportException.class, result.getFailureThrowable());
        assertFalse(failure.failedWithResponse());
        assertTrue(failure.getCause().getMessage().startsWith("timeout"), failure.getCause().toString());
    }

    @Test
    void grpcOverTlsTrustsTheConfiguredCertificate(@TempDir Path dir) throws Exception {
        Path certificate = dir.resolve("collector.pem");
        int port = tlsCollector(dir.resolve("collector.p12"), certificate, "SAN=ip:127.0.0.1,dns:localhost");
        String name = spanName();

        OpenTelemetrySdk trusting = sdk(Map.of("otel.exporter.otlp.endpoint", "https://127.0.0.1:" + port,
                "otel.exporter.otlp.certificate", certificate.toString()));
        Received request = exported(trusting, name);
        assertEquals(HttpVersion.HTTP_2, request.version(), "h2 negotiated by ALPN");
        assertTrue(contains(request.body().getBytes(5, request.body().length()), name));

        OpenTelemetrySdk untrusting = sdk(Map.of("otel.exporter.otlp.endpoint", "https://127.0.0.1:" + port,
                "otel.java.exporter.otlp.retry.disabled", "true"));
        assertFalse(export(untrusting, spanName()).isSuccess(),
                "the JVM's default trust does not know the collector's certificate");
        assertTrue(received.isEmpty());
    }

    @Test
    void grpcOverTlsChecksTheCollectorsName(@TempDir Path dir) throws Exception {
        Path certificate = dir.resolve("elsewhere.pem");
        int port = tlsCollector(dir.resolve("elsewhere.p12"), certificate, "SAN=dns:collector.example");

        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "https://127.0.0.1:" + port,
                "otel.exporter.otlp.certificate", certificate.toString(),
                "otel.java.exporter.otlp.retry.disabled", "true"));
        assertFalse(export(sdk, spanName()).isSuccess(), "a trusted certificate for another name is refused");
        assertTrue(received.isEmpty());
    }

    @Test
    void grpcOverTlsPresentsTheConfiguredClientCertificate(@TempDir Path dir) throws Exception {
        Path certificate = dir.resolve("collector.pem");
        Path clientStore = dir.resolve("client.p12");
        Path clientCertificate = dir.resolve("client.pem");
        Path clientKey = dir.resolve("client-key.pem");
        selfSigned(clientStore, clientCertificate, "SAN=dns:exporter.example");
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(clientStore)) {
            store.load(in, "changeit".toCharArray());
        }
        Key key = store.getKey("collector", "changeit".toCharArray());
        Files.writeString(clientKey, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        int port = tlsCollector(dir.resolve("collector.p12"), certificate, "SAN=ip:127.0.0.1", options -> options
                .setClientAuth(ClientAuth.REQUIRED)
                .setTrustOptions(new PemTrustOptions().addCertPath(clientCertificate.toString())));

        OpenTelemetrySdk withClientCertificate = sdk(Map.of("otel.exporter.otlp.endpoint", "https://127.0.0.1:" + port,
                "otel.exporter.otlp.certificate", certificate.toString(),
                "otel.exporter.otlp.client.key", clientKey.toString(),
                "otel.exporter.otlp.client.certificate", clientCertificate.toString()));
        assertTrue(export(withClientCertificate, spanName()).isSuccess());
        assertEquals(1, received.size());

        OpenTelemetrySdk without = sdk(Map.of("otel.exporter.otlp.endpoint", "https://127.0.0.1:" + port,
                "otel.exporter.otlp.certificate", certificate.toString(),
                "otel.java.exporter.otlp.retry.disabled", "true"));
        assertFalse(export(without, spanName()).isSuccess(), "the collector requires a client certificate");
        assertEquals(1, received.size());
    }

    /** An HTTP/2 collector over TLS (ALPN) with a new self-signed certificate for {@code subjectAltName}. */
    private int tlsCollector(Path keyStore, Path certificate, String subjectAltName) throws Exception {
        return tlsCollector(keyStore, certificate, subjectAltName, options -> options);
    }

    private int tlsCollector(Path keyStore, Path certificate, String subjectAltName,
                             UnaryOperator<HttpServerOptions> more) throws Exception {
        selfSigned(keyStore, certificate, subjectAltName);
        HttpServer server = collectorVertx.createHttpServer(more.apply(new HttpServerOptions().setHost("127.0.0.1")
                .setPort(0).setSsl(true).setUseAlpn(true)
                .setKeyCertOptions(new PfxOptions().setPath(keyStore.toString()).setPassword("changeit"))));
        server.requestHandler(request -> request.body().onSuccess(body -> {
            received.add(new Received(request.path(), request.version(), copy(request.headers()), body));
            grpcAnswer(0).accept(request);
        }));
        return listen(server);
    }

    /** A PKCS12 key store with a new EC key and its self-signed certificate, which is also written as PEM. */
    private static void selfSigned(Path keyStore, Path certificate, String subjectAltName) throws Exception {
        keytool("-genkeypair", "-alias", "collector", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=collector", "-ext", subjectAltName, "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-rfc", "-alias", "collector", "-keystore", keyStore.toString(),
                "-storepass", "changeit", "-file", certificate.toString());
    }

    private static void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "keytool finished");
        assertEquals(0, process.exitValue(), output);
    }

    @Test
    void httpProtobufPostsToV1Traces() throws Exception {
        HttpServer server = collectorVertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                .setHttp2ClearTextEnabled(false));
        server.requestHandler(request -> request.body().onSuccess(body -> {
            received.add(new Received(request.path(), request.version(), copy(request.headers()), body));
            request.response().putHeader("content-type", "application/x-protobuf").end();
        }));
        int port = listen(server);
        OpenTelemetrySdk sdk = sdk(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
                "otel.exporter.otlp.protocol", "http/protobuf"));
        String name = spanName();

        Received request = exported(sdk, name);
        assertEquals("/v1/traces", request.path());
        assertEquals(HttpVersion.HTTP_1_1, request.version());
        assertEquals("application/x-protobuf", request.headers().get("content-type"));
        assertEquals("secret-1", request.headers().get("x-collector-key"));
        assertTrue(contains(request.body().getBytes(), name));
    }

    /** Exports a span named {@code name}, which must succeed; the request the collector saw first. */
    private Received exported(OpenTelemetrySdk sdk, String name) {
        assertTrue(export(sdk, name).isSuccess());
        Received request = received.poll();
        assertNotNull(request, "the collector saw the export");
        return request;
    }

    /** An SDK configured as the server's, with these settings (the OTEL_* variables' property names). */
    private OpenTelemetrySdk sdk(Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>(Map.of("otel.exporter.otlp.headers", "x-collector-key=secret-1",
                "otel.traces.sampler", "always_on"));
        properties.putAll(settings);
        OpenTelemetrySdk sdk = TelemetrySetup.autoConfiguration("otlp-test", "1.0")
                .addPropertiesSupplier(() -> properties)
                .addSpanExporterCustomizer((exporter, config) -> new ResultRecorder(exporter, results))
                .build()
                .getOpenTelemetrySdk();
        sdks.add(sdk);
        return sdk;
    }

    /** Ends a span of that name, flushes it and gives the export's result. */
    private CompletableResultCode export(OpenTelemetrySdk sdk, String name) {
        sdk.getTracer("test").spanBuilder(name).startSpan().end();
        assertTrue(sdk.getSdkTracerProvider().forceFlush().join(30, TimeUnit.SECONDS).isDone());
        CompletableResultCode result = results.poll();
        assertNotNull(result, "an export was made");
        assertTrue(result.join(30, TimeUnit.SECONDS).isDone());
        return result;
    }

    private int collector(Consumer<HttpServerRequest> answer) throws Exception {
        // cleartext HTTP/2 with prior knowledge is on by default
        HttpServer server = collectorVertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0));
        server.requestHandler(request -> request.body().onSuccess(body -> {
            received.add(new Received(request.path(), request.version(), copy(request.headers()), body));
            answer.accept(request);
        }));
        return listen(server);
    }

    private int listen(HttpServer server) throws Exception {
        servers.add(server);
        return server.listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
    }

    /** A successful unary answer: an empty response message, then grpc-status in the trailers. */
    private static Consumer<HttpServerRequest> grpcAnswer(int status) {
        return request -> request.response()
                .putHeader("content-type", "application/grpc")
                .putTrailer("grpc-status", Integer.toString(status))
                .end(Buffer.buffer(new byte[5]));
    }

    private static MultiMap copy(MultiMap headers) {
        return MultiMap.caseInsensitiveMultiMap().addAll(headers);
    }

    private static String spanName() {
        return "otlp-test-" + UUID.randomUUID();
    }

    private static boolean contains(byte[] haystack, String text) {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Passes spans on and keeps each export's result. */
    private record ResultRecorder(SpanExporter delegate, Collection<CompletableResultCode> results) implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            CompletableResultCode result = delegate.export(spans);
            results.add(result);
            return result;
        }

        @Override
        public CompletableResultCode flush() {
            return delegate.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return delegate.shutdown();
        }
    }
}
