// In-process latency of `search` for bench/run.sh: compiles a project, builds its search index
// with the project's ranking (as the server does at start-up; for `static`, the tool vectors too,
// their time included in build_ms) and times queries one at a time on one thread, with no HTTP.
// Runs as a single-file program against the fat jar, so it needs no build of its own:
//   java -cp target/hyperterse.jar bench/java/SearchLatency.java PROJECT QUERIES.jsonl [SECONDS]
// QUERIES.jsonl holds search requests (JSON-RPC bodies, one per line), used in turn. The queries
// are warmed up for SECONDS (default 10), then timed for as long again. Prints one line:
//   SEARCH tools=N ranking=R build_ms=N queries=N p50_us=X p99_us=X max_us=X json_p50_us=X json_p99_us=X cpu_us=X
// where json_* also turn the hits into the JSON text the tool answers with, and cpu_us is the
// searching thread's CPU time per search (index only).

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.search.RankFusion;
import dev.hyperterse.search.SearchHit;
import dev.hyperterse.search.SearchIndex;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

public final class SearchLatency {
    public static void main(String[] args) throws Exception {
        Path project = Path.of(args[0]);
        List<String> queries = Files.readAllLines(Path.of(args[1])).stream().filter(l -> !l.isBlank())
                .map(l -> new JsonObject(l).getJsonObject("params").getJsonObject("arguments").getString("query"))
                .toList();
        long seconds = args.length > 2 ? Long.parseLong(args[2]) : 10;

        Connectors connectors = Connectors.builtIn();
        Project compiled = new ProjectCompiler(System.getenv(), connectors.types(), AuthPlugins.builtIn().names())
                .compile(project);
        long buildStart = System.nanoTime();
        SearchIndex index = new SearchIndex(compiled.tools().values(), compiled.config().searchLimit(),
                compiled.config().searchRanking(), RankFusion.DEFAULT);
        if (compiled.config().searchRanking() == dev.hyperterse.model.SearchRanking.STATIC) {
            index.embedToolsStatically(); // as the server does on a worker right after the index
        }
        long buildMs = (System.nanoTime() - buildStart) / 1_000_000;

        run(index, queries, seconds, false, null);
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long[] plain = run(index, queries, seconds, false, new long[1 << 22]);
        // the searching thread's CPU time: on a shared machine, wall-clock figures include the time
        // other processes held the core
        double cpuUs = (threads.getCurrentThreadCpuTime() - cpuStart) / 1000.0 / plain.length;
        long[] json = run(index, queries, seconds, true, new long[1 << 22]);
        System.out.printf("SEARCH tools=%d ranking=%s build_ms=%d queries=%d p50_us=%.1f p99_us=%.1f max_us=%.1f json_p50_us=%.1f"
                        + " json_p99_us=%.1f cpu_us=%.1f%n", compiled.tools().size(), compiled.config().searchRanking().keyword(),
                buildMs, plain.length, percentile(plain, 50), percentile(plain, 99), plain[plain.length - 1] / 1000.0,
                percentile(json, 50), percentile(json, 99), cpuUs);
    }

    /** Queries in turn for the given time; the sorted latencies in ns (null samples: warm-up only). */
    private static long[] run(SearchIndex index, List<String> queries, long seconds, boolean toJson, long[] samples) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int n = 0;
        long sink = 0;
        for (int i = 0; System.nanoTime() < end; i++) {
            String query = queries.get(i % queries.size());
            long start = System.nanoTime();
            List<SearchHit> hits = index.search(query);
            if (toJson) {
                JsonArray out = new JsonArray();
                for (SearchHit hit : hits) {
                    out.add(hit.toJson(true)); // statements shown, the default (tools.search.statements)
                }
                sink += out.encode().length();
            } else {
                sink += hits.size();
            }
            long took = System.nanoTime() - start;
            if (samples != null && n < samples.length) {
                samples[n++] = took;
            }
        }
        if (sink == 42) {
            System.out.print(""); // keeps the work from being optimised away
        }
        if (samples == null) {
            return null;
        }
        long[] taken = Arrays.copyOf(samples, n);
        Arrays.sort(taken);
        return taken;
    }

    private static double percentile(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) ((long) sorted.length * p / 100))] / 1000.0;
    }
}
