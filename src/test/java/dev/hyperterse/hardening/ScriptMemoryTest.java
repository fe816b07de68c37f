package dev.hyperterse.hardening;

import dev.hyperterse.cli.Main;
import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RawHttp;
import dev.hyperterse.testing.RunningServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handler that fills the heap step by step is stopped, and the server goes on serving: a real
 * server in a JVM of its own with a small heap and {@code -XX:+ExitOnOutOfMemoryError}, as the
 * container image runs it, once with the default collector (G1) and once with the serial one
 * the operations guide recommends for small servers.
 */
class ScriptMemoryTest {
    /** Three ways a script grows memory: an array of strings, one long string, a Map. */
    private static final String LEAK = """
            export default ({ inputs }: { inputs: { how: string } }) => {
              const kept: unknown[] = [];
              let text = "";
              const map = new Map<number, object>();
              for (let i = 0; ; i++) {
                if (inputs.how === "array") kept.push("item " + i + " ".repeat(40));
                else if (inputs.how === "string") text += "more text " + i;
                else map.set(i, { i, label: "entry " + i });
              }
            };
            """;

    /** Makes and drops some 100 MB, a few MB at a time: collections, but nothing kept. */
    private static final String CHURN = """
            export default () => {
              let made = 0;
              for (let round = 0; round < 50; round++) {
                const items: string[] = [];
                for (let i = 0; i < 20000; i++) items.push("item " + i + " of round " + round);
                made += items.length;
              }
              return { made };
            };
            """;

    @TempDir
    Path scratch;

    @Test
    void aScriptThatFillsTheHeapIsStoppedWithG1() throws Exception {
        serveAndLeak(19701, List.of());
    }

    @Test
    void aScriptThatFillsTheHeapIsStoppedWithTheSerialCollector() throws Exception {
        serveAndLeak(19702, List.of("-XX:+UseSerialGC"));
    }

    private void serveAndLeak(int port, List<String> jvmFlags) throws Exception {
        Path project = RunningServer.copyExample("quickstart", scratch);
        RunningServer.writeTool(project, "leak", "description: 'Keeps what it makes'\ntimeout: 60s\n"
                + "inputs:\n  how: { type: string }\n");
        ProjectFiles.write(project, "app/tools/leak/handler.ts", LEAK);
        RunningServer.writeTool(project, "wait", "timeout: 60s\n");
        ProjectFiles.write(project, "app/tools/wait/handler.ts",
                "export default async () => { await new Promise((r) => setTimeout(r, 40000)); return { waited: true }; };\n");
        RunningServer.writeTool(project, "churn", "timeout: 60s\n");
        ProjectFiles.write(project, "app/tools/churn/handler.ts", CHURN);
        RunningServer.writeTool(project, "hello", "inputs:\n  name: { type: string }\n");
        ProjectFiles.write(project, "app/tools/hello/handler.ts",
                "export default ({ inputs }: { inputs: { name: string } }) => ({ greeting: `hello ${inputs.name}` });\n");

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx192m", "-XX:+ExitOnOutOfMemoryError"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "start", project.toString(), "--host", "127.0.0.1", "--port", String.valueOf(port)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("HYPERTERSE_") || k.equals("JAVA_TOOL_OPTIONS"));
        Process server = builder.start();
        StringBuffer output = new StringBuffer();
        Thread reader = drain(server.getInputStream(), output);
        try {
            waitForLine(server, output, "serving '", 90);
            RawHttp http = new RawHttp("http://127.0.0.1:" + port);
            // a call that holds little but runs at the same time is stopped too: there is no telling them apart
            CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return http.errorMessage("wait", new JsonObject());
                } catch (IOException | InterruptedException e) {
                    throw new CompletionException(e);
                }
            });
            Thread.sleep(500);
            for (String how : List.of("array", "string", "map")) {
                String error;
                try {
                    error = http.errorMessage("leak", new JsonObject().put("how", how));
                } catch (IOException e) {
                    throw new AssertionError(how + ": no answer (" + e.getMessage() + ")\n" + output, e);
                }
                assertTrue(error.matches("handler script failed for tool leak: stopped: the server's memory was nearly"
                        + " exhausted \\(\\d+ MB of \\d+ MB in use after a collection\\) while scripts ran"),
                        how + ": " + error + "\n" + output);
                assertTrue(server.isAlive(), how + ": the server ended\n" + output);
                if (how.equals("array")) {
                    // the same event, the same numbers, answered at once rather than when its timer would fire
                    assertEquals(error.replace("tool leak", "tool wait"), waiting.get(5, TimeUnit.SECONDS),
                            output.toString());
                }
                JsonObject hello = http.call("hello", new JsonObject().put("name", how));
                assertTrue(hello.encode().contains("hello " + how), hello.encode() + "\n" + output);
                // what the stopped call held is free: a call that allocates much but keeps little runs to its end
                JsonObject churn = http.call("churn", new JsonObject());
                assertTrue(churn.encode().contains("made"), how + ": " + churn.encode() + "\n" + output);
            }
            HttpResponse<String> heartbeat = http.send("GET", "/heartbeat");
            assertEquals(200, heartbeat.statusCode(), heartbeat.body());
            String metrics = http.send("GET", "/metrics").body();
            assertTrue(metrics.matches("(?s).*hyperterse_script_call_duration_seconds_count\\{[^}]*outcome=\"memory\""
                    + "[^}]*tool=\"leak\"[^}]*} 3(\\.0)?\n.*"), metrics);
            assertTrue(server.isAlive(), output.toString());
            String log = output.toString();
            assertTrue(log.contains("WARN") && log.contains("memory nearly exhausted ("), log);
            assertFalse(log.contains("has been blocked"), log);
            assertFalse(log.contains("OutOfMemoryError"), log);
        } finally {
            server.destroy();
            if (!server.waitFor(20, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(5000);
        }
    }

    private static Thread drain(InputStream in, StringBuffer into) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) != -1; ) {
                    into.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "server-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void waitForLine(Process server, StringBuffer output, String text, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!output.toString().contains(text)) {
            assertTrue(server.isAlive(), "the server ended:\n" + output);
            assertTrue(System.nanoTime() < end, "the server did not start in " + seconds + " s:\n" + output);
            Thread.sleep(100);
        }
    }
}
