package dev.hyperterse.telemetry;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The text writers are a dependency of their own (the protobuf format is left out of the jar): they
 * must be of the Prometheus client Micrometer's registry is built on, and write the scrape.
 */
class PrometheusTextFormatsTest {

    @Test
    void theTextWritersAreOfTheClientTheRegistryIsBuiltOn() throws IOException {
        assertEquals(version("prometheus-metrics-core"), version("prometheus-metrics-exposition-textformats"),
                "pom.xml's prometheus.version must be the version micrometer-registry-prometheus brings");
    }

    @Test
    void aScrapeIsWrittenWithoutTheProtobufFormat() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.counter("hyperterse_test_calls").increment();
        String text = registry.scrape();
        assertTrue(text.contains("hyperterse_test_calls_total 1.0"), text);
        registry.close();
    }

    private static String version(String artifact) throws IOException {
        String path = "META-INF/maven/io.prometheus/" + artifact + "/pom.properties";
        try (InputStream in = PrometheusTextFormatsTest.class.getClassLoader().getResourceAsStream(path)) {
            assertNotNull(in, path + " is not on the class path");
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }
}
