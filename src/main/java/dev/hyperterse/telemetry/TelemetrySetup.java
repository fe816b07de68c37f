package dev.hyperterse.telemetry;

import dev.hyperterse.model.ObservabilitySettings;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Owns what telemetry needs for the life of the process: the OpenTelemetry SDK (when tracing is
 * on) and the Prometheus registry (when metrics are on). It builds the Vert.x instance with both
 * plugged in, so Vert.x's HTTP server, SQL clients and pools report into them, and flushes them
 * when closed.
 */
public final class TelemetrySetup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TelemetrySetup.class);
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    private static final AttributeKey<String> SERVICE_VERSION = AttributeKey.stringKey("service.version");

    private final OpenTelemetrySdk sdk;
    private final PrometheusMeterRegistry registry;
    private final Telemetry telemetry;
    // guarded by this: the JVM meters once bound (see bindJvmMetrics), some of which hold listeners
    private java.util.List<MeterBinder> jvmBinders;

    private TelemetrySetup(OpenTelemetrySdk sdk, PrometheusMeterRegistry registry, boolean includeInputs) {
        this.sdk = sdk;
        this.registry = registry;
        this.telemetry = new Telemetry(sdk == null ? Tracing.OFF : Tracing.of(sdk, includeInputs),
                registry == null ? Metrics.NONE : new MicrometerMetrics(registry));
    }

    /** Neither traces nor metrics. */
    public static TelemetrySetup disabled() {
        return new TelemetrySetup(null, null, false);
    }

    /**
     * From the project's {@code observability:} block and the standard {@code OTEL_*} variables
     * (read by the SDK's autoconfiguration: exporter, endpoint, protocol, headers, sampler,
     * propagators, resource). The service name defaults to the project's name, its version to
     * the project's version, unless the variables name them.
     *
     * @param environment the process environment, for {@code OTEL_SDK_DISABLED}
     */
    public static TelemetrySetup create(ObservabilitySettings settings, Map<String, String> environment,
                                        String serviceName, String serviceVersion) {
        boolean disabledByEnv = "true".equalsIgnoreCase(String.valueOf(environment.get("OTEL_SDK_DISABLED")).trim())
                || "true".equalsIgnoreCase(System.getProperty("otel.sdk.disabled", "").trim());
        OpenTelemetrySdk sdk = null;
        if (settings.tracingEnabled() && !disabledByEnv) {
            sdk = autoConfiguration(serviceName, serviceVersion).build().getOpenTelemetrySdk();
            LOG.info("tracing on: spans are exported as the OTEL_* variables say (by default OTLP to localhost)");
        } else if (settings.tracingEnabled()) {
            LOG.info("tracing off: OTEL_SDK_DISABLED is true");
        }
        return new TelemetrySetup(sdk, settings.metricsEnabled() ? registry() : null, settings.tracingIncludeInputs());
    }

    /** The SDK as {@link #create} configures it, before the {@code OTEL_*} variables are read. */
    static AutoConfiguredOpenTelemetrySdkBuilder autoConfiguration(String serviceName, String serviceVersion) {
        return AutoConfiguredOpenTelemetrySdk.builder()
                // this server's metrics are Prometheus ones and its logs go to stderr: the SDK
                // exports spans only, unless the variables ask for more
                .addPropertiesSupplier(() -> Map.of("otel.metrics.exporter", "none", "otel.logs.exporter", "none"))
                .addResourceCustomizer((resource, config) -> named(resource, serviceName, serviceVersion))
                .addSpanExporterCustomizer((exporter, config) -> new RedactingSpanExporter(exporter))
                // flushed by close(), after the server has drained, not by a hook racing it
                .disableShutdownHook();
    }

    /**
     * For tests: spans go synchronously through the redacting exporter into {@code exporter}
     * (an in-memory one), W3C trace context is propagated, and metrics go to a fresh registry.
     */
    public static TelemetrySetup forTesting(SpanExporter exporter, boolean includeInputs, boolean metrics) {
        OpenTelemetrySdk sdk = exporter == null ? null : OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(new RedactingSpanExporter(exporter)))
                        .build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        return new TelemetrySetup(sdk, metrics ? registry() : null, includeInputs);
    }

    private static PrometheusMeterRegistry registry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // Vert.x Web reports every route a request passed through ("/mcp>/mcp>/mcp" for the
        // guard, body handler and endpoint of one path): the first is the route
        registry.config().meterFilter(MeterFilter.replaceTagValues("route",
                route -> route.indexOf('>') > 0 ? route.substring(0, route.indexOf('>')) : route));
        return registry;
    }

    private static Resource named(Resource resource, String serviceName, String serviceVersion) {
        String current = resource.getAttribute(SERVICE_NAME);
        Resource out = resource;
        if ((current == null || current.startsWith("unknown_service")) && serviceName != null) {
            out = out.merge(Resource.builder().put(SERVICE_NAME, serviceName).build());
        }
        if (resource.getAttribute(SERVICE_VERSION) == null && serviceVersion != null) {
            out = out.merge(Resource.builder().put(SERVICE_VERSION, serviceVersion).build());
        }
        return out;
    }

    public Telemetry telemetry() {
        return telemetry;
    }

    /** The OpenTelemetry instance, or null when tracing is off. */
    public OpenTelemetry openTelemetry() {
        return sdk;
    }

    /** True when {@link #scrape()} has something to say. */
    public boolean metricsEnabled() {
        return registry != null;
    }

    /** Every meter in the Prometheus text format (0.0.4). */
    public String scrape() {
        if (registry == null) {
            throw new IllegalStateException("metrics are disabled");
        }
        bindJvmMetrics(); // a scrape before the server bound them waits for them
        return registry.scrape();
    }

    /**
     * A Vert.x instance that reports into this setup: HTTP server requests, client and pool
     * metrics into the registry (JVM metrics: {@link #bindJvmMetrics()}); server spans (from incoming {@code traceparent})
     * and SQL client spans into the tracer. With both off it is a plain Vert.x.
     */
    public Vertx newVertx(VertxOptions options) {
        return builder(options).build();
    }

    /** A clustered Vert.x with the same metrics and tracing. */
    public io.vertx.core.Future<Vertx> newClusteredVertx(VertxOptions options,
                                                         io.vertx.core.spi.cluster.ClusterManager clusterManager) {
        return builder(options).withClusterManager(clusterManager).buildClustered();
    }

    private VertxBuilder builder(VertxOptions options) {
        // epoll on Linux where its native library loads; NIO elsewhere (Vert.x falls back by itself)
        VertxOptions copy = new VertxOptions(options).setPreferNativeTransport(true);
        VertxBuilder builder = Vertx.builder();
        if (registry != null) {
            copy.setMetricsOptions(new MicrometerMetricsOptions()
                    .setEnabled(true)
                    // bound by bindJvmMetrics once the server serves: not on the start path
                    .setJvmMetricsEnabled(false)
                    // no remote/local addresses or raw paths: labels stay few whatever clients send
                    .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.HTTP_ROUTE, Label.POOL_TYPE,
                            Label.POOL_NAME, Label.CLIENT_NAME, Label.NAMESPACE)));
            // Vert.x's meters, but the HTTP servers' per-request ones looked up once, not per request
            builder.withMetrics(new LeanHttpMetricsFactory(new MicrometerMetricsFactory(registry), registry));
        }
        if (sdk != null) {
            copy.setTracingOptions(new OpenTelemetryOptions());
            builder.withTracer(new OpenTelemetryTracingFactory(sdk));
        }
        return builder.with(copy);
    }

    /**
     * Adds the JVM's meters (memory, GC, threads, classes, JIT, CPU, uptime: the binders
     * Vert.x Micrometer binds when asked for JVM metrics) to the registry, once; nothing when
     * metrics are off. Called (on a worker) once the server serves, and by {@link #scrape()}:
     * they are of no use before the first scrape, and binding them (platform MXBeans, GC
     * listeners) is a noticeable part of a start.
     */
    public synchronized void bindJvmMetrics() {
        if (registry == null || jvmBinders != null) {
            return;
        }
        jvmBinders = java.util.List.of(new ClassLoaderMetrics(), new JvmCompilationMetrics(), new JvmGcMetrics(),
                new JvmHeapPressureMetrics(), new JvmInfoMetrics(), new JvmMemoryMetrics(), new JvmThreadMetrics(),
                new ProcessorMetrics(), new UptimeMetrics());
        jvmBinders.forEach(binder -> binder.bindTo(registry));
    }

    /** Flushes spans still buffered (waiting at most a few seconds) and stops the exporters. */
    @Override
    public void close() {
        java.util.List<MeterBinder> bound;
        synchronized (this) {
            bound = jvmBinders;
        }
        if (bound != null) {
            for (MeterBinder binder : bound) {
                if (binder instanceof AutoCloseable) {
                    try {
                        ((AutoCloseable) binder).close();
                    } catch (Exception e) {
                        LOG.debug("closing the JVM meters failed", e);
                    }
                }
            }
        }
        if (sdk != null) {
            CompletableResultCode done = sdk.shutdown().join(10, TimeUnit.SECONDS);
            if (!done.isSuccess()) {
                LOG.warn("some spans could not be exported before shutdown");
            }
        }
        if (registry != null) {
            registry.close();
        }
    }
}
