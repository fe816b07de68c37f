package dev.hyperterse.telemetry;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The server's Vert.x speaks through Netty's native epoll transport on Linux. */
class NativeTransportTest {

    @Test
    @EnabledOnOs(OS.LINUX)
    void theServersVertxUsesEpollOnLinux() throws Exception {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean packaged = arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64");
        Vertx vertx = TelemetrySetup.disabled().newVertx(new VertxOptions());
        try {
            if (packaged) {
                assertTrue(vertx.isNativeTransportEnabled(),
                        "epoll's native library is packaged for " + arch + ": " + vertx.unavailableNativeTransportCause());
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
