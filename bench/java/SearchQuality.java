// Retrieval quality and latency of `search` for bench/search/run.sh, in process (no HTTP).
// Runs as a single-file program against the fat jar, so it needs no build of its own:
//   java -cp target/hyperterse.jar bench/java/SearchQuality.java bench/search OUT.md [SECONDS]
// Reads bench/search/catalogs/*.json (tools as their servers list them) and bench/search/intents.txt
// (labelled intents, split dev / heldout), ranks every intent with each ranking, and writes a
// Markdown report to OUT.md: top-1, MRR@10 and recall@10 per catalog and split, then search latency
// p50/p99 over a 1,000-tool mixed catalog (three real catalogs plus generated tools, fixed seed),
// each query timed alone on one thread after SECONDS (default 5) of warm-up. Misses on the dev
// split are listed in OUT.md's directory as search-dev-misses.txt; held-out misses are never printed.
// Queries about nothing any catalog does (bench/search/unrelated.txt, also split dev / heldout) are
// asked of every catalog: the report says how often each ranking rightly answers with no tool.
// With the embedding models at hand (the add-on target/hyperterse-semantic.jar beside the jar, which the server
// reads from there, or the jars bench/search/semantic-pom.xml resolves) the `semantic` ranking is measured too (the static
// ranking's best tools put in order with the model's cosine read too; with the hand weights or the
// action stage off, the model's ranking fused with the table's); tool vectors are cached in OUT.md's
// directory (vectors/) between runs.
// (The fusion itself was chosen with an ENSEMBLE mode, in this file up to commit dda7d81.)
// DUMP_FEATURES=FILE writes the learned orders' features for bench/search/rerank/train.py (with DUMP_MODEL=1 the
// cosine of each model on the class path too: bench/search/semantic-pom.xml's two, or one where only one is there).
// DUMP_TABLE2=TABLE_FILE puts a static table (its plain mean) in the model's place: with DUMP_MODEL=1 its cosine is the
// dump's last base feature, one more reading of static's order (bench/RESULTS.md: a second table from bge-small-en-v1.5).
// The `static` ranking (the static embedding table in the jar) is measured alone and with its share
// of BM25 in every run. While choosing a configuration: SPLITS=dev ranks the dev intents only (the
// held-out ones are not ranked at all), QUALITY_ONLY=1 skips the latency runs, and
// STATIC_VARIANTS="label=TABLE_FILE:BM25_SHARE,..." adds columns for other tables
// (bench/search/distill/table.py writes them) at other BM25 shares.
// ACTION_WEIGHTS (as for ACTION_MISSES) sets the action stage of the static and semantic columns (else
// the shipped one); TUNE_SETS=1 chooses among action weights (TUNE_SETS_GRID, ;-separated) leave-one-set-out
// over the sets held out whole that have been read, and prints its tables (see tuneSets).
// LATENCY_ONLY=1 times static over the mixed catalog alone (ACTION_WEIGHTS as for ACTION_MISSES),
// and TUNE_ACTIONS=1 chooses the action stage's weights and TUNE_POOLING=1 the static ranking's pooling
// (catalog IDF, query prior, max share, each point with its own floor), both leave-one-catalog-out
// over the nine real catalogs; they print their tables and rank nothing else.
// WRITE_TOKEN_BASIS=FILE learns the map of the models' token vectors onto TOKEN_DIMS (default 64) dimensions that
// the jar ships (src/main/resources/dev/hyperterse/search/token-basis.bin) from the dev catalogs' tools alone
// (bench/search/catalogs/*.json, no set held out whole), writes it to FILE and ranks nothing.

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolAnnotations;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.search.ActionWeights;
import dev.hyperterse.search.RankFusion;
import dev.hyperterse.search.SearchHit;
import dev.hyperterse.search.SearchIndex;
import dev.hyperterse.search.StaticEmbedder;
import dev.hyperterse.search.StaticPooling;
import dev.hyperterse.search.TextEmbedder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

public final class SearchQuality {

    record Intent(String split, String catalog, Set<String> expected, String text) {}

    /** {@code bm25Share}: the semantic ranking's BM25 weight (NaN: the server's default). */
    record Variant(String label, SearchRanking ranking, RankFusion fusion, double bm25Share, TextEmbedder embedder,
                   ActionWeights actions) {
        Variant(String label, SearchRanking ranking, RankFusion fusion) {
            this(label, ranking, fusion, Double.NaN, null, null);
        }

        Variant(String label, SearchRanking ranking, RankFusion fusion, double bm25Share) {
            this(label, ranking, fusion, bm25Share, null, null);
        }

        Variant(String label, SearchRanking ranking, RankFusion fusion, double bm25Share, TextEmbedder embedder) {
            this(label, ranking, fusion, bm25Share, embedder, null);
        }

        /** The same ranking with the action stage as {@code weights} say (the shipped one when null). */
        Variant withActions(String newLabel, ActionWeights weights) {
            return new Variant(newLabel, ranking, fusion, bm25Share, embedder, weights);
        }
    }

    record Scores(int count, double top1, double mrr, double recall) {}

    // DUMP_TABLE2=FILE: a static table (bench/search/distill/train.py's) in the model's place, its plain mean's cosine
    // the "model" cosine a dump adds (DUMP_MODEL=1), to measure a second table as one more reading of static's order
    static final TextEmbedder EMBEDDER = System.getenv("DUMP_TABLE2") != null
            ? asModel(StaticEmbedder.fromFile(Path.of(System.getenv("DUMP_TABLE2")))) : TextEmbedder.bundled().orElse(null);

    /** A static table read as a model: a text's vector is its tokens' plain mean (no catalog weights). */
    static TextEmbedder asModel(StaticEmbedder table) {
        return new TextEmbedder() {
            @Override
            public String model() {
                return table.model();
            }

            @Override
            public float[] embed(String text) {
                return table.embed(text);
            }

            @Override
            public void load() {
                table.load();
            }
        };
    }
    static final List<Variant> VARIANTS = variants();
    static Path vectorCache;
    static final List<String> MIXED_FROM = List.of("toolbox-postgres", "mcp-reference", "hyperterse-docs");
    static final String MIXED = "mixed-1000";
    static final int MIXED_SIZE = 1000;
    static final int DEPTH = 10;

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--cold")) {
            cold(SearchRanking.of(args[1]), Integer.parseInt(args[2]), args.length > 3 ? Path.of(args[3]) : null);
            return;
        }
        Path dir = Path.of(args[0]);
        Path out = Path.of(args[1]);
        vectorCache = out.resolveSibling("vectors");
        long warmSeconds = args.length > 2 ? Long.parseLong(args[2]) : 5;

        Map<String, List<ToolDef>> catalogs = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        try (var files = Files.list(dir.resolve("catalogs"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = file.getFileName().toString().replace(".json", "");
                JsonObject json = new JsonObject(Files.readString(file));
                sources.put(name, json.getString("source"));
                List<ToolDef> tools = catalogTools(json);
                catalogs.put(name, tools);
            }
        }
        if (System.getenv("WRITE_TOKEN_BASIS") != null) {
            // the dev catalogs' tools alone (bench/search/catalogs/*.json): no set held out whole is read
            List<ToolDef> dev = catalogs.values().stream().flatMap(List::stream).toList();
            int dims = Integer.parseInt(System.getenv().getOrDefault("TOKEN_DIMS", "64"));
            System.out.println(SearchIndex.learnTokenBasis(dev, EMBEDDER, dims, Path.of(System.getenv("WRITE_TOKEN_BASIS"))));
            return;
        }
        List<ToolDef> mixed = new ArrayList<>();
        MIXED_FROM.forEach(c -> mixed.addAll(catalogs.get(c)));
        int generatedCount = MIXED_SIZE - mixed.size();
        mixed.addAll(generated(generatedCount, 21));
        catalogs.put(MIXED, mixed);
        sources.put(MIXED, String.join(" + ", MIXED_FROM) + " + " + generatedCount + " generated tools (seed 21)");

        List<Intent> intents = readIntents(dir.resolve("intents.txt"));
        List<Intent> withMixed = new ArrayList<>(intents);
        for (Intent i : intents) {
            if (MIXED_FROM.contains(i.catalog())) {
                withMixed.add(new Intent(i.split(), MIXED, i.expected(), i.text()));
            }
        }

        if (System.getenv("DUMP_FEATURES") != null) {
            dump(dir, Path.of(System.getenv("DUMP_FEATURES")));
            return;
        }
        if (System.getenv("ACTION_MISSES") != null) {
            actionMisses(catalogs, intents, dir);
            return;
        }
        if (System.getenv("LATENCY_ONLY") != null) {
            // static over the mixed catalog, the action stage as ACTION_WEIGHTS says (else the shipped
            // one): the latency table's line and nothing else ranked; LATENCY_ONLY=semantic: semantic's
            // (the model on the class path), its tool vectors from the cache when an earlier run made them
            boolean semantic = System.getenv("LATENCY_ONLY").equals("semantic");
            ActionWeights weights = System.getenv("ACTION_WEIGHTS") == null ? ActionWeights.DEFAULT : actionWeights();
            List<String> queries = intents.stream().map(Intent::text).toList();
            long start = System.nanoTime();
            SearchIndex index = new SearchIndex(mixed, DEPTH, semantic ? SearchRanking.SEMANTIC : SearchRanking.STATIC,
                    RankFusion.DEFAULT);
            index.embedToolsStatically(weights);
            if (semantic) {
                // with ACTION_WEIGHTS, the model's ranking's stage too (the learned order off: the rankings fused)
                SearchIndex.EmbeddedTools done = System.getenv("ACTION_WEIGHTS") == null
                        ? index.embedTools(EMBEDDER, vectorCache) : index.embedTools(EMBEDDER, vectorCache, 0.1, weights);
                if (done.tokenBytes() > 0) {
                    System.out.printf(Locale.ROOT, "token vectors of the %d tools' texts: %.1f MB%n", mixed.size(),
                            done.tokenBytes() / 1e6);
                }
            }
            double buildMs = (System.nanoTime() - start) / 1e6;
            System.out.print(latencyRow((semantic ? "semantic " : "static ") + weights, buildMs, index, queries,
                    warmSeconds));
            return;
        }
        if (System.getenv("TUNE_ACTIONS") != null) {
            tuneActions(catalogs, intents, dir);
            return;
        }
        if (System.getenv("TUNE_SETS") != null) {
            tuneSets(dir);
            return;
        }
        if (System.getenv("TUNE_POOLING") != null) {
            tunePooling(catalogs, intents, dir);
            return;
        }
        StringBuilder md = new StringBuilder();
        StringBuilder misses = new StringBuilder();
        md.append("Catalogs: ");
        sources.forEach((name, source) -> md.append("`").append(name).append("` ")
                .append(catalogs.get(name).size()).append(" tools (").append(source).append("); "));
        md.setLength(md.length() - 2);
        md.append(".\n\nIntents: ").append(intents.size()).append(" (")
                .append(intents.stream().filter(i -> i.split().equals("dev")).count()).append(" dev, ")
                .append(intents.stream().filter(i -> i.split().equals("heldout")).count())
                .append(" held out); `").append(MIXED).append("` asks the intents of the catalogs it holds again.")
                .append(learnedOn().contains("dev") && System.getenv("ACTION_WEIGHTS") == null
                        ? " `static`'s and `semantic`'s figures (`static alone`'s too) are in sample in both splits: both"
                                + " learned orders' weights were learned on all these intents." : "")
                .append("\n\n");
        md.append("| catalog | split | intents |");
        VARIANTS.forEach(v -> md.append(" ").append(v.label()).append(" top-1 / MRR@10 / recall@10 |"));
        md.append("\n|---|---|---|").append("---|".repeat(VARIANTS.size())).append("\n");

        Map<String, Map<Variant, SearchIndex>> indexes = new LinkedHashMap<>();
        for (var e : catalogs.entrySet()) {
            Map<Variant, SearchIndex> byVariant = new LinkedHashMap<>();
            for (Variant v : VARIANTS) {
                byVariant.put(v, index(e.getValue(), v));
            }
            indexes.put(e.getKey(), byVariant);
        }
        List<String> rows = new ArrayList<>(catalogs.keySet());
        // SPLITS=dev while choosing: the held-out intents are not ranked at all
        List<String> splits = System.getenv("SPLITS") == null ? List.of("dev", "heldout")
                : List.of(System.getenv("SPLITS").split(","));
        String only = FRESH_SETS.stream().filter(set -> System.getenv(variable(set, "ONLY")) != null)
                .reduce((first, later) -> later).orElse(null);
        if (only != null) {
            heldOutWhole(md, dir, only);
            Files.writeString(out, md.toString());
            System.out.print(md);
            return;
        }
        if (System.getenv("UNSEEN_ONLY") != null) {
            unseen(md, dir);
            Files.writeString(out, md.toString());
            System.out.print(md);
            return;
        }
        for (String split : splits) {
            for (String catalog : rows) {
                row(md, misses, catalog, split, withMixed.stream()
                        .filter(i -> i.catalog().equals(catalog) && i.split().equals(split)).toList(), indexes);
            }
            row(md, misses, "**all four real catalogs**", split, intents.stream()
                    .filter(i -> i.split().equals(split)).toList(), indexes);
        }

        unseen(md, dir);
        // a set named in sealed.txt has not been read yet: a full run leaves it alone, so it stays
        // held out until a change is measured on it on purpose (its own X_ONLY=1)
        Path sealedFile = dir.resolve("sealed.txt");
        Set<String> sealed = Files.exists(sealedFile) ? Set.copyOf(Files.readAllLines(sealedFile).stream()
                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()) : Set.of();
        for (String set : FRESH_SETS) {
            if (sealed.contains(set)) {
                md.append("\n(`").append(set).append("` is sealed in `bench/search/sealed.txt`: not ranked by a full run.)\n");
            } else {
                heldOutWhole(md, dir, set);
            }
        }

        Path unrelatedFile = dir.resolve("unrelated.txt");
        if (Files.exists(unrelatedFile)) {
            unrelated(md, Files.readAllLines(unrelatedFile), splits, rows, indexes);
        }

        if (System.getenv("QUALITY_ONLY") != null) {
            Files.writeString(out, md.toString());
            Files.writeString(out.resolveSibling("search-dev-misses.txt"), misses.toString());
            System.out.print(md);
            return;
        }
        md.append("\nLatency over `").append(MIXED).append("` (every intent in turn, one thread, in process):\n\n")
                .append("| ranking | index build ms | p50 µs | p99 µs | max µs | CPU p50 µs | CPU p99 µs |"
                        + " process CPU per search µs |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        List<String> queries = intents.stream().map(Intent::text).toList();
        for (Variant v : VARIANTS) {
            if (v.label().endsWith(" alone") && v.ranking() != SearchRanking.HYBRID) {
                continue; // the same work as the fused ranking's
            }
            long start = System.nanoTime();
            SearchIndex index = index(mixed, v);
            double buildMs = (System.nanoTime() - start) / 1e6;
            md.append(latencyRow(v.label(), buildMs, index, queries, warmSeconds));
        }
        md.append("\nCPU p50/p99: the searching thread's CPU time; process CPU per search: the whole JVM's"
                + " (other threads included: ONNX Runtime's, the garbage collector's, the JIT's) over the timed"
                + " searches, divided by their number.");
        if (EMBEDDER != null) {
            md.append(" `semantic`'s index build includes its tool vectors, read from the disk cache when an earlier"
                    + " run computed them.");
        }
        md.append("\n");
        Files.writeString(out, md.toString());
        Files.writeString(out.resolveSibling("search-dev-misses.txt"), misses.toString());
        System.out.print(md);
    }

    /**
     * The catalogs held out whole (catalogs/unseen/, intents-unseen.txt): no ranking, weight or
     * table was chosen while looking at them. Per ranking: top-1, MRR@10, recall@5 and recall@10 per
     * catalog and over all of them, and how many top-1 misses are a sibling action: the first hit
     * is the right tool's object with another action ({@link #siblings}). With an examples file per
     * catalog (examples/unseen/CATALOG.txt: TOOL :: an intent its author expects), each ranking is
     * measured again with those examples indexed with their tools, as a separate column.
     */
    private static void unseen(StringBuilder md, Path dir) throws Exception {
        heldOutWhole(md, dir, "unseen");
    }

    private static void dump(Path dir, Path out) throws Exception {
        Path sealedFile = dir.resolve("sealed.txt");
        Set<String> sealed = Set.copyOf(Files.readAllLines(sealedFile).stream()
                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList());
        List<String> sets = new ArrayList<>(List.of("dev", "unseen"));
        FRESH_SETS.stream().filter(x -> !sealed.contains(x) || System.getenv("DUMP_SEALED") != null).forEach(sets::add);
        // written as they come: the features with the vectors run to a hundred megabytes
        try (var features = Files.newBufferedWriter(out);
             var queries = Files.newBufferedWriter(Path.of(out + ".q"));
             var verbCosines = Files.newBufferedWriter(Path.of(out + ".verbs"))) {
            Files.writeString(Path.of(out + ".table"), StaticEmbedder.bundled().model() + "\n");
            // DUMP_MODEL: the models whose cosines each row adds, of the tool's whole text and of each part of it
            // (the semantic ranking's order learns from them), from a semantic index over each catalog
            boolean model = System.getenv("DUMP_MODEL") != null;
            Path modelFile = Path.of(out + ".model");
            if (model) {
                if (EMBEDDER == null) {
                    throw new IllegalStateException("DUMP_MODEL needs the model on the class path (bench/search/semantic-pom.xml)");
                }
                Files.writeString(modelFile, String.join("\n", EMBEDDER.models()) + "\n");
                Files.writeString(Path.of(out + ".texts"), String.join("\n", SearchIndex.learnedOrderTexts()) + "\n");
                Files.writeString(Path.of(out + ".tokens"), String.join("\n", SearchIndex.learnedOrderTokenTexts()) + "\n");
                // the map the token vectors were read through (train.py writes it into the weights)
                String basis = SearchIndex.learnedOrderTokenBasis(EMBEDDER);
                if (basis != null) {
                    Files.writeString(Path.of(out + ".basis"), basis + "\n");
                } else {
                    Files.deleteIfExists(Path.of(out + ".basis"));
                }
            } else {
                Files.deleteIfExists(modelFile);
                Files.deleteIfExists(Path.of(out + ".texts"));
                Files.deleteIfExists(Path.of(out + ".tokens"));
                Files.deleteIfExists(Path.of(out + ".basis"));
            }
            // the words tools' names start with (once words half a catalog's names carry are left out), in
            // any catalog's names: every list of verbs train.py may choose is among them
            Map<String, Integer> starts = new java.util.TreeMap<>();
            for (String set : sets) {
                Path catalogDir = set.equals("dev") ? dir.resolve("catalogs") : dir.resolve("catalogs/" + set);
                try (var files = Files.list(catalogDir)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                        SearchIndex.nameStarts(catalogTools(new JsonObject(Files.readString(file))))
                                .forEach(w -> starts.merge(w, 1, Integer::sum));
                    }
                }
            }
            String[] verbs = starts.entrySet().stream().map(Map.Entry::getKey)
                    .toArray(String[]::new);
            verbCosines.append("words\t").append(String.join("\t", verbs)).append('\n');
            int qid = 0;
            for (String set : sets) {
                Path catalogDir = set.equals("dev") ? dir.resolve("catalogs") : dir.resolve("catalogs/" + set);
                List<Intent> intents = readIntents(dir.resolve(set.equals("dev") ? "intents.txt" : "intents-" + set + ".txt"));
                try (var files = Files.list(catalogDir)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                        String name = file.getFileName().toString().replace(".json", "");
                        List<ToolDef> tools = catalogTools(new JsonObject(Files.readString(file)));
                        SearchIndex index = new SearchIndex(tools, DEPTH,
                                model ? SearchRanking.SEMANTIC : SearchRanking.STATIC, RankFusion.DEFAULT);
                        index.embedToolsStatically();
                        if (model) {
                            index.embedToolsForLearning(EMBEDDER, vectorCache);
                        }
                        // DUMP_EXAMPLES: the authors' examples of this catalog's tools (examples/SET/CATALOG.txt) too,
                        // as requests of their own kind: train.py (EXAMPLES=1) may learn from a set's examples when it
                        // does not score that set
                        List<Intent> requests = new ArrayList<>(intents.stream().filter(i -> i.catalog().equals(name)).toList());
                        int intentCount = requests.size();
                        Path examples = dir.resolve("examples/" + set + "/" + name + ".txt");
                        if (System.getenv("DUMP_EXAMPLES") != null && Files.exists(examples)) {
                            requests.addAll(exampleRequests(name, examples));
                        }
                        for (int r = 0; r < requests.size(); r++) {
                            Intent i = requests.get(r);
                            qid++;
                            for (String row : index.learnedOrderFeatures(i.text()).split("\n")) {
                                if (!row.isEmpty()) {
                                    features.append(Integer.toString(qid)).append('\t').append(row).append('\n');
                                }
                            }
                            double[] cosines = index.learnedOrderVerbCosines(i.text(), verbs);
                            if (cosines != null) {
                                verbCosines.append(Integer.toString(qid));
                                for (double c : cosines) {
                                    verbCosines.append('\t').append(Float.toString((float) c));
                                }
                                verbCosines.append('\n');
                            }
                            queries.append(Integer.toString(qid)).append('\t').append(set).append('\t').append(name)
                                    .append(r < intentCount ? "\tintent\t" : "\texample\t")
                                    .append(String.join(",", new java.util.TreeSet<>(i.expected()))).append('\t').append(i.split()).append('\t')
                                    .append(i.text()).append('\n');
                        }
                    }
                }
            }
        }
    }

    /**
     * What a held-out set's heading says: held out from every choice until it was read, but the
     * learned order (static's and semantic's, but for their rows with the hand weights or no action
     * stage) is learned on every read set's intents.
     */
    private static final String IN_SAMPLE = " (static's and semantic's rows are in sample, except those with the hand"
            + " weights or the action stage off: the learned orders' weights were learned on these intents too;"
            + " their figures with each set held out in turn come from bench/search/rerank/run.sh)";
    private static final String HELD_OUT = " (the learned order's weights were not learned on these intents)";
    /** The heading's note for a set static's weights were learned on and semantic's were not. */
    private static final String STATIC_IN_SAMPLE = " (static's rows are in sample, except those with the hand weights or"
            + " the action stage off: its learned order's weights were learned on these intents too; semantic's"
            + " were not)";
    /** The heading's note for a set semantic's weights were learned on and static's were not. */
    private static final String SEMANTIC_IN_SAMPLE = " (semantic's row is in sample: its learned order's weights were"
            + " learned on these intents too, its figure with each set held out in turn comes from"
            + " bench/search/rerank/run.sh --semantic; static's weights were not)";

    /** The sets whose requests the jar's static learned-order weights were learned from, as their header names them. */
    private static Set<String> learnedOn() throws IOException {
        return learnedOn("learned-order.tsv");
    }

    /** The sets whose requests the jar's weights {@code resource} were learned from, as their header names them. */
    private static Set<String> learnedOn(String resource) throws IOException {
        try (var in = SearchIndex.class.getResourceAsStream(resource)) {
            if (in == null) {
                return Set.of();
            }
            var reader = new java.io.BufferedReader(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null && line.startsWith("#"); ) {
                int at = line.indexOf("these sets: ");
                if (at >= 0) {
                    String list = line.substring(at + "these sets: ".length());
                    int end = list.indexOf(" (");
                    return Set.of((end < 0 ? list : list.substring(0, end)).split(", "));
                }
            }
            return Set.of();
        }
    }

    /** The sets of fresh catalogs held out whole, in the order they were made. */
    static final List<String> FRESH_SETS = List.of("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21", "fresh22", "fresh23", "fresh24", "fresh25", "fresh26", "fresh27", "fresh28");
    /** How each set is named in its heading, by its place in {@link #FRESH_SETS}: the unseen set is the first. */
    private static final List<String> ORDINALS = List.of("second", "third", "fourth", "fifth", "sixth", "seventh",
            "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth", "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth");

    /** The environment variable {@code SET_SUFFIX} for a set ({@code fresh4}, {@code MISSES}: FRESH4_MISSES). */
    private static String variable(String set, String suffix) {
        return set.toUpperCase(java.util.Locale.ROOT) + "_" + suffix;
    }

    /**
     * A set of catalogs held out whole: {@code unseen} (catalogs/unseen/, intents-unseen.txt, examples/unseen/)
     * or one of {@link #FRESH_SETS}, in the same layout by its name ({@code fresh8}: catalogs/fresh8/,
     * intents-fresh8.txt, examples/fresh8/), each held out from every choice, the action stage's included, its
     * intents and examples committed before any ranking ran on them. For the fresh sets, {@code static} and
     * {@code semantic} are also ranked with the action stage off, beside the shipped rankings.
     */
    private static void heldOutWhole(StringBuilder md, Path dir, String set) throws Exception {
        Path catalogDir = dir.resolve("catalogs/" + set);
        Path intentsFile = dir.resolve("intents-" + set + ".txt");
        if (!Files.isDirectory(catalogDir) || !Files.exists(intentsFile)) {
            return;
        }
        Map<String, List<ToolDef>> catalogs = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        Map<String, List<ToolDef>> withExamples = new LinkedHashMap<>();
        try (var files = Files.list(catalogDir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = file.getFileName().toString().replace(".json", "");
                JsonObject json = new JsonObject(Files.readString(file));
                sources.put(name, json.getString("source"));
                List<ToolDef> tools = catalogTools(json);
                catalogs.put(name, tools);
                Path examples = dir.resolve("examples/" + set + "/" + name + ".txt");
                if (Files.exists(examples)) {
                    withExamples.put(name, withExamples(tools, examples));
                }
            }
        }
        List<Intent> intents = readIntents(intentsFile);
        boolean fresh = set.startsWith("fresh");
        int ordinal = FRESH_SETS.indexOf(set);
        boolean bySemantic = learnedOn("learned-order-semantic.tsv").contains(set);
        String sample = !learnedOn().contains(set) ? (bySemantic ? SEMANTIC_IN_SAMPLE : HELD_OUT)
                : bySemantic ? IN_SAMPLE : STATIC_IN_SAMPLE;
        md.append(ordinal > 0
                ? "\n### " + ("aeiou".indexOf(ORDINALS.get(ordinal).charAt(0)) >= 0 ? "An " : "A ")
                        + ORDINALS.get(ordinal) + " set held out whole, " + set
                        + sample + "\n\nCatalogs: "
                : fresh
                ? "\n### Fresh catalogs held out whole" + sample + "\n\nCatalogs: "
                : "\n### Catalogs held out whole (unseen)" + sample + "\n\nCatalogs: ");
        sources.forEach((name, source) -> md.append("`").append(name).append("` ")
                .append(catalogs.get(name).size()).append(" tools (").append(source).append("); "));
        md.setLength(md.length() - 2);
        md.append(".\n\nIntents: ").append(intents.size()).append(", written and committed before any ranking ran"
                + " on them (`intents-" + set + ".txt`). A sibling miss: the first hit is not right, and it names the"
                + " right tool's object with another action (name words shared and differing, once words that"
                + " half the catalog's names carry, such as `browser` or `kubectl`, are left out).\n\n");
        List<Variant> variants = new ArrayList<>(VARIANTS);
        variants.removeIf(v -> v.label().endsWith(" alone") && v.ranking() != SearchRanking.HYBRID);
        if (fresh) {
            for (Variant v : List.copyOf(variants)) {
                if (v.label().equals("static") || v.label().equals("semantic")) {
                    variants.add(variants.indexOf(v), v.withActions(v.label() + ", action stage off", ActionWeights.OFF));
                }
            }
        }
        // the hand weights in place of the learned order, beside the shipped rankings
        for (Variant v : List.copyOf(variants)) {
            if (v.label().equals("static") || v.label().equals("semantic")) {
                variants.add(variants.indexOf(v) + 1, v.withActions(v.label() + ", hand weights", ActionWeights.HAND));
            }
        }
        md.append("| ranking | intents | top-1 | MRR@10 | recall@5 | recall@10 | top-1 misses | of them sibling actions |");
        if (!withExamples.isEmpty()) {
            md.append(" with the authors' examples: top-1 / MRR@10 / recall@5 / recall@10 / sibling misses |");
        }
        md.append("\n|---|---|---|---|---|---|---|---|").append(withExamples.isEmpty() ? "" : "---|").append('\n');
        StringBuilder perCatalog = new StringBuilder("\nPer catalog (top-1 / MRR@10 / recall@5 / recall@10 / sibling"
                + " misses of top-1 misses):\n\n| ranking |");
        catalogs.keySet().forEach(c -> perCatalog.append(" `").append(c).append("` |"));
        perCatalog.append("\n|---|").append("---|".repeat(catalogs.size())).append('\n');
        StringBuilder missLines = new StringBuilder();
        for (Variant v : variants) {
            Map<String, SearchIndex> indexes = new LinkedHashMap<>();
            catalogs.forEach((name, tools) -> indexes.put(name, index(tools, v)));
            UnseenScores all = unseenScores(intents, indexes, catalogs, v.label(), missLines);
            md.append(String.format("| %s | %d | %.2f | %.3f | %.2f | %.2f | %d | %d |", v.label(), all.count,
                    all.top1 / all.count, all.mrr / all.count, all.recall5 / all.count, all.recall10 / all.count,
                    all.misses, all.siblingMisses));
            if (!withExamples.isEmpty()) {
                Map<String, SearchIndex> exampleIndexes = new LinkedHashMap<>();
                withExamples.forEach((name, tools) -> exampleIndexes.put(name, index(tools, v)));
                List<Intent> covered = intents.stream().filter(i -> withExamples.containsKey(i.catalog())).toList();
                UnseenScores ex = unseenScores(covered, exampleIndexes, withExamples, null, null);
                md.append(String.format(" %.2f / %.3f / %.2f / %.2f / %d of %d |", ex.top1 / ex.count,
                        ex.mrr / ex.count, ex.recall5 / ex.count, ex.recall10 / ex.count, ex.siblingMisses,
                        ex.misses));
            }
            md.append('\n');
            perCatalog.append("| ").append(v.label()).append(" |");
            for (String catalog : catalogs.keySet()) {
                UnseenScores s = unseenScores(intents.stream().filter(i -> i.catalog().equals(catalog)).toList(),
                        indexes, catalogs, null, null);
                perCatalog.append(String.format(" %.2f / %.3f / %.2f / %.2f / %d of %d |", s.top1 / s.count,
                        s.mrr / s.count, s.recall5 / s.count, s.recall10 / s.count, s.siblingMisses, s.misses));
            }
            perCatalog.append('\n');
        }
        md.append(perCatalog);
        String missesFile = System.getenv(variable(set, "MISSES"));
        if (missesFile != null) {
            Files.writeString(Path.of(missesFile), missLines.toString());
        }
    }

    static final class UnseenScores {
        int count, misses, siblingMisses;
        double top1, mrr, recall5, recall10;
    }

    /** The place (1..DEPTH) of the first right tool among {@code hits}; 0 when none of the first DEPTH is right. */
    static int rank(Intent intent, List<SearchHit> hits) {
        for (int r = 0; r < hits.size() && r < DEPTH; r++) {
            if (intent.expected().contains(hits.get(r).name())) {
                return r + 1;
            }
        }
        return 0;
    }

    private static UnseenScores unseenScores(List<Intent> intents, Map<String, SearchIndex> indexes,
                                             Map<String, List<ToolDef>> catalogs, String label, StringBuilder missLines) {
        UnseenScores s = new UnseenScores();
        for (Intent intent : intents) {
            List<SearchHit> hits = indexes.get(intent.catalog()).search(intent.text());
            int rank = rank(intent, hits);
            s.count++;
            s.top1 += rank == 1 ? 1 : 0;
            s.mrr += rank == 0 ? 0 : 1.0 / rank;
            s.recall5 += rank >= 1 && rank <= 5 ? 1 : 0;
            s.recall10 += rank == 0 ? 0 : 1;
            if (rank != 1) {
                s.misses++;
                boolean sibling = !hits.isEmpty() && intent.expected().stream()
                        .anyMatch(e -> siblings(e, hits.get(0).name(), catalogs.get(intent.catalog())));
                s.siblingMisses += sibling ? 1 : 0;
                if (missLines != null) {
                    missLines.append(label).append(" | ").append(intent.catalog()).append(" | ").append(intent.text())
                            .append(" | want ").append(intent.expected()).append(" at ").append(rank == 0 ? "-" : rank)
                            .append(sibling ? " | sibling" : " | other").append(" | got ")
                            .append(hits.stream().limit(3).map(SearchHit::name).toList()).append('\n');
                }
            }
        }
        return s;
    }

    /**
     * Whether two tool names are the same object with another action: their words (split at
     * {@code _ - .} and case changes, lower case, a plural s dropped, words of two letters or fewer
     * and words that half the catalog's names carry left out) overlap and differ.
     */
    static boolean siblings(String a, String b, List<ToolDef> catalog) {
        if (a.equals(b)) {
            return false;
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (ToolDef t : catalog) {
            for (String w : nameWords(t.name())) {
                counts.merge(w, 1, Integer::sum);
            }
        }
        java.util.function.Predicate<String> common = w -> counts.getOrDefault(w, 0) * 2 >= catalog.size();
        Set<String> wa = new java.util.HashSet<>(nameWords(a));
        Set<String> wb = new java.util.HashSet<>(nameWords(b));
        wa.removeIf(common);
        wb.removeIf(common);
        Set<String> shared = new java.util.HashSet<>(wa);
        shared.retainAll(wb);
        return !shared.isEmpty() && !wa.equals(wb);
    }

    private static Set<String> nameWords(String name) {
        Set<String> words = new java.util.LinkedHashSet<>();
        for (String w : name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT)
                .split("[^a-z0-9]+")) {
            if (w.length() <= 2) {
                continue;
            }
            words.add(w.endsWith("s") && w.length() > 3 && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w);
        }
        return words;
    }

    /**
     * The intents of a file, a line each: {@code SPLIT CATALOG TOOL[,TOOL…] :: what the agent
     * asks}; blank lines and {@code #} comments are skipped.
     */
    private static List<Intent> readIntents(Path file) throws IOException {
        List<Intent> intents = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int sep = line.indexOf(" :: ");
            String[] head = line.substring(0, sep).trim().split("\\s+");
            intents.add(new Intent(head[0], head[1], Set.of(head[2].split(",")), line.substring(sep + 4).trim()));
        }
        return intents;
    }

    /** The tools of a catalog file's JSON. */
    private static List<ToolDef> catalogTools(JsonObject json) {
        List<ToolDef> tools = new ArrayList<>();
        for (Object t : json.getJsonArray("tools")) {
            tools.add(tool((JsonObject) t));
        }
        return tools;
    }

    /** Every real catalog by name: the tuning ones (not the mixed one), then those held out whole. */
    private static Map<String, List<ToolDef>> realCatalogs(Map<String, List<ToolDef>> catalogs, Path dir)
            throws IOException {
        Map<String, List<ToolDef>> all = new LinkedHashMap<>(catalogs);
        all.remove(MIXED);
        try (var files = Files.list(dir.resolve("catalogs/unseen"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                all.put(file.getFileName().toString().replace(".json", ""),
                        catalogTools(new JsonObject(Files.readString(file))));
            }
        }
        return all;
    }

    /**
     * The examples of {@code file}, in its order: lines {@code TOOL :: intent} ({@code #} comments and
     * blank lines skipped), each as {tool, intent}.
     */
    private static List<String[]> examples(Path file) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int sep = line.indexOf(" :: ");
            if (sep < 0) {
                throw new IOException(file + ": \"" + line + "\" is no TOOL :: intent line");
            }
            out.add(new String[] {line.substring(0, sep).trim(), line.substring(sep + 4).trim()});
        }
        return out;
    }

    /** The examples of {@code file} as requests for their tools. */
    private static List<Intent> exampleRequests(String catalog, Path file) throws IOException {
        return examples(file).stream().map(e -> new Intent("example", catalog, Set.of(e[0]), e[1])).toList();
    }

    /** The tools with the examples of {@code file} added to them. */
    private static List<ToolDef> withExamples(List<ToolDef> tools, Path file) throws Exception {
        Map<String, List<String>> byTool = new LinkedHashMap<>();
        for (String[] e : examples(file)) {
            byTool.computeIfAbsent(e[0], k -> new ArrayList<>()).add(e[1]);
        }
        List<ToolDef> out = new ArrayList<>();
        for (ToolDef t : tools) {
            out.add(withExamples(t, byTool.getOrDefault(t.name(), List.of())));
        }
        return out;
    }

    /**
     * ACTION_WEIGHTS: mood,verb,number,few,margin,siblings or mood,verb,number,object,few,margin,siblings
     * (verbs by their own vectors), or those seven and toolSynonyms,phraseSynonyms, or those nine and
     * reach (unset: the action stage off).
     */
    private static ActionWeights actionWeights() {
        return actionWeights(System.getenv().getOrDefault("ACTION_WEIGHTS", "0,0,0,0,0,false"));
    }

    /** Weights written as ACTION_WEIGHTS is. */
    private static ActionWeights actionWeights(String spec) {
        String[] w = spec.split(",");
        int o = w.length >= 7 ? 1 : 0;
        return new ActionWeights(Double.parseDouble(w[0]), Double.parseDouble(w[1]),
                Double.parseDouble(w[2]), o == 1 ? Double.parseDouble(w[3]) : 0, Integer.parseInt(w[3 + o]),
                Double.parseDouble(w[4 + o]), Boolean.parseBoolean(w[5 + o]),
                w.length >= 9 ? Double.parseDouble(w[7]) : 0, w.length >= 9 ? Double.parseDouble(w[8]) : 0,
                w.length == 10 ? Integer.parseInt(w[9]) : 0);
    }

    /**
     * ACTION_MISSES=1: every top-1 miss of {@code static} (the action stage as ACTION_WEIGHTS says,
     * {@code mood,verb,number,few,margin,siblings}; else off) over the nine real catalogs, with the
     * first three hits and their scores.
     */
    private static void actionMisses(Map<String, List<ToolDef>> catalogs, List<Intent> intents, Path dir)
            throws Exception {
        Map<String, List<ToolDef>> all = realCatalogs(catalogs, dir);
        List<Intent> everyIntent = new ArrayList<>(intents);
        everyIntent.addAll(readIntents(dir.resolve("intents-unseen.txt")));
        ActionWeights weights = actionWeights();
        boolean semantic = "semantic".equals(System.getenv("ACTION_RANKING"));
        Set<String> unseen = new java.util.HashSet<>(all.keySet());
        unseen.removeAll(catalogs.keySet());
        // top-1, reciprocal rank, recall@5, recall@10, count, top-1 misses, sibling misses: unseen, all nine
        double[][] sums = new double[2][7];
        StringBuilder summary = new StringBuilder();
        for (var e : all.entrySet()) {
            SearchIndex index;
            if (semantic) {
                index = new SearchIndex(e.getValue(), DEPTH, SearchRanking.SEMANTIC, RankFusion.DEFAULT);
                // the semantic ranking's own BM25 share (SemanticRanking.DEFAULT_BM25_WEIGHT)
                index.embedTools(EMBEDDER, vectorCache, 0.1, weights);
            } else {
                index = new SearchIndex(e.getValue(), DEPTH, SearchRanking.STATIC, RankFusion.DEFAULT);
                index.embedToolsStatically(weights);
            }
            double[] f = new double[7];
            for (Intent intent : everyIntent) {
                if (!intent.catalog().equals(e.getKey())) {
                    continue;
                }
                List<SearchHit> hits = index.search(intent.text());
                int rank = rank(intent, hits);
                f[0] += rank == 1 ? 1 : 0;
                f[1] += rank == 0 ? 0 : 1.0 / rank;
                f[2] += rank >= 1 && rank <= 5 ? 1 : 0;
                f[3] += rank == 0 ? 0 : 1;
                f[4]++;
                if (rank == 1) {
                    continue;
                }
                f[5]++;
                boolean sibling = !hits.isEmpty() && intent.expected().stream()
                        .anyMatch(x -> siblings(x, hits.get(0).name(), e.getValue()));
                f[6] += sibling ? 1 : 0;
                StringBuilder top = new StringBuilder();
                for (int r = 0; r < Math.min(3, hits.size()); r++) {
                    top.append(String.format(" %s %.3f;", hits.get(r).name(), hits.get(r).rawScore()));
                }
                System.out.printf("%s | %s | want %s at %d | %s |%s%n", e.getKey(), sibling ? "SIB" : "oth",
                        intent.expected(), rank, intent.text(), top);
            }
            for (int i = 0; i < 7; i++) {
                sums[1][i] += f[i];
                sums[0][i] += unseen.contains(e.getKey()) ? f[i] : 0;
            }
            summary.append(String.format("| `%s` | %.2f / %.3f / %.2f / %.2f / %.0f of %.0f |%n", e.getKey(), f[0] / f[4],
                    f[1] / f[4], f[2] / f[4], f[3] / f[4], f[6], f[5]));
        }
        for (int k = 0; k < 2; k++) {
            double[] f = sums[k];
            summary.append(String.format("| **%s** | %.2f / %.3f / %.2f / %.2f / %.0f of %.0f |%n", k == 0 ? "unseen" : "all nine",
                    f[0] / f[4], f[1] / f[4], f[2] / f[4], f[3] / f[4], f[6], f[5]));
        }
        System.out.printf("%n%s %s%n%s", semantic ? "semantic" : "static", weights, summary);
    }

    /**
     * TUNE_SETS=1: {@code static} with each of the action weights TUNE_SETS_GRID lists (separated
     * by {@code ;}, each written as ACTION_WEIGHTS is) over the read sets held out whole (TUNE_SETS_SETS,
     * comma-separated; default unseen and every fresh set not in sealed.txt): MRR@10 per set and
     * pooled per point, then leave-one-set-out: for each set, the point that ranks the other sets'
     * intents best (pooled MRR@10; the first point, the baseline, unless another beats it), applied
     * to it. Each intent's rank per point goes to TUNE_SETS_RANKS when set.
     */
    private static void tuneSets(Path dir) throws Exception {
        List<String> specs = List.of(System.getenv("TUNE_SETS_GRID").split(";"));
        Path sealedFile = dir.resolve("sealed.txt");
        Set<String> sealed = Files.exists(sealedFile) ? Set.copyOf(Files.readAllLines(sealedFile).stream()
                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()) : Set.of();
        List<String> sets = new ArrayList<>();
        if (System.getenv("TUNE_SETS_SETS") != null) {
            sets.addAll(List.of(System.getenv("TUNE_SETS_SETS").split(",")));
        } else {
            sets.add("unseen");
            FRESH_SETS.stream().filter(s -> !sealed.contains(s)).forEach(sets::add);
        }
        // per set, per point: sum of reciprocal ranks, top-1, recall@10; and the count
        double[][][] sums = new double[sets.size()][specs.size()][3];
        int[] counts = new int[sets.size()];
        StringBuilder ranks = new StringBuilder();
        for (int s = 0; s < sets.size(); s++) {
            String set = sets.get(s);
            Map<String, List<ToolDef>> catalogs = new LinkedHashMap<>();
            try (var files = Files.list(dir.resolve("catalogs/" + set))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    catalogs.put(file.getFileName().toString().replace(".json", ""),
                            catalogTools(new JsonObject(Files.readString(file))));
                }
            }
            List<Intent> intents = readIntents(dir.resolve("intents-" + set + ".txt"));
            counts[s] = intents.size();
            for (int p = 0; p < specs.size(); p++) {
                ActionWeights weights = actionWeights(specs.get(p));
                Map<String, SearchIndex> indexes = new LinkedHashMap<>();
                for (var e : catalogs.entrySet()) {
                    SearchIndex index = new SearchIndex(e.getValue(), DEPTH, SearchRanking.STATIC, RankFusion.DEFAULT);
                    index.embedToolsStatically(weights);
                    indexes.put(e.getKey(), index);
                }
                for (int i = 0; i < intents.size(); i++) {
                    Intent intent = intents.get(i);
                    List<SearchHit> hits = indexes.get(intent.catalog()).search(intent.text());
                    int rank = rank(intent, hits);
                    sums[s][p][0] += rank == 0 ? 0 : 1.0 / rank;
                    sums[s][p][1] += rank == 1 ? 1 : 0;
                    sums[s][p][2] += rank == 0 ? 0 : 1;
                    ranks.append(p).append('\t').append(set).append('\t').append(i).append('\t').append(rank)
                            .append('\t').append(intent.text()).append('\t')
                            .append(String.join(",", intent.expected())).append('\t')
                            .append(String.join(",", hits.stream().limit(DEPTH).map(SearchHit::name).toList()))
                            .append('\n');
                }
            }
            System.err.println("tune-sets: " + set + " ranked");
        }
        if (System.getenv("TUNE_SETS_RANKS") != null) {
            Files.writeString(Path.of(System.getenv("TUNE_SETS_RANKS")), ranks.toString());
        }
        int total = java.util.Arrays.stream(counts).sum();
        StringBuilder out = new StringBuilder("| point | weights |");
        sets.forEach(set -> out.append(' ').append(set).append(" |"));
        out.append(" pooled MRR@10 / top-1 / recall@10 |\n");
        for (int p = 0; p < specs.size(); p++) {
            out.append("| ").append(p).append(" | ").append(specs.get(p)).append(" |");
            double[] pooled = new double[3];
            for (int s = 0; s < sets.size(); s++) {
                out.append(String.format(" %.4f |", sums[s][p][0] / counts[s]));
                for (int k = 0; k < 3; k++) {
                    pooled[k] += sums[s][p][k];
                }
            }
            out.append(String.format(" %.4f / %.3f / %.3f |%n", pooled[0] / total, pooled[1] / total, pooled[2] / total));
        }
        out.append("\nLeave one set out (each set: the point best on the others' pooled MRR@10, point 0 unless beaten):\n\n"
                + "| held out | chosen | MRR@10 at point 0 | at the chosen point | change |\n");
        double before = 0;
        double after = 0;
        for (int s = 0; s < sets.size(); s++) {
            final int held = s;
            List<Integer> points = new ArrayList<>();
            for (int p = 1; p < specs.size(); p++) {
                points.add(p);
            }
            int chosen = chosen(0, points, p -> {
                double sum = 0;
                for (int o = 0; o < sets.size(); o++) {
                    sum += o == held ? 0 : sums[o][p][0];
                }
                return sum;
            });
            before += sums[s][0][0];
            after += sums[s][chosen][0];
            out.append(String.format("| %s | %d | %.4f | %.4f | %+.4f |%n", sets.get(s), chosen,
                    sums[s][0][0] / counts[s], sums[s][chosen][0] / counts[s],
                    (sums[s][chosen][0] - sums[s][0][0]) / counts[s]));
        }
        out.append(String.format("| **pooled** | | %.4f | %.4f | %+.4f |%n", before / total, after / total,
                (after - before) / total));
        System.out.print(out);
    }

    /**
     * TUNE_ACTIONS=1: the action stage's weights ({@link ActionWeights}: mood, verb cosine, number, few, margin,
     * siblings only) on a grid fixed before any run, chosen leave-one-catalog-out: for each real
     * catalog (the four tuning ones and the ones held out whole), the grid point that ranks the
     * other eight catalogs' intents best (MRR@10 over their intents), applied to it. Done for the
     * whole grid and for each reading alone (a sub-grid). Prints each catalog's choice and figures
     * (sibling misses of top-1 misses by {@link #siblings}), the unseen catalogs' and all nine's
     * totals so measured with a paired bootstrap interval of the MRR@10 difference, and the points
     * chosen on every catalog and on the four tuning catalogs only.
     */
    private static void tuneActions(Map<String, List<ToolDef>> catalogs, List<Intent> intents, Path dir)
            throws Exception {
        Map<String, List<ToolDef>> all = realCatalogs(catalogs, dir);
        List<Intent> everyIntent = new ArrayList<>(intents);
        everyIntent.addAll(readIntents(dir.resolve("intents-unseen.txt")));
        // the grid, fixed before the first run: the object reading's weight beside the shipped
        // readings (number, a wash before, left out)
        List<ActionWeights> grid = new ArrayList<>();
        grid.add(ActionWeights.OFF);
        for (boolean siblings : new boolean[] {true, false}) {
            for (int few : new int[] {5, 10}) {
                for (double margin : new double[] {0.2, 1}) {
                    for (double mood : new double[] {0, 0.05, 0.1, 0.2}) {
                        for (double verb : new double[] {0, 0.2, 0.4, 0.6}) {
                            for (double object : new double[] {0, 0.05, 0.1, 0.2, 0.4}) {
                                if (mood > 0 || verb > 0 || object > 0) {
                                    grid.add(new ActionWeights(mood, verb, 0, object, few, margin, siblings));
                                }
                            }
                        }
                    }
                }
            }
        }
        // the shipped hand weights, against which each choice is compared
        ActionWeights shipped = ActionWeights.HAND;
        if (!grid.contains(shipped)) {
            grid.add(shipped);
        }
        Map<String, List<Intent>> intentsOf = new LinkedHashMap<>();
        for (String c : all.keySet()) {
            intentsOf.put(c, everyIntent.stream().filter(i -> i.catalog().equals(c)).toList());
        }
        // per grid point, per catalog, per intent: the right tool's rank (0: not in the ten), and
        // whether a top-1 miss is a sibling action
        Map<ActionWeights, Map<String, int[]>> ranks = new LinkedHashMap<>();
        Map<ActionWeights, Map<String, boolean[]>> siblingOf = new LinkedHashMap<>();
        for (ActionWeights w : grid) {
            Map<String, int[]> byCatalog = new LinkedHashMap<>();
            Map<String, boolean[]> sibByCatalog = new LinkedHashMap<>();
            for (var e : all.entrySet()) {
                SearchIndex index = new SearchIndex(e.getValue(), DEPTH, SearchRanking.STATIC, RankFusion.DEFAULT);
                index.embedToolsStatically(w);
                List<Intent> list = intentsOf.get(e.getKey());
                int[] r = new int[list.size()];
                boolean[] sib = new boolean[list.size()];
                for (int k = 0; k < list.size(); k++) {
                    Intent intent = list.get(k);
                    List<SearchHit> hits = index.search(intent.text());
                    for (int h = 0; h < hits.size() && h < DEPTH; h++) {
                        if (intent.expected().contains(hits.get(h).name())) {
                            r[k] = h + 1;
                            break;
                        }
                    }
                    sib[k] = r[k] != 1 && !hits.isEmpty() && intent.expected().stream()
                            .anyMatch(x -> siblings(x, hits.get(0).name(), e.getValue()));
                }
                byCatalog.put(e.getKey(), r);
                sibByCatalog.put(e.getKey(), sib);
            }
            ranks.put(w, byCatalog);
            siblingOf.put(w, sibByCatalog);
        }
        // top-1, reciprocal rank, recall@5, recall@10, count, top-1 misses, sibling misses
        java.util.function.BiFunction<ActionWeights, String, double[]> figures = (w, c) -> {
            double[] f = new double[7];
            int[] r = ranks.get(w).get(c);
            boolean[] sib = siblingOf.get(w).get(c);
            for (int k = 0; k < r.length; k++) {
                f[0] += r[k] == 1 ? 1 : 0;
                f[1] += r[k] == 0 ? 0 : 1.0 / r[k];
                f[2] += r[k] >= 1 && r[k] <= 5 ? 1 : 0;
                f[3] += r[k] == 0 ? 0 : 1;
                f[4]++;
                f[5] += r[k] == 1 ? 0 : 1;
                f[6] += sib[k] ? 1 : 0;
            }
            return f;
        };
        java.util.function.BiFunction<ActionWeights, java.util.function.Predicate<String>, Double> mrrOver =
                (w, take) -> {
                    double rr = 0, n = 0;
                    for (String c : all.keySet()) {
                        if (take.test(c)) {
                            double[] f = figures.apply(w, c);
                            rr += f[1];
                            n += f[4];
                        }
                    }
                    return rr / n;
                };
        Set<String> unseen = new java.util.HashSet<>(all.keySet());
        unseen.removeAll(catalogs.keySet());
        Map<String, java.util.function.Predicate<ActionWeights>> subGrids = new LinkedHashMap<>();
        // first: each later sub-grid's choices are also compared with its choices (the same protocol
        // without the object reading)
        subGrids.put("no object (the shipped readings, chosen again)", w -> w.object() == 0);
        subGrids.put("the whole grid", w -> true);
        subGrids.put("object alone", w -> w.mood() == 0 && w.verb() == 0);
        subGrids.put("the shipped point plus object", w -> w.mood() == shipped.mood() && w.verb() == shipped.verb()
                && w.few() == shipped.few() && w.margin() == shipped.margin() && w.siblings() == shipped.siblings());
        subGrids.put("with object (object above 0)", w -> w.object() > 0);
        subGrids.put("the first five", w -> w.few() == 5);
        subGrids.put("siblings of the first hit only", w -> w.siblings());
        java.util.function.Function<double[], String> fmt = f -> String.format("%.2f / %.3f / %.2f / %.2f / %.0f of %.0f",
                f[0] / f[4], f[1] / f[4], f[2] / f[4], f[3] / f[4], f[6], f[5]);
        // per catalog, the right tools' ranks under the first sub-grid's choice for it
        Map<String, int[]> noObjectChoice = new LinkedHashMap<>();
        for (var sub : subGrids.entrySet()) {
            List<ActionWeights> points = grid.stream().filter(w -> w.equals(ActionWeights.OFF) || sub.getValue().test(w)).toList();
            java.util.function.Function<java.util.function.Predicate<String>, ActionWeights> best =
                    take -> chosen(ActionWeights.OFF, points, w -> mrrOver.apply(w, take));
            System.out.printf("%n### %s (%d points)%n%n", sub.getKey(), points.size() - 1);
            System.out.println("| catalog | chosen on the other eight (mood / verb / object / few / margin / siblings only) | off: top-1 / MRR@10"
                    + " / recall@5 / recall@10 / sibling misses | shipped | with it |");
            System.out.println("|---|---|---|---|---|");
            double[] unseenShip = new double[7], allShip = new double[7];
            List<double[]> unseenVsShip = new ArrayList<>();
            List<double[]> allVsShip = new ArrayList<>();
            List<double[]> unseenVsNoObject = new ArrayList<>();
            List<double[]> allVsNoObject = new ArrayList<>();
            double[] unseenOff = new double[7], unseenOn = new double[7], allOff = new double[7], allOn = new double[7];
            List<double[]> unseenPairs = new ArrayList<>();
            List<double[]> allPairs = new ArrayList<>();
            for (String c : all.keySet()) {
                ActionWeights w = best.apply(k -> !k.equals(c));
                double[] off = figures.apply(ActionWeights.OFF, c);
                double[] on = figures.apply(w, c);
                double[] ship = figures.apply(shipped, c);
                System.out.printf("| `%s`%s | %s | %s | %s | %s |%n", c, unseen.contains(c) ? " (unseen)" : "",
                        w.equals(ActionWeights.OFF) ? "off" : String.format("%.2f / %.2f / %.2f / %d / %.2f / %s", w.mood(), w.verb(),
                                w.object(), w.few(), w.margin(), w.siblings()), fmt.apply(off), fmt.apply(ship), fmt.apply(on));
                int[] rOff = ranks.get(ActionWeights.OFF).get(c);
                int[] rShip = ranks.get(shipped).get(c);
                int[] rOn = ranks.get(w).get(c);
                noObjectChoice.putIfAbsent(c, rOn);
                int[] rNoObject = noObjectChoice.get(c);
                for (int k = 0; k < rOff.length; k++) {
                    double[] pair = {rOff[k] == 0 ? 0 : 1.0 / rOff[k], rOn[k] == 0 ? 0 : 1.0 / rOn[k]};
                    double[] vsShip = {rShip[k] == 0 ? 0 : 1.0 / rShip[k], rOn[k] == 0 ? 0 : 1.0 / rOn[k]};
                    allPairs.add(pair);
                    allVsShip.add(vsShip);
                    double[] vsNoObject = {rNoObject[k] == 0 ? 0 : 1.0 / rNoObject[k], pair[1]};
                    allVsNoObject.add(vsNoObject);
                    if (unseen.contains(c)) {
                        unseenPairs.add(pair);
                        unseenVsShip.add(vsShip);
                        unseenVsNoObject.add(vsNoObject);
                    }
                }
                for (int i = 0; i < 7; i++) {
                    allOff[i] += off[i];
                    allOn[i] += on[i];
                    allShip[i] += ship[i];
                    if (unseen.contains(c)) {
                        unseenOff[i] += off[i];
                        unseenOn[i] += on[i];
                        unseenShip[i] += ship[i];
                    }
                }
            }
            System.out.printf("| **unseen catalogs** | (each its own choice) | %s | %s | %s |%n", fmt.apply(unseenOff),
                    fmt.apply(unseenShip), fmt.apply(unseenOn));
            System.out.printf("| **all nine** | (each its own choice) | %s | %s | %s |%n", fmt.apply(allOff),
                    fmt.apply(allShip), fmt.apply(allOn));
            for (var pairs : List.of(Map.entry("unseen", unseenPairs), Map.entry("all nine", allPairs),
                    Map.entry("unseen, against the shipped point", unseenVsShip),
                    Map.entry("all nine, against the shipped point", allVsShip),
                    Map.entry("unseen, against the choices without the object", unseenVsNoObject),
                    Map.entry("all nine, against the choices without the object", allVsNoObject))) {
                Random random = new Random(34);
                double[] diffs = new double[2000];
                double mean = 0;
                for (double[] x : pairs.getValue()) {
                    mean += x[1] - x[0];
                }
                for (int b = 0; b < diffs.length; b++) {
                    double d = 0;
                    for (int k = 0; k < pairs.getValue().size(); k++) {
                        double[] x = pairs.getValue().get(random.nextInt(pairs.getValue().size()));
                        d += x[1] - x[0];
                    }
                    diffs[b] = d / pairs.getValue().size();
                }
                Arrays.sort(diffs);
                System.out.printf("%n%s: MRR@10 difference (against off unless said) %+.3f (paired bootstrap 95 %% interval %+.3f .. %+.3f,"
                        + " %d intents)", pairs.getKey(), mean / pairs.getValue().size(), diffs[(int) (diffs.length * 0.025)],
                        diffs[(int) (diffs.length * 0.975)], pairs.getValue().size());
            }
            ActionWeights onAll = best.apply(k -> true);
            ActionWeights onTuning = best.apply(k -> !unseen.contains(k));
            double[] tuningOnUnseen = new double[7];
            for (String c : unseen) {
                double[] f = figures.apply(onTuning, c);
                for (int i = 0; i < 7; i++) {
                    tuningOnUnseen[i] += f[i];
                }
            }
            System.out.printf("%nchosen on every catalog: %s (MRR@10 over all nine %.3f against %.3f off); on the four"
                    + " tuning catalogs only: %s, on the unseen catalogs %s%n", onAll, mrrOver.apply(onAll, k -> true),
                    mrrOver.apply(ActionWeights.OFF, k -> true), onTuning, fmt.apply(tuningOnUnseen));
        }
    }

    /**
     * TUNE_POOLING=1: the static ranking's pooling ({@link StaticPooling}: IDF blends in tool and
     * query vectors, its constant, the weight of a query token no tool has, the query's
     * vocabulary-rank prior, the max-pooled share) on a grid fixed before any run, chosen
     * leave-one-catalog-out as {@link #tuneActions} does: for each of the nine real catalogs, the
     * grid point that ranks the other eight catalogs' intents best (MRR@10 over their intents),
     * applied to it. Done for the whole grid and for each idea alone (a sub-grid). Prints each
     * catalog's choice and figures, the unseen catalogs' total so measured (with a paired
     * bootstrap interval of the MRR@10 difference), the four tuning catalogs' held-out split
     * under the point chosen on every catalog, and the points chosen on every catalog and on the
     * four tuning catalogs only.
     */
    private static void tunePooling(Map<String, List<ToolDef>> catalogs, List<Intent> intents, Path dir)
            throws Exception {
        Map<String, List<ToolDef>> all = realCatalogs(catalogs, dir);
        List<Intent> everyIntent = new ArrayList<>(intents);
        everyIntent.addAll(readIntents(dir.resolve("intents-unseen.txt")));
        // the grid, fixed before the first run
        List<StaticPooling> grid = new ArrayList<>();
        double[] blends = {0, 0.25, 0.5, 0.75, 1};
        for (double toolIdf : blends) {
            for (double queryIdf : blends) {
                boolean idf = toolIdf > 0 || queryIdf > 0;
                for (double c : idf ? new double[] {0.5, 1, 2} : new double[] {1}) {
                    for (boolean unseenAtMean : queryIdf > 0 ? new boolean[] {false, true} : new boolean[] {false}) {
                        for (double prior : new double[] {0, 1e-4, 3e-5, 1e-5}) {
                            for (double maxShare : new double[] {0, 0.25, 0.5}) {
                                grid.add(new StaticPooling(toolIdf, queryIdf, c, unseenAtMean, prior, maxShare, 0));
                            }
                        }
                    }
                }
            }
        }
        System.err.println(grid.size() + " grid points");
        Map<String, SearchIndex> indexes = new LinkedHashMap<>();
        all.forEach((name, tools) -> indexes.put(name, new SearchIndex(tools, DEPTH, SearchRanking.STATIC,
                RankFusion.DEFAULT)));
        Map<String, List<Intent>> intentsOf = new LinkedHashMap<>();
        for (Intent i : everyIntent) {
            intentsOf.computeIfAbsent(i.catalog(), k -> new ArrayList<>()).add(i);
        }
        // per grid point (each with its own floor, below), per catalog, per intent (in intentsOf's
        // order): the rank of the right tool (0: not in the top ten) and whether a top-1 miss is a
        // sibling action
        Map<StaticPooling, Map<String, int[]>> ranks = new LinkedHashMap<>();
        Map<StaticPooling, Map<String, boolean[]>> siblingOf = new LinkedHashMap<>();
        List<StaticPooling> floored = new ArrayList<>();
        long started = System.nanoTime();
        for (StaticPooling p : grid) {
            Map<String, int[]> byCatalog = new LinkedHashMap<>();
            Map<String, boolean[]> sibByCatalog = new LinkedHashMap<>();
            Map<String, double[]> rightScores = new LinkedHashMap<>();
            Map<String, double[]> topScores = new LinkedHashMap<>();
            for (var e : indexes.entrySet()) {
                SearchIndex index = e.getValue();
                index.embedToolsStatically(ActionWeights.OFF, p);
                List<Intent> list = intentsOf.get(e.getKey());
                int[] r = new int[list.size()];
                boolean[] sib = new boolean[list.size()];
                double[] right = new double[list.size()];
                double[] top = new double[list.size()];
                for (int k = 0; k < list.size(); k++) {
                    Intent intent = list.get(k);
                    List<SearchHit> hits = index.search(intent.text());
                    for (int h = 0; h < hits.size() && h < DEPTH; h++) {
                        if (intent.expected().contains(hits.get(h).name())) {
                            r[k] = h + 1;
                            right[k] = hits.get(h).rawScore();
                            break;
                        }
                    }
                    top[k] = hits.isEmpty() ? 0 : hits.get(0).rawScore();
                    sib[k] = r[k] != 1 && !hits.isEmpty() && intent.expected().stream()
                            .anyMatch(x -> siblings(x, hits.get(0).name(), all.get(e.getKey())));
                }
                byCatalog.put(e.getKey(), r);
                sibByCatalog.put(e.getKey(), sib);
                rightScores.put(e.getKey(), right);
                topScores.put(e.getKey(), top);
            }
            // the point's floor, by the rule that chose the first one: the highest (in steps of 0.01
            // from 0.13) that keeps every dev intent's right tool in its top ten
            double lowest = 1;
            for (String c : catalogs.keySet()) {
                if (!intentsOf.containsKey(c)) {
                    continue;
                }
                List<Intent> list = intentsOf.get(c);
                for (int k = 0; k < list.size(); k++) {
                    if (list.get(k).split().equals("dev") && byCatalog.get(c)[k] > 0) {
                        lowest = Math.min(lowest, rightScores.get(c)[k]);
                    }
                }
            }
            double floor = 0.13;
            while (floor + 0.01 <= lowest + 1e-9 && floor < 0.5) {
                floor = Math.round((floor + 0.01) * 100) / 100.0;
            }
            for (String c : byCatalog.keySet()) {
                int[] r = byCatalog.get(c);
                boolean[] sib = sibByCatalog.get(c);
                for (int k = 0; k < r.length; k++) {
                    if (r[k] > 0 && rightScores.get(c)[k] < floor) {
                        r[k] = 0;
                    }
                    if (topScores.get(c)[k] < floor) {
                        sib[k] = false; // no hit at all
                    }
                }
            }
            StaticPooling withFloor = p.withMinScore(floor);
            floored.add(withFloor);
            ranks.put(withFloor, byCatalog);
            siblingOf.put(withFloor, sibByCatalog);
        }
        grid = floored;
        System.err.printf("grid ranked in %.0f s%n", (System.nanoTime() - started) / 1e9);
        StaticPooling off = grid.get(0);
        System.out.println("off (the mean alone) with its floor by the rule: " + describe(off));
        Set<String> unseen = new java.util.LinkedHashSet<>(all.keySet());
        unseen.removeAll(catalogs.keySet());
        java.util.function.BiFunction<StaticPooling, java.util.function.Predicate<String>, Double> mrrOver = (p, take) -> {
            double rr = 0, n = 0;
            for (var e : ranks.get(p).entrySet()) {
                if (take.test(e.getKey())) {
                    for (int r : e.getValue()) {
                        rr += r == 0 ? 0 : 1.0 / r;
                        n++;
                    }
                }
            }
            return rr / n;
        };
        java.util.function.Function<int[], double[]> figures = r -> {
            double[] f = new double[5];
            for (int x : r) {
                f[0] += x == 1 ? 1 : 0;
                f[1] += x == 0 ? 0 : 1.0 / x;
                f[2] += x >= 1 && x <= 5 ? 1 : 0;
                f[3] += x == 0 ? 0 : 1;
                f[4]++;
            }
            return f;
        };
        Map<String, java.util.function.Predicate<StaticPooling>> ideas = new LinkedHashMap<>();
        ideas.put("the whole grid", p -> true);
        ideas.put("IDF alone (no prior, no max)", p -> p.queryPrior() == 0 && p.maxShare() == 0);
        ideas.put("IDF in tools and query alike, unseen at 1, c = 1", p -> p.toolIdf() == p.queryIdf()
                && !p.unseenAtMean() && p.idfConstant() == 1 && p.queryPrior() == 0 && p.maxShare() == 0);
        ideas.put("the query's rank prior alone", p -> p.toolIdf() == 0 && p.queryIdf() == 0 && p.maxShare() == 0);
        ideas.put("max pooling share alone", p -> p.toolIdf() == 0 && p.queryIdf() == 0 && p.queryPrior() == 0);
        ideas.put("IDF and the rank prior (no max)", p -> p.maxShare() == 0);
        for (var idea : ideas.entrySet()) {
            List<StaticPooling> sub = grid.stream().filter(idea.getValue()).toList();
            java.util.function.Function<java.util.function.Predicate<String>, StaticPooling> best =
                    take -> chosen(off, sub, p -> mrrOver.apply(p, take));
            System.out.printf("%n#### %s (%d points)%n%n", idea.getKey(), sub.size());
            System.out.println("| catalog | chosen on the other eight (tool IDF / query IDF / c / unseen / prior / max / floor) |"
                    + " off: top-1 / MRR@10 / recall@5 / recall@10 / sibling misses | with it |");
            System.out.println("|---|---|---|---|");
            double[] unseenOff = new double[7];
            double[] unseenOn = new double[7];
            List<double[]> pairs = new ArrayList<>();
            for (String c : all.keySet()) {
                StaticPooling p = best.apply(k -> !k.equals(c));
                int[] rOff = ranks.get(off).get(c);
                int[] rOn = ranks.get(p).get(c);
                double[] fOff = figures.apply(rOff);
                double[] fOn = figures.apply(rOn);
                int sOff = 0, sOn = 0, mOff = 0, mOn = 0;
                for (int k = 0; k < rOff.length; k++) {
                    sOff += siblingOf.get(off).get(c)[k] ? 1 : 0;
                    sOn += siblingOf.get(p).get(c)[k] ? 1 : 0;
                    mOff += rOff[k] != 1 ? 1 : 0;
                    mOn += rOn[k] != 1 ? 1 : 0;
                }
                System.out.printf("| `%s`%s | %s | %.2f / %.3f / %.2f / %.2f / %d of %d | %.2f / %.3f / %.2f / %.2f / %d of %d |%n",
                        c, unseen.contains(c) ? " (unseen)" : "", describe(p), fOff[0] / fOff[4], fOff[1] / fOff[4],
                        fOff[2] / fOff[4], fOff[3] / fOff[4], sOff, mOff, fOn[0] / fOn[4], fOn[1] / fOn[4],
                        fOn[2] / fOn[4], fOn[3] / fOn[4], sOn, mOn);
                if (unseen.contains(c)) {
                    for (int i = 0; i < 5; i++) {
                        unseenOff[i] += fOff[i];
                        unseenOn[i] += fOn[i];
                    }
                    unseenOff[5] += mOff;
                    unseenOff[6] += sOff;
                    unseenOn[5] += mOn;
                    unseenOn[6] += sOn;
                    for (int k = 0; k < rOff.length; k++) {
                        pairs.add(new double[] {rOff[k] == 0 ? 0 : 1.0 / rOff[k], rOn[k] == 0 ? 0 : 1.0 / rOn[k]});
                    }
                }
            }
            System.out.printf("| **unseen catalogs** | (each its own choice) | %.2f / %.3f / %.2f / %.2f / %.0f of %.0f |"
                            + " %.2f / %.3f / %.2f / %.2f / %.0f of %.0f |%n",
                    unseenOff[0] / unseenOff[4], unseenOff[1] / unseenOff[4], unseenOff[2] / unseenOff[4],
                    unseenOff[3] / unseenOff[4], unseenOff[6], unseenOff[5], unseenOn[0] / unseenOn[4],
                    unseenOn[1] / unseenOn[4], unseenOn[2] / unseenOn[4], unseenOn[3] / unseenOn[4], unseenOn[6],
                    unseenOn[5]);
            // paired bootstrap over the unseen intents: the MRR@10 difference's 95 % interval
            Random random = new Random(34);
            double[] diffs = new double[2000];
            for (int b = 0; b < diffs.length; b++) {
                double d = 0;
                for (int k = 0; k < pairs.size(); k++) {
                    double[] x = pairs.get(random.nextInt(pairs.size()));
                    d += x[1] - x[0];
                }
                diffs[b] = d / pairs.size();
            }
            Arrays.sort(diffs);
            StaticPooling onAll = best.apply(k -> true);
            StaticPooling onTuning = best.apply(k -> !unseen.contains(k));
            double[] tuningChoiceOnUnseen = new double[5];
            for (String c : unseen) {
                double[] f = figures.apply(ranks.get(onTuning).get(c));
                for (int i = 0; i < 5; i++) {
                    tuningChoiceOnUnseen[i] += f[i];
                }
            }
            // the same-catalog split: the four tuning catalogs' held-out intents, off and with the point
            // chosen on every catalog
            double[] heldOff = new double[5];
            double[] heldOn = new double[5];
            for (String c : catalogs.keySet()) {
                if (!all.containsKey(c)) {
                    continue;
                }
                List<Intent> list = intentsOf.get(c);
                for (int k = 0; k < list.size(); k++) {
                    if (!list.get(k).split().equals("heldout")) {
                        continue;
                    }
                    double[] a = figures.apply(new int[] {ranks.get(off).get(c)[k]});
                    double[] b = figures.apply(new int[] {ranks.get(onAll).get(c)[k]});
                    for (int i = 0; i < 5; i++) {
                        heldOff[i] += a[i];
                        heldOn[i] += b[i];
                    }
                }
            }
            System.out.printf("%nunseen MRR@10 difference, leave-one-catalog-out choices against off: %+.3f (paired"
                    + " bootstrap 95 %% interval %+.3f .. %+.3f, %d intents)%n", (unseenOn[1] - unseenOff[1]) / unseenOn[4],
                    diffs[(int) (diffs.length * 0.025)], diffs[(int) (diffs.length * 0.975)], pairs.size());
            System.out.printf("chosen on every catalog: %s (MRR@10 over all nine %.3f against %.3f off)%n", describe(onAll),
                    mrrOver.apply(onAll, k -> true), mrrOver.apply(off, k -> true));
            System.out.printf("chosen on the four tuning catalogs only: %s; on the unseen catalogs: %.2f / %.3f / %.2f / %.2f%n",
                    describe(onTuning), tuningChoiceOnUnseen[0] / tuningChoiceOnUnseen[4],
                    tuningChoiceOnUnseen[1] / tuningChoiceOnUnseen[4], tuningChoiceOnUnseen[2] / tuningChoiceOnUnseen[4],
                    tuningChoiceOnUnseen[3] / tuningChoiceOnUnseen[4]);
            System.out.printf("same-catalog held-out intents (the four tuning catalogs, %.0f): off %.2f / %.3f / %.2f / %.2f,"
                            + " with the point chosen on every catalog %.2f / %.3f / %.2f / %.2f%n", heldOff[4],
                    heldOff[0] / heldOff[4], heldOff[1] / heldOff[4], heldOff[2] / heldOff[4], heldOff[3] / heldOff[4],
                    heldOn[0] / heldOn[4], heldOn[1] / heldOn[4], heldOn[2] / heldOn[4], heldOn[3] / heldOn[4]);
        }
    }

    private static String describe(StaticPooling p) {
        return String.format("%.2f / %.2f / %s / %s / %s / %.2f / %.2f", p.toolIdf(), p.queryIdf(),
                p.toolIdf() > 0 || p.queryIdf() > 0 ? String.valueOf(p.idfConstant()) : "–",
                p.queryIdf() > 0 ? (p.unseenAtMean() ? "mean" : "1") : "–",
                p.queryPrior() == 0 ? "0" : String.valueOf(p.queryPrior()), p.maxShare(), p.minScore());
    }

    private static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>(List.of(
                new Variant("hyperterse", SearchRanking.HYPERTERSE, RankFusion.DEFAULT),
                new Variant("bm25 alone", SearchRanking.HYBRID, new RankFusion(RankFusion.DEFAULT.k(), 1, 0)),
                new Variant("hybrid", SearchRanking.HYBRID, RankFusion.DEFAULT),
                new Variant("static alone", SearchRanking.STATIC, RankFusion.DEFAULT, 0, StaticEmbedder.bundled()),
                new Variant("static", SearchRanking.STATIC, RankFusion.DEFAULT)));
        if (EMBEDDER != null) {
            variants.add(new Variant("semantic", SearchRanking.SEMANTIC, RankFusion.DEFAULT));
        }
        // ACTION_WEIGHTS (as for ACTION_MISSES): static and semantic rank with that action stage instead
        // of the shipped one, so one jar ranks as main did and as a candidate does
        if (System.getenv("ACTION_WEIGHTS") != null) {
            ActionWeights weights = actionWeights();
            variants.replaceAll(v -> v.label().equals("static") || v.label().equals("semantic")
                    ? v.withActions(v.label(), weights) : v);
        }
        // exploration: STATIC_VARIANTS="label=table-file:bm25-share,..." ranks with static tables from files
        String extra = System.getenv("STATIC_VARIANTS");
        if (extra != null && !extra.isBlank()) {
            Map<String, TextEmbedder> tables = new LinkedHashMap<>();
            for (String spec : extra.split(",")) {
                String label = spec.substring(0, spec.indexOf('='));
                String file = spec.substring(spec.indexOf('=') + 1, spec.lastIndexOf(':'));
                double share = Double.parseDouble(spec.substring(spec.lastIndexOf(':') + 1));
                TextEmbedder table = tables.computeIfAbsent(file, f -> StaticEmbedder.fromFile(Path.of(f)));
                variants.add(new Variant(label, SearchRanking.SEMANTIC, RankFusion.DEFAULT, share, table));
            }
        }
        return variants;
    }

    /** The variant's index over the tools, its tool vectors ready (index build time includes them). */
    private static SearchIndex index(List<ToolDef> tools, Variant v) {
        SearchIndex index = new SearchIndex(tools, DEPTH, v.ranking(), v.fusion());
        if (v.actions() != null && v.embedder() == null && v.ranking() == SearchRanking.STATIC) {
            index.embedToolsStatically(v.actions());
        } else if (v.actions() != null && v.embedder() == null && v.ranking() == SearchRanking.SEMANTIC) {
            index.embedTools(EMBEDDER, vectorCache, Double.isNaN(v.bm25Share()) ? 0.1 : v.bm25Share(), v.actions());
        } else if (v.embedder() != null) {
            index.embedTools(v.embedder(), null, v.bm25Share());
        } else if (v.ranking() == SearchRanking.STATIC) {
            index.embedToolsStatically();
        } else if (v.ranking() == SearchRanking.SEMANTIC) {
            if (Double.isNaN(v.bm25Share())) {
                index.embedTools(EMBEDDER, vectorCache);
            } else {
                index.embedTools(EMBEDDER, vectorCache, v.bm25Share());
            }
        }
        return index;
    }

    /**
     * Start-up cost in a fresh JVM: loading the ranking's classes, indexing {@code count} generated
     * tools and answering one query, as a server does before its first search; for
     * {@code semantic}, then loading the model and computing the tool vectors (cached in
     * {@code vectors}) and answering by meaning. Prints one line.
     */
    private static void cold(SearchRanking ranking, int count, Path vectors) {
        List<ToolDef> tools = generated(count, 21);
        long start = System.nanoTime();
        SearchIndex index = new SearchIndex(tools, DEPTH, ranking, RankFusion.DEFAULT);
        double buildMs = (System.nanoTime() - start) / 1e6;
        long queryStart = System.nanoTime();
        int hits = index.search("which invoices are overdue for a customer").size();
        double queryMs = (System.nanoTime() - queryStart) / 1e6;
        String semantic = "";
        if (ranking == SearchRanking.SEMANTIC) {
            // as the server readies it: the static table's vectors first, which rank until the model's are ready
            long tableStart = System.nanoTime();
            index.embedToolsStatically();
            double tableMs = (System.nanoTime() - tableStart) / 1e6;
            long byTableStart = System.nanoTime();
            index.search("which invoices are overdue for a customer");
            double byTableMs = (System.nanoTime() - byTableStart) / 1e6;
            long embedStart = System.nanoTime();
            SearchIndex.EmbeddedTools done = index.embedTools(EMBEDDER, vectors);
            double vectorsMs = (System.nanoTime() - embedStart) / 1e6;
            long meaningStart = System.nanoTime();
            index.search("which invoices are overdue for a customer");
            semantic = String.format(" table_ms=%.0f first_table_query_ms=%.1f vectors_ms=%.0f embedded=%d"
                    + " first_semantic_query_ms=%.1f", tableMs, byTableMs, vectorsMs, done.embedded(),
                    (System.nanoTime() - meaningStart) / 1e6);
        } else if (ranking == SearchRanking.STATIC) {
            long embedStart = System.nanoTime();
            index.embedToolsStatically();
            double vectorsMs = (System.nanoTime() - embedStart) / 1e6;
            long meaningStart = System.nanoTime();
            index.search("which invoices are overdue for a customer");
            semantic = String.format(" vectors_ms=%.0f first_semantic_query_ms=%.1f", vectorsMs,
                    (System.nanoTime() - meaningStart) / 1e6);
        }
        System.out.printf("COLD %s tools=%d build_ms=%.0f first_query_ms=%.1f hits=%d%s%n", ranking.keyword(), count,
                buildMs, queryMs, hits, semantic);
    }

    private static void row(StringBuilder md, StringBuilder misses, String catalog, String split, List<Intent> intents,
                            Map<String, Map<Variant, SearchIndex>> indexes) {
        if (intents.isEmpty()) {
            return;
        }
        md.append("| ").append(catalog.startsWith("*") ? catalog : "`" + catalog + "`").append(" | ").append(split)
                .append(" | ").append(intents.size()).append(" |");
        for (Variant v : VARIANTS) {
            double top1 = 0, mrr = 0, recall = 0;
            for (Intent intent : intents) {
                List<SearchHit> hits = indexes.get(intent.catalog()).get(v).search(intent.text());
                int rank = rank(intent, hits);
                top1 += rank == 1 ? 1 : 0;
                mrr += rank == 0 ? 0 : 1.0 / rank;
                recall += rank == 0 ? 0 : 1;
                if (rank != 1 && split.equals("dev") && !catalog.startsWith("*")) {
                    misses.append(v.label()).append(" | ").append(catalog).append(" | ").append(intent.text())
                            .append(" | want ").append(intent.expected()).append(" at ").append(rank == 0 ? "-" : rank)
                            .append(" | got ").append(hits.stream().limit(3).map(SearchHit::name).toList()).append('\n');
                }
            }
            int n = intents.size();
            md.append(String.format(" %.2f / %.3f / %.2f |", top1 / n, mrr / n, recall / n));
        }
        md.append('\n');
    }

    /**
     * How each ranking answers queries no catalog serves (bench/search/unrelated.txt): the share of
     * them answered with no tool at all, and the mean number of hits of those answered with some.
     * Each query is asked of every catalog.
     */
    private static void unrelated(StringBuilder md, List<String> lines, List<String> splits, List<String> catalogs,
                                  Map<String, Map<Variant, SearchIndex>> indexes) {
        Map<String, List<String>> bySplit = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int sep = line.indexOf(" :: ");
            bySplit.computeIfAbsent(line.substring(0, sep).trim(), k -> new ArrayList<>())
                    .add(line.substring(sep + 4).trim());
        }
        md.append("\nQueries about nothing any catalog does (`unrelated.txt`: ")
                .append(bySplit.values().stream().mapToInt(List::size).sum())
                .append(", each asked of every catalog; the right answer is no tool): the share answered with no tool,"
                        + " and the mean number of hits when there were some.\n\n| catalog | split | queries |");
        VARIANTS.forEach(v -> md.append(" ").append(v.label()).append(" none / mean hits |"));
        md.append("\n|---|---|---|").append("---|".repeat(VARIANTS.size())).append("\n");
        for (String split : splits) {
            List<String> queries = bySplit.getOrDefault(split, List.of());
            if (queries.isEmpty()) {
                continue;
            }
            for (String catalog : catalogs) {
                md.append("| `").append(catalog).append("` | ").append(split).append(" | ").append(queries.size())
                        .append(" |");
                for (Variant v : VARIANTS) {
                    int none = 0;
                    int hitsWhenSome = 0;
                    for (String query : queries) {
                        int hits = Math.min(indexes.get(catalog).get(v).search(query).size(), DEPTH);
                        none += hits == 0 ? 1 : 0;
                        hitsWhenSome += hits;
                    }
                    int some = queries.size() - none;
                    md.append(String.format(" %.2f / %s |", (double) none / queries.size(),
                            some == 0 ? "-" : String.format("%.1f", (double) hitsWhenSome / some)));
                }
                md.append('\n');
            }
        }
    }

    /**
     * Queries in turn for the given time; the sorted wall-clock latencies in ns (null samples:
     * warm-up only). {@code cpu}, when given, receives each query's thread CPU time in the same
     * order before sorting: on a shared machine wall-clock tails include time other processes held
     * the core, CPU time does not.
     */
    /**
     * The grid point that scores best, {@code off} unless a point beats it (the first of equal
     * points, in the grid's order, wins).
     */
    private static <P> P chosen(P off, List<P> points, java.util.function.ToDoubleFunction<P> score) {
        P chosen = off;
        double best = score.applyAsDouble(off);
        for (P p : points) {
            double m = score.applyAsDouble(p);
            if (m > best + 1e-9) {
                best = m;
                chosen = p;
            }
        }
        return chosen;
    }

    /**
     * The latency table's row for an index: every query in turn for {@code seconds} after as long
     * a warm-up; wall p50/p99/max, the searching thread's CPU p50/p99, the process's CPU per search.
     */
    private static String latencyRow(String label, double buildMs, SearchIndex index, List<String> queries,
                                     long seconds) {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        time(index, queries, seconds, null, null);
        long[] cpu = new long[1 << 21];
        long processStart = os.getProcessCpuTime();
        long[] samples = time(index, queries, seconds, new long[1 << 21], cpu);
        double processPerSearch = (os.getProcessCpuTime() - processStart) / 1e3 / samples.length;
        long[] cpuSorted = Arrays.copyOf(cpu, samples.length);
        Arrays.sort(cpuSorted);
        return String.format("| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |%n", label, buildMs,
                samples[samples.length / 2] / 1e3, samples[(int) (samples.length * 0.99)] / 1e3,
                samples[samples.length - 1] / 1e3, cpuSorted[cpuSorted.length / 2] / 1e3,
                cpuSorted[(int) (cpuSorted.length * 0.99)] / 1e3, processPerSearch);
    }

    private static long[] time(SearchIndex index, List<String> queries, long seconds, long[] samples, long[] cpu) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int n = 0;
        long sink = 0;
        for (int i = 0; System.nanoTime() < end; i++) {
            long cpuStart = cpu == null ? 0 : threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            sink += index.search(queries.get(i % queries.size())).size();
            long took = System.nanoTime() - start;
            if (samples != null && n < samples.length) {
                if (cpu != null) {
                    cpu[n] = threads.getCurrentThreadCpuTime() - cpuStart;
                }
                samples[n++] = took;
            }
        }
        if (sink == 42) {
            System.out.print("");
        }
        if (samples == null) {
            return null;
        }
        long[] taken = Arrays.copyOf(samples, n);
        Arrays.sort(taken);
        return taken;
    }

    private static ToolDef tool(JsonObject json) {
        String name = json.getString("name");
        List<InputDef> inputs = new ArrayList<>();
        for (Object i : json.getJsonArray("inputs", new JsonArray())) {
            JsonObject input = (JsonObject) i;
            InputType type = InputType.fromKeyword(switch (input.getString("type", "string")) {
                case "int", "integer" -> "int";
                case "number", "float" -> "float";
                case "boolean" -> "boolean";
                default -> "string";
            });
            inputs.add(new InputDef(input.getString("name"), type, input.getString("description", ""),
                    input.getBoolean("optional", false), false, null, location(name)));
        }
        String statement = json.getString("statement", "");
        JsonObject hints = json.getJsonObject("annotations");
        if (hints != null) {
            // the server's own readOnlyHint / destructiveHint, as a tool file would declare them
            ScriptRef handler = new ScriptRef(Path.of("app/tools", name, "handler.ts"), "default", location(name));
            return ToolDef.builder(name).description(json.getString("description")).inputs(inputs).handler(handler)
                    .location(location(name)).annotations(new ToolAnnotations(hints.getBoolean("readOnly"),
                            hints.getBoolean("destructive"), null, null)).build();
        }
        if (!statement.isEmpty()) {
            // the hints the loader infers from a tool file's SQL statement
            return ToolDef.builder(name).description(json.getString("description")).statement("db", statement)
                    .annotations(ToolAnnotations.inferred(statement, false)).inputs(inputs).location(location(name))
                    .build();
        }
        ScriptRef handler = new ScriptRef(Path.of("app/tools", name, "handler.ts"), "default", location(name));
        return ToolDef.builder(name).description(json.getString("description")).inputs(inputs).handler(handler)
                .location(location(name)).build();
    }

    private static ToolDef withExamples(ToolDef t, List<String> examples) {
        return t.toBuilder().examples(examples).build();
    }

    private static SourceLocation location(String name) {
        return new SourceLocation(Path.of("app/tools", name, "config.terse"), 1);
    }

    /** Database tools in the style of bench/gen/catalog.mjs: verbs, business nouns, qualifiers. */
    private static List<ToolDef> generated(int count, long seed) {
        String[] verbs = {"get", "list", "find", "count", "search", "summarize", "export", "archive"};
        String[] nouns = {"orders", "users", "invoices", "payments", "tickets", "products", "shipments", "accounts",
                "sessions", "reviews", "refunds", "coupons", "warehouses", "suppliers", "events", "subscriptions",
                "carts", "teams", "projects", "comments", "metrics", "alerts", "devices", "regions"};
        String[] qualifiers = {"by status", "by id", "for a customer", "in a date range", "with totals", "per region",
                "that are overdue", "created today", "by email", "with their items"};
        String[] columns = {"id", "status", "email", "created_at", "total", "region", "owner_id", "amount", "name",
                "updated_at", "priority", "sku"};
        Random random = new Random(seed);
        List<ToolDef> tools = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String verb = verbs[random.nextInt(verbs.length)];
            String noun = nouns[random.nextInt(nouns.length)];
            String column = columns[random.nextInt(columns.length)];
            String name = verb + "-" + noun + "-" + i;
            String description = Character.toUpperCase(verb.charAt(0)) + verb.substring(1) + " " + noun + " "
                    + qualifiers[random.nextInt(qualifiers.length)];
            String statement = "SELECT " + columns[random.nextInt(columns.length)] + ", "
                    + columns[random.nextInt(columns.length)] + " FROM " + noun + " WHERE " + column
                    + " = {{ inputs." + column + " }}";
            tools.add(ToolDef.builder(name).description(description).statement("db", statement)
                    .inputs(List.of(new InputDef(column, InputType.STRING, "The " + column.replace('_', ' ')
                            + " to match", false, false, null, location(name)))).location(location(name)).build());
        }
        return tools;
    }
}
