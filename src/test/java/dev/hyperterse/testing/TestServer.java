package dev.hyperterse.testing;

import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.project.Project;
import dev.hyperterse.server.HyperterseServer;
import dev.hyperterse.server.ServeOptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.UnaryOperator;

/**
 * A {@link RunningServer} for a whole test class: started before its first test from a project
 * written into a scratch folder of its own, stopped (and the folder removed) after its last one.
 * Register it as a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final TestServer server = TestServer.quickstart();
 * static final RawHttp http = server.http();
 * }</pre>
 */
public final class TestServer implements BeforeAllCallback, AfterAllCallback {

    /** Writes (or copies) a project into {@code scratch} and starts a server on it. */
    @FunctionalInterface
    public interface Start {
        RunningServer start(Path scratch) throws Exception;
    }

    private final Start start;
    private final RawHttp http = new RawHttp(this::baseUrl);
    private Path scratch;
    private RunningServer running;

    private TestServer(Start start) {
        this.start = start;
    }

    public static TestServer of(Start start) {
        return new TestServer(start);
    }

    /** The quickstart example, served as it is. */
    public static TestServer quickstart() {
        return of(scratch -> RunningServer.start(RunningServer.copyExample("quickstart", scratch)));
    }

    /** The quickstart example with these settings and options. */
    public static TestServer quickstart(UnaryOperator<ServerSettings.Builder> tweak, ServeOptions options) {
        return of(scratch -> RunningServer.start(RunningServer.copyExample("quickstart", scratch), tweak, options));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        scratch = Files.createTempDirectory("hyperterse-test-server");
        running = start.start(scratch);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (running != null) {
                running.close();
            }
        } finally {
            running = null;
            deleteTree(scratch);
        }
    }

    /** The server; fails when the class's tests have not started it. */
    public RunningServer running() {
        if (running == null) {
            throw new IllegalStateException("the test server runs only while its test class does");
        }
        return running;
    }

    /** Plain HTTP to the server; may be made before the server starts. */
    public RawHttp http() {
        return http;
    }

    public HyperterseServer server() {
        return running().server();
    }

    public int port() {
        return running().port();
    }

    public String baseUrl() {
        return running().baseUrl();
    }

    public String mcpUrl() {
        return running().mcpUrl();
    }

    public Project project() {
        return running().project();
    }

    private static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
