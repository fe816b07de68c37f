package dev.hyperterse.telemetry;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.DatagramSocketMetrics;
import io.vertx.core.spi.metrics.EventBusMetrics;
import io.vertx.core.spi.metrics.HttpClientMetrics;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.TCPMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;

/**
 * Vert.x's Micrometer metrics, with the HTTP servers' per-request meters kept per method, route
 * and status code ({@link HttpServerRequestMeters}) instead of looked up on every request, and
 * without the SQL clients' per-query meters, which the connectors' own timer duplicates; every
 * other metric is Vert.x's own, unchanged.
 */
final class LeanHttpMetricsFactory implements VertxMetricsFactory {
    private final VertxMetricsFactory vertxOwn;
    private final MeterRegistry registry;

    LeanHttpMetricsFactory(VertxMetricsFactory vertxOwn, MeterRegistry registry) {
        this.vertxOwn = vertxOwn;
        this.registry = registry;
    }

    @Override
    public VertxMetrics metrics(VertxOptions options) {
        VertxMetrics metrics = vertxOwn.metrics(options);
        return metrics == null ? null : new Lean(metrics, new HttpServerRequestMeters(registry));
    }

    @Override
    public MetricsOptions newOptions() {
        return vertxOwn.newOptions();
    }

    @Override
    public MetricsOptions newOptions(MetricsOptions options) {
        return vertxOwn.newOptions(options);
    }

    @Override
    public MetricsOptions newOptions(JsonObject json) {
        return vertxOwn.newOptions(json);
    }

    private static final class Lean implements VertxMetrics {
        private final VertxMetrics vertxOwn;
        private final HttpServerRequestMeters requests;

        Lean(VertxMetrics vertxOwn, HttpServerRequestMeters requests) {
            this.vertxOwn = vertxOwn;
            this.requests = requests;
        }

        @Override
        public HttpServerMetrics<?, ?, ?> createHttpServerMetrics(HttpServerOptions options, SocketAddress localAddress) {
            return requests.forServer(vertxOwn.createHttpServerMetrics(options, localAddress));
        }

        @Override
        public EventBusMetrics createEventBusMetrics() {
            return vertxOwn.createEventBusMetrics();
        }

        @Override
        public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remoteAddress, String type, String namespace) {
            // the SQL clients' per-query meters (vertx_sql_*): hyperterse_connector_operation_duration_seconds
            // times the same statements per adapter, so every query is not timed twice
            return "sql".equals(type) ? null : vertxOwn.createClientMetrics(remoteAddress, type, namespace);
        }

        @Override
        public HttpClientMetrics<?, ?, ?> createHttpClientMetrics(HttpClientOptions options) {
            return vertxOwn.createHttpClientMetrics(options);
        }

        @Override
        public TCPMetrics<?> createNetServerMetrics(NetServerOptions options, SocketAddress localAddress) {
            return vertxOwn.createNetServerMetrics(options, localAddress);
        }

        @Override
        public TCPMetrics<?> createNetClientMetrics(NetClientOptions options) {
            return vertxOwn.createNetClientMetrics(options);
        }

        @Override
        public DatagramSocketMetrics createDatagramSocketMetrics(DatagramSocketOptions options) {
            return vertxOwn.createDatagramSocketMetrics(options);
        }

        @Override
        public PoolMetrics<?, ?> createPoolMetrics(String poolType, String poolName, int maxPoolSize) {
            return vertxOwn.createPoolMetrics(poolType, poolName, maxPoolSize);
        }

        @Override
        public void vertxCreated(Vertx vertx) {
            vertxOwn.vertxCreated(vertx);
        }

        @Override
        public boolean isMetricsEnabled() {
            return vertxOwn.isMetricsEnabled();
        }

        @Override
        public void close() {
            vertxOwn.close();
        }
    }
}
