package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Not a test: a main for bench/micro.sh. Calls a handler in one context, in-process (no HTTP, no
 * worker hop), in rounds of 1000 calls, and prints the median time per call of the last rounds:
 * the script engine's own cost, interpreted or optimized.
 *
 * <p>args: project folder, script file, payload JSON, rounds
 */
public final class ScriptCallBench {
    private ScriptCallBench() {
    }

    public static void main(String[] args) throws Exception {
        Path project = Path.of(args[0]).toAbsolutePath();
        Path script = Path.of(args[1]).toAbsolutePath();
        JsonObject payload = new JsonObject(args[2]);
        int rounds = Integer.parseInt(args[3]);
        java.util.concurrent.ScheduledExecutorService watchdog = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor();
        try (ScriptEngine engine = ScriptEngine.create()) {
            LoadedScript loaded = new ScriptContexts(engine, project, java.util.List.of(project), null)
                    .load(new ScriptRef(script, "default", null), Map.of(), Duration.ofMinutes(1), watchdog);
            List<Double> perCall = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                long started = System.nanoTime();
                for (int i = 0; i < 1000; i++) {
                    loaded.invoke(payload, System.nanoTime() + 5_000_000_000L, Duration.ofSeconds(5));
                    loaded.endCall();
                }
                perCall.add((System.nanoTime() - started) / 1000.0 / 1000);
            }
            List<Double> last = new ArrayList<>(perCall.subList(rounds / 2, rounds));
            Collections.sort(last);
            System.out.printf("%s %s first-round %.1f us/call, median of the last %d rounds %.1f us/call%n",
                    engine.mode(), project.relativize(script), perCall.get(0), last.size(), last.get(last.size() / 2));
            loaded.close();
        } finally {
            watchdog.shutdownNow();
        }
    }
}
