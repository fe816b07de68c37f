// Measures whether semantic similarity earns its cost in `search`: ranks bench/search's intents by
// the cosine of all-MiniLM-L6-v2 (quantized, LangChain4j's in-process ONNX artifact) embeddings,
// alone and fused by reciprocal rank with the server's BM25 and hybrid rankings, and times the
// embedding of tools and queries. Not part of the server: bench/search/run.sh --semantic resolves
// the model's dependencies (bench/search/semantic-pom.xml) and runs it as a single-file program:
//   java -cp target/hyperterse.jar:DEPS bench/java/SemanticQuality.java bench/search OUT.md
// Same catalogs, intents and metrics as SearchQuality.java (its mixed catalog is not rebuilt here).

import dev.hyperterse.model.CachePolicy;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.Limits;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.search.RankFusion;
import dev.hyperterse.search.SearchHit;
import dev.hyperterse.search.SearchIndex;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public final class SemanticQuality {

    record Intent(String split, String catalog, Set<String> expected, String text) {}

    static final int DEPTH = 10;
    static final int K = 10;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path out = Path.of(args[1]);
        long loadStart = System.nanoTime();
        EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel();
        double loadMs = (System.nanoTime() - loadStart) / 1e6;

        Map<String, List<ToolDef>> catalogs = new LinkedHashMap<>();
        try (var files = Files.list(dir.resolve("catalogs"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                List<ToolDef> tools = new ArrayList<>();
                for (Object t : new JsonObject(Files.readString(file)).getJsonArray("tools")) {
                    tools.add(tool((JsonObject) t));
                }
                catalogs.put(file.getFileName().toString().replace(".json", ""), tools);
            }
        }
        List<Intent> intents = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("intents.txt"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int sep = line.indexOf(" :: ");
            String[] head = line.substring(0, sep).trim().split("\\s+");
            intents.add(new Intent(head[0], head[1], Set.of(head[2].split(",")), line.substring(sep + 4).trim()));
        }

        // tool vectors, as the server would compute them once per snapshot
        Map<String, float[][]> vectors = new HashMap<>();
        int toolCount = 0;
        long embedStart = System.nanoTime();
        for (var e : catalogs.entrySet()) {
            float[][] v = new float[e.getValue().size()][];
            for (int i = 0; i < v.length; i++) {
                v[i] = model.embed(TextSegment.from(toolText(e.getValue().get(i)))).content().vector();
            }
            toolCount += v.length;
            vectors.put(e.getKey(), v);
        }
        double perToolMs = (System.nanoTime() - embedStart) / 1e6 / toolCount;

        Map<String, SearchIndex> bm25 = new HashMap<>();
        Map<String, SearchIndex> hybrid = new HashMap<>();
        catalogs.forEach((name, tools) -> {
            bm25.put(name, new SearchIndex(tools, 100, SearchRanking.HYBRID, new RankFusion(K, 1, 0)));
            hybrid.put(name, new SearchIndex(tools, 100, SearchRanking.HYBRID, RankFusion.DEFAULT));
        });

        List<String> labels = List.of("semantic alone", "bm25 + semantic", "hybrid + semantic");
        StringBuilder md = new StringBuilder("| catalog | split | intents |");
        labels.forEach(l -> md.append(" ").append(l).append(" top-1 / MRR@10 / recall@10 |"));
        md.append("\n|---|---|---|").append("---|".repeat(labels.size())).append("\n");
        long[] queryNanos = new long[intents.size() * 3];
        int q = 0;
        for (String split : List.of("dev", "heldout")) {
            List<String> rows = new ArrayList<>(catalogs.keySet());
            rows.add("*all*");
            for (String catalog : rows) {
                List<Intent> subset = intents.stream().filter(i -> i.split().equals(split)
                        && (catalog.equals("*all*") || i.catalog().equals(catalog))).toList();
                double[][] sums = new double[labels.size()][3];
                for (Intent intent : subset) {
                    long start = System.nanoTime();
                    float[] query = model.embed(intent.text()).content().vector();
                    if (q < queryNanos.length) {
                        queryNanos[q++] = System.nanoTime() - start;
                    }
                    List<ToolDef> tools = catalogs.get(intent.catalog());
                    List<String> semantic = bySimilarity(tools, vectors.get(intent.catalog()), query);
                    List<String> bm = bm25.get(intent.catalog()).search(intent.text()).stream().map(SearchHit::name).toList();
                    List<String> hy = hybrid.get(intent.catalog()).search(intent.text()).stream().map(SearchHit::name).toList();
                    List<List<String>> ranked = List.of(semantic, fuse(bm, semantic), fuse(hy, semantic));
                    for (int v = 0; v < ranked.size(); v++) {
                        int rank = 0;
                        for (int r = 0; r < Math.min(DEPTH, ranked.get(v).size()); r++) {
                            if (intent.expected().contains(ranked.get(v).get(r))) {
                                rank = r + 1;
                                break;
                            }
                        }
                        sums[v][0] += rank == 1 ? 1 : 0;
                        sums[v][1] += rank == 0 ? 0 : 1.0 / rank;
                        sums[v][2] += rank == 0 ? 0 : 1;
                    }
                }
                md.append("| ").append(catalog.equals("*all*") ? "**all four real catalogs**" : "`" + catalog + "`")
                        .append(" | ").append(split).append(" | ").append(subset.size()).append(" |");
                for (double[] s : sums) {
                    md.append(String.format(" %.2f / %.3f / %.2f |", s[0] / subset.size(), s[1] / subset.size(),
                            s[2] / subset.size()));
                }
                md.append('\n');
            }
        }
        long[] taken = Arrays.copyOf(queryNanos, q);
        Arrays.sort(taken);
        md.append(String.format("%nModel load %.0f ms; tool embedding %.1f ms per tool (%d tools); query embedding"
                        + " p50 %.1f ms, p99 %.1f ms (one thread, after the tools warmed the model up).%n",
                loadMs, perToolMs, toolCount, taken[taken.length / 2] / 1e6, taken[(int) (taken.length * 0.99)] / 1e6));
        Files.writeString(out, md.toString());
        System.out.print(md);
    }

    private static List<String> bySimilarity(List<ToolDef> tools, float[][] vectors, float[] query) {
        Integer[] order = new Integer[tools.size()];
        double[] score = new double[tools.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            double dot = 0;
            for (int d = 0; d < query.length; d++) {
                dot += vectors[i][d] * query[d]; // the model's vectors are normalised
            }
            score[i] = dot;
        }
        Arrays.sort(order, (a, b) -> Double.compare(score[b], score[a]));
        return Arrays.stream(order).limit(100).map(i -> tools.get(i).name()).toList();
    }

    /** Reciprocal rank fusion of two orders, equal weights. */
    private static List<String> fuse(List<String> a, List<String> b) {
        Map<String, Double> fused = new LinkedHashMap<>();
        for (int r = 0; r < a.size(); r++) {
            fused.merge(a.get(r), 1.0 / (K + r + 1), Double::sum);
        }
        for (int r = 0; r < b.size(); r++) {
            fused.merge(b.get(r), 1.0 / (K + r + 1), Double::sum);
        }
        return fused.entrySet().stream().sorted((x, y) -> Double.compare(y.getValue(), x.getValue()))
                .map(Map.Entry::getKey).toList();
    }

    /** What a tool says about itself: its name as words, description, and inputs. */
    private static String toolText(ToolDef tool) {
        StringBuilder text = new StringBuilder(tool.name().replaceAll("[_\\-.]", " ")).append(". ")
                .append(tool.description() == null ? "" : tool.description());
        for (InputDef input : tool.inputs()) {
            text.append(" ").append(input.name()).append(": ").append(input.description() == null ? "" : input.description());
        }
        return text.toString();
    }

    private static ToolDef tool(JsonObject json) {
        String name = json.getString("name");
        List<InputDef> inputs = new ArrayList<>();
        for (Object i : json.getJsonArray("inputs", new JsonArray())) {
            JsonObject input = (JsonObject) i;
            inputs.add(new InputDef(input.getString("name"), InputType.STRING, input.getString("description", ""),
                    input.getBoolean("optional", false), false, null, location(name)));
        }
        String statement = json.getString("statement", "");
        if (!statement.isEmpty()) {
            return new ToolDef(name, name, json.getString("description"), "db", statement, inputs, null, null, null,
                    null, CachePolicy.OFF, List.of(), Limits.DEFAULTS, location(name));
        }
        ScriptRef handler = new ScriptRef(Path.of("app/tools", name, "handler.ts"), "default", location(name));
        return new ToolDef(name, name, json.getString("description"), null, null, inputs, handler, null, null, null,
                CachePolicy.OFF, List.of(), Limits.DEFAULTS, location(name));
    }

    private static SourceLocation location(String name) {
        return new SourceLocation(Path.of("app/tools", name, "config.terse"), 1);
    }
}
