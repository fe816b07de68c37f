package dev.hyperterse.telemetry;

import io.opentelemetry.exporter.internal.compression.Compressor;
import io.opentelemetry.exporter.internal.grpc.GrpcSender;
import io.opentelemetry.exporter.internal.grpc.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.RetryPolicy;

import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;
import java.net.URI;
import java.util.function.Supplier;

/**
 * OTLP over gRPC (the default {@code OTEL_EXPORTER_OTLP_PROTOCOL}) through Vert.x's HTTP/2 client:
 * the OpenTelemetry SDK's OTLP exporters find this provider through {@link java.util.ServiceLoader}
 * and hand it what the {@code OTEL_EXPORTER_OTLP_*} variables say (endpoint, headers, timeout,
 * compression, certificates, retries).
 */
public final class VertxGrpcSenderProvider implements GrpcSenderProvider {

    /**
     * The SPI's parameters name gRPC-Java types (a managed channel and a stub factory for it) that
     * only a sender built on gRPC-Java uses: this one takes them unnamed and leaves them alone.
     */
    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public GrpcSender createSender(URI endpoint, String endpointPath, Compressor compressor, long timeoutNanos,
                                   long connectTimeoutNanos, Supplier headersSupplier, Object managedChannel,
                                   Supplier stubFactory, RetryPolicy retryPolicy, SSLContext sslContext,
                                   X509TrustManager trustManager) {
        return new VertxGrpcSender<>(endpoint.resolve(endpointPath), compressor, timeoutNanos, connectTimeoutNanos,
                headersSupplier, retryPolicy, sslContext, trustManager);
    }
}
