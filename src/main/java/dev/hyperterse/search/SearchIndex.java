package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.ToolDef;
import org.apache.lucene.search.ScoreDoc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Ranks a project's tools against a free-text intent, exactly as Hyperterse v2.2 does (see
 * "The two MCP tools" in the project-format spec):
 * <ol>
 *   <li>Texts are normalised ({@link SearchText#normalize}). A tool has five: name, statement
 *       (empty for handler tools), input names joined, description, input descriptions joined.</li>
 *   <li>Per text, token coverage of the distinct query tokens: exact token +1, partial (either
 *       contains the other) +0.6, else a miss; {@code s == 0 ? 0 : s / (s + 0.10 × misses)}.</li>
 *   <li>Character 3-gram Jaccard between the query and the five texts joined (name, description,
 *       statement, input names, input descriptions), both with spaces removed; a text of at most
 *       three code points is one gram of itself.</li>
 *   <li>Weights name .30, statement .25, input names .18, description .14, input descriptions
 *       .08, 3-grams .05. A component is dropped when the tool's side of it is empty: a text with
 *       no tokens, or for 3-grams a tool whose five texts are all empty. The query never drops a
 *       component (a non-blank query always has tokens and at least one gram). The remaining
 *       weights are rescaled to sum to 1.</li>
 *   <li>Phrase bonus when the whole normalised query occurs in the normalised name (+.10), else
 *       statement (+.08), else description (+.03); capped at 1.</li>
 *   <li>Hits with raw score ≤ 0 are dropped; the rest sorted by raw score descending, then name
 *       by code point, then declaration order; cut to the limit.</li>
 * </ol>
 * Floating-point operations are done in Hyperterse's order so scores at a rounding boundary round
 * the same way (the spec's {@code get-orders} check is one: 86.5036 → 88).
 *
 * <p>Everything about a tool is computed once, here; a query relates its tokens to the shared
 * vocabulary once and then scores each tool with integer look-ups. Instances are safe to query
 * from several threads at once; they are immutable but for the tool vectors of the rankings by
 * meaning, set together by {@link #embedTools}.
 */
public final class SearchIndex {

    /** What Hyperterse uses when no positive limit is given. */
    public static final int DEFAULT_LIMIT = 10;

    // Component slots, in the order Hyperterse adds them up.
    private static final int NAME = 0;
    private static final int STATEMENT = 1;
    private static final int INPUT_NAMES = 2;
    private static final int DESCRIPTION = 3;
    private static final int INPUT_DESCRIPTIONS = 4;
    private static final int GRAMS = 5;
    private static final int TEXT_COMPONENTS = 5;
    private static final double[] WEIGHTS = {0.30, 0.25, 0.18, 0.14, 0.08, 0.05};

    private static final double PARTIAL_CREDIT = 0.6;
    private static final double MISS_PENALTY = 0.10;
    private static final double NAME_PHRASE_BONUS = 0.10;
    private static final double STATEMENT_PHRASE_BONUS = 0.08;
    private static final double DESCRIPTION_PHRASE_BONUS = 0.03;

    private final ToolEntry[] entries;
    /**
     * Vocabulary ids of each tool's distinct tokens per text component, all tools in one array so
     * a query scans memory in order: tool t's component c is
     * {@code tokenIds[textBounds[t * 5 + c] .. textBounds[t * 5 + c + 1])}.
     */
    private final int[] tokenIds;
    private final int[] textBounds;
    private final TokenVocabulary vocabulary;
    private final GramIndex grams;
    private final int limit;
    /**
     * The {@code hybrid} ranking over the same tools, or null for Hyperterse's alone; in
     * {@code static} and {@code semantic}, what ranks until tool vectors are ready, and the source
     * of BM25.
     */
    private final HybridRanking hybrid;
    /**
     * {@code semantic} or {@code static}: the index ranks by meaning once {@link #embedTools} or
     * {@link #embedToolsStatically()} has run.
     */
    private final SearchRanking meaningRanking;
    /** The ranking by meaning, set once the tool vectors are ready; null until then. */
    private volatile Meaning meaning;
    /**
     * Per-query work arrays by how many hits they hold, reused so a query allocates little; one
     * per concurrent caller (capacities: the limit, and the candidate count of filtered searches).
     */
    private final java.util.concurrent.ConcurrentHashMap<Integer, ConcurrentLinkedQueue<Scratch>> idleScratch =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param tools the tools to rank, in declaration order (the last tie-break)
     * @param limit the most hits a search returns; {@link #DEFAULT_LIMIT} when not positive
     */
    public SearchIndex(Collection<ToolDef> tools, int limit) {
        this(tools, limit, SearchRanking.HYPERTERSE, RankFusion.DEFAULT);
    }

    /**
     * @param tools   the tools to rank, in declaration order (the last tie-break)
     * @param limit   the most hits a search returns; {@link #DEFAULT_LIMIT} when not positive
     * @param ranking Hyperterse's ranking alone, fused with BM25, or by meaning (which ranks as
     *                {@code hybrid} until {@link #embedTools} or {@link #embedToolsStatically()} has run)
     * @param fusion  how {@code hybrid} fuses the two (unused by {@code hyperterse})
     */
    public SearchIndex(Collection<ToolDef> tools, int limit, SearchRanking ranking, RankFusion fusion) {
        this.limit = limit > 0 ? limit : DEFAULT_LIMIT;
        TokenVocabulary.Builder vocabularyBuilder = new TokenVocabulary.Builder();
        GramIndex.Builder gramBuilder = new GramIndex.Builder();
        List<ToolEntry> built = new ArrayList<>(tools.size());
        IntList ids = new IntList();
        IntList bounds = new IntList();
        for (ToolDef tool : tools) {
            built.add(ToolEntry.of(Objects.requireNonNull(tool, "tool"), built.size(), vocabularyBuilder,
                    gramBuilder, ids, bounds));
        }
        bounds.add(ids.size());
        this.entries = built.toArray(new ToolEntry[0]);
        this.tokenIds = ids.toArray();
        this.textBounds = bounds.toArray();
        this.vocabulary = vocabularyBuilder.build();
        this.grams = gramBuilder.build();
        this.meaningRanking = ranking == SearchRanking.SEMANTIC || ranking == SearchRanking.STATIC ? ranking : null;
        this.hybrid = ranking != SearchRanking.HYPERTERSE ? new HybridRanking(
                Arrays.stream(entries).map(e -> e.tool).toList(), Objects.requireNonNull(fusion, "fusion")) : null;
    }

    /**
     * For the {@code semantic} ranking: computes every tool's vector with {@code embedder} (those
     * {@code cacheDir} holds for unchanged tools are reused, new ones stored there; null: no disk
     * cache), after which searches rank by meaning: the static table's ranking, its best tools put in
     * order with the models' cosines read too ({@link SemanticRanking#orderWith}; where that order does
     * not apply, the model's ranking fused with the table's, {@link EmbeddingFusion}). Blocking,
     * seconds for a large catalog on a cold cache: run it on a worker. Searches meanwhile rank as
     * before: as {@code hybrid}, or by the static table alone once {@link #embedToolsStatically()} has
     * run (the server runs it first).
     *
     * @return how many tools were embedded and how many came from the cache, a cache problem (null
     *         when none) that did not stop the ranking, and why the rankings are fused (null: they are not)
     */
    public EmbeddedTools embedTools(TextEmbedder embedder, java.nio.file.Path cacheDir) {
        return embedTools(embedder, cacheDir, meaningRanking == SearchRanking.STATIC
                ? SemanticRanking.STATIC_BM25_WEIGHT : SemanticRanking.DEFAULT_BM25_WEIGHT);
    }

    /**
     * For the {@code static} ranking: reads the static embedding table shipped with the server
     * (a few hundred milliseconds in a fresh JVM, once) and computes every tool's vector from it
     * (microseconds a tool), after which searches rank by meaning. Blocking: run it on a worker.
     * For {@code semantic}, the ranking that serves until {@link #embedTools} has run.
     */
    public EmbeddedTools embedToolsStatically() {
        return embedToolsStatically(ActionWeights.DEFAULT);
    }

    /** Like {@link #embedToolsStatically()}, with the action stage's weights. */
    public EmbeddedTools embedToolsStatically(ActionWeights actionWeights) {
        return embedToolsStatically(actionWeights, StaticPooling.DEFAULT);
    }

    /** Like {@link #embedToolsStatically()}, with the action stage's weights and the table's pooling. */
    public EmbeddedTools embedToolsStatically(ActionWeights actionWeights, StaticPooling pooling) {
        return embedTools(StaticEmbedder.bundled(), null, SemanticRanking.STATIC_BM25_WEIGHT, actionWeights, pooling);
    }

    /** Like {@link #embedTools(TextEmbedder, java.nio.file.Path)}, with BM25's share of the score. */
    public EmbeddedTools embedTools(TextEmbedder embedder, java.nio.file.Path cacheDir, double bm25Weight) {
        return embedTools(embedder, cacheDir, bm25Weight, ActionWeights.DEFAULT);
    }

    /** Like {@link #embedTools(TextEmbedder, java.nio.file.Path, double)}, with the action stage's weights. */
    public EmbeddedTools embedTools(TextEmbedder embedder, java.nio.file.Path cacheDir, double bm25Weight,
                                    ActionWeights actionWeights) {
        return embedTools(embedder, cacheDir, bm25Weight, actionWeights, StaticPooling.DEFAULT);
    }

    /**
     * Like {@link #embedTools(TextEmbedder, java.nio.file.Path, double, ActionWeights)}; a static
     * table's token vectors pooled as {@code pooling} says (a model ignores it).
     */
    public EmbeddedTools embedTools(TextEmbedder embedder, java.nio.file.Path cacheDir, double bm25Weight,
                                    ActionWeights actionWeights, StaticPooling pooling) {
        return embedTools(embedder, cacheDir, bm25Weight, actionWeights, pooling, SemanticRanking.holdsTokensFor(embedder));
    }

    /**
     * For {@code bench/search/rerank}, which learns the learned orders: as {@link #embedTools(TextEmbedder,
     * java.nio.file.Path)}, a model that gives token vectors giving those of each tool's texts too, whether or not
     * the jar's order reads them, so that {@link #learnedOrderFeatures} carries every reading an order may learn from.
     */
    public EmbeddedTools embedToolsForLearning(TextEmbedder embedder, java.nio.file.Path cacheDir) {
        return embedTools(embedder, cacheDir, SemanticRanking.DEFAULT_BM25_WEIGHT, ActionWeights.DEFAULT,
                StaticPooling.DEFAULT, true);
    }

    private EmbeddedTools embedTools(TextEmbedder embedder, java.nio.file.Path cacheDir, double bm25Weight,
                                     ActionWeights actionWeights, StaticPooling pooling, boolean tokens) {
        if (meaningRanking == null) {
            throw new IllegalStateException("this index does not rank by meaning");
        }
        ToolDef[] tools = Arrays.stream(entries).map(e -> e.tool).toArray(ToolDef[]::new);
        SemanticRanking.Built built = SemanticRanking.build(tools, Objects.requireNonNull(embedder, "embedder"),
                cacheDir == null ? null : new VectorCache(cacheDir, embedder.model()), bm25Weight,
                Objects.requireNonNull(actionWeights, "actionWeights"), Objects.requireNonNull(pooling, "pooling"), tokens);
        SemanticRanking table = meaningRanking == SearchRanking.SEMANTIC && !built.ranking().staticEmbedding()
                ? staticBeside(tools, actionWeights, meaning) : null;
        SemanticRanking.ModelOrder order = table == null ? null : table.orderWith(embedder, null, built.ranking());
        this.meaning = new Meaning(built.ranking(), table, order == null ? null : order.order());
        return new EmbeddedTools(built.embedded(), built.reused(), built.cacheProblem(),
                order == null ? null : order.problem(), built.ranking().handOrderBecause(), built.ranking().tokenBytes());
    }

    /**
     * The {@code static} ranking over the same tools, as {@link #embedToolsStatically(ActionWeights)}
     * builds it, for the models' cosines to put its best tools in order (or its ranking to be fused with,
     * {@link EmbeddingFusion}): {@code current}'s
     * when it is that ranking (the server builds it first, to rank by until the model's vectors are
     * ready), else built; null when the bundled table cannot be read, and the model ranks alone.
     */
    private static SemanticRanking staticBeside(ToolDef[] tools, ActionWeights actionWeights, Meaning current) {
        try {
            StaticEmbedder bundled = StaticEmbedder.bundled();
            if (current != null && current.table() == null && current.ranking().builtAs(bundled,
                    SemanticRanking.STATIC_BM25_WEIGHT, actionWeights, StaticPooling.DEFAULT)) {
                return current.ranking();
            }
            return SemanticRanking.build(tools, bundled, null, SemanticRanking.STATIC_BM25_WEIGHT,
                    actionWeights, StaticPooling.DEFAULT).ranking();
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * A ranking by meaning and, for {@code semantic} with a model, the static table's ranking of the
     * same tools (null: the ranking alone) and the learned order that puts the table's best tools in
     * order with the models' cosines read too (null: the two rankings are fused instead).
     */
    private record Meaning(SemanticRanking ranking, SemanticRanking table, SemanticRanking.Order order) {

        /** The ranking by the static table: the one beside the model, else the ranking itself. */
        SemanticRanking byTable() {
            return table != null ? table : ranking;
        }

        List<SearchHit> search(String query, java.util.function.Predicate<ToolDef> visible, int maxHits,
                               HybridRanking hybrid) {
            try {
                return rank(query, visible, maxHits, hybrid);
            } catch (TextEmbedder.Stopping stopping) {
                // the process is stopping and its models take no more work (it still serves while it
                // drains): the static table's ranking, as served before they were ready
                if (table == null) {
                    throw stopping;
                }
                return new Meaning(table, null, null).search(query, visible, maxHits, hybrid);
            }
        }

        private List<SearchHit> rank(String query, java.util.function.Predicate<ToolDef> visible, int maxHits,
                                     HybridRanking hybrid) {
            if (order != null) {
                // the table's hits, its best twenty put in order with the models' cosines read too
                ScoreDoc[] bm25 = hybrid.bm25(query, Math.max(HybridRanking.FUSED_DEPTH, maxHits));
                return table.search(query, visible, maxHits, bm25, order, ranking.cosines(query));
            }
            int depth = table == null ? maxHits : Math.max(maxHits, EmbeddingFusion.DEPTH);
            ScoreDoc[] bm25 = hybrid.bm25(query, Math.max(HybridRanking.FUSED_DEPTH, depth));
            List<SearchHit> hits = ranking.search(query, visible, depth, bm25);
            return table == null ? hits
                    : EmbeddingFusion.fuse(table.search(query, visible, depth, bm25), hits, maxHits);
        }
    }

    /**
     * For {@code bench/search/rerank}, which learns the learned orders: the query's vector, then the
     * tools the order reads for {@code query}, best first as the static ranking finds them, a line each
     * (the tool's name, its features and its vector, tab-separated; the query's line has an empty
     * name); for {@code semantic} with a model, the features end with each model's cosine, then per part of
     * the tool's text ({@link #learnedOrderTexts()}) each model's cosine, then, where the models give token
     * vectors, the readings of the token vectors of each tool's texts ({@link #learnedOrderTokenTexts()}: per text, per
     * model), as its own order reads them. Empty unless the index ranks by the static table with an action stage (in
     * {@code semantic}, beside the model).
     */
    public String learnedOrderFeatures(String query) {
        Meaning ready = meaning;
        if (ready == null || hybrid == null || SearchText.normalize(query).isEmpty()) {
            return "";
        }
        ScoreDoc[] bm25 = hybrid.bm25(query, Math.max(HybridRanking.FUSED_DEPTH, LearnedOrder.FEW));
        // beside a model: the table's features and each model's cosine, as the semantic ranking's order reads them
        return ready.byTable().learnedFeatures(query, bm25, ready.table() == null ? null : ready.ranking().cosines(query));
    }

    /**
     * For {@code bench/search/rerank}: the parts of a tool's text whose cosines by each model end
     * {@link #learnedOrderFeatures}'s lines with a model (its name, its lead, its description), in order.
     */
    public static List<String> learnedOrderTexts() {
        return LearnedOrder.TEXTS;
    }

    /**
     * For {@code bench/search/rerank}: the texts of a tool whose token vectors, read against the
     * request's ({@link LearnedOrder#TOKEN_READINGS} per model and text), end {@link #learnedOrderFeatures}'s lines
     * after the parts' cosines, where the models give token vectors: per text, per model.
     */
    public static List<String> learnedOrderTokenTexts() {
        return LearnedOrder.TOKEN_TEXTS;
    }

    /**
     * For {@code bench/search/rerank}: the tag of the map the jar reads {@code embedder}'s token vectors through
     * ({@link TokenBasis#tag}, written into the weights learned from a dump), or null when it reads them as the
     * models give them.
     */
    public static String learnedOrderTokenBasis(TextEmbedder embedder) {
        TokenBasis basis = TokenBasis.bundledFor(embedder.models());
        return basis == null ? null : basis.tag();
    }

    /**
     * For {@code bench/search}: learns the map of the models' token vectors onto {@code dims} dimensions that the
     * jar ships ({@link TokenBasis}, {@code src/main/resources/dev/hyperterse/search/token-basis.bin}) from the
     * token vectors the models give the texts of {@code tools} ({@link LearnedOrder#TOKEN_TEXTS}), and writes it to
     * {@code out}; returns what it read, for the log.
     */
    public static String learnTokenBasis(List<ToolDef> tools, TextEmbedder embedder, int dims, java.nio.file.Path out)
            throws java.io.IOException {
        int models = embedder.models().size();
        List<List<float[]>> samples = new java.util.ArrayList<>();
        for (int m = 0; m < models; m++) {
            samples.add(new java.util.ArrayList<>());
        }
        int width = 0;
        long count = 0;
        for (ToolDef tool : tools) {
            for (int k = 0; k < LearnedOrder.TOKEN_TEXTS.size(); k++) {
                TextEmbedder.TokenVectors run = embedder.embedTokens(SemanticRanking.tokenText(tool, k));
                if (run == null) {
                    throw new IllegalArgumentException(embedder.model() + " gives no token vectors");
                }
                width = run.width();
                for (int m = 0; m < models; m++) {
                    samples.get(m).add(run.tokens()[m]);
                    count += run.count(m);
                }
            }
        }
        TokenBasis basis = TokenBasis.learn(embedder.models(), width, dims, samples);
        try (var stream = java.nio.file.Files.newOutputStream(out)) {
            basis.write(stream);
        }
        return count + " token vectors of " + tools.size() + " tools' " + LearnedOrder.TOKEN_TEXTS + " by "
                + embedder.models() + ", " + width + " numbers each, onto " + dims + " (" + basis.tag() + ")";
    }

    /**
     * For {@code bench/search/rerank}: the cosine of the query's verb with each of {@code verbs}, as
     * the learned orders read them (by the static table's action stage: in {@code semantic}, the one
     * beside the model); null when the query has no verb or the index does not rank by the static
     * table with an action stage (whether or not the learned order is on).
     */
    public double[] learnedOrderVerbCosines(String query, String[] verbs) {
        Meaning ready = meaning;
        return ready == null ? null : ready.byTable().queryVerbCosines(query, verbs);
    }

    /**
     * For {@code bench/search/rerank}: the word each tool's name starts with once the words half the
     * catalog's names carry are left out, as the learned order reads a tool's kind (none for a name
     * of such words only).
     */
    public static java.util.Set<String> nameStarts(List<ToolDef> tools) {
        java.util.Set<String> starts = new java.util.TreeSet<>();
        for (String[] own : LearnedOrder.ownWords(tools.toArray(ToolDef[]::new))) {
            if (own.length > 0) {
                starts.add(own[0]);
            }
        }
        return starts;
    }

    /**
     * What {@link #embedTools} did: how many tools were embedded and how many came from the cache, a
     * cache problem (null when none), and for {@code semantic}, why the model's ranking is fused with
     * the static table's rather than the table's best tools put in order with the models' cosines read
     * too (null when they are, or for other rankings), and for {@code static}, why the action stage's hand
     * weights put its best tools in order rather than the learned order (null when the learned order does); and
     * the bytes the models' token vectors of the tools' texts take in memory (0 when the ranking holds none).
     */
    public record EmbeddedTools(int embedded, int reused, String cacheProblem, String fusedBecause,
                                String handOrderBecause, long tokenBytes) {}

    /** Whether searches rank by meaning ({@code semantic} or {@code static}, once the tool vectors are ready). */
    public boolean ranksByMeaning() {
        return meaning != null;
    }

    /**
     * Whether a search runs an embedding model on its query ({@code semantic}, once ready):
     * milliseconds of CPU, for a worker thread. The {@code static} ranking's query vector is a
     * table look-up, no more work than BM25's.
     */
    public boolean embedsQueriesWithAModel() {
        Meaning ready = meaning;
        return ready != null && !ready.ranking().staticEmbedding();
    }

    /** How many tools the index ranks. */
    public int size() {
        return entries.length;
    }

    /** The most hits {@link #search} returns. */
    public int limit() {
        return limit;
    }

    /** The best-matching tools, best first; empty for a query with no letters or numbers. */
    public List<SearchHit> search(String query) {
        return search(query, null);
    }

    /**
     * The best-matching tools among those {@code visible} accepts (all when null), best first:
     * tools a caller may not see never take a place within the limit.
     */
    public List<SearchHit> search(String query, java.util.function.Predicate<ToolDef> visible) {
        return search(query, visible, limit);
    }

    /**
     * Like {@link #search(String, java.util.function.Predicate)}, returning up to {@code maxHits}
     * (which may exceed the limit: candidates for a caller whose visibility is decided afterwards).
     */
    public List<SearchHit> search(String query, java.util.function.Predicate<ToolDef> visible, int maxHits) {
        String normalizedQuery = SearchText.normalize(query);
        if (normalizedQuery.isEmpty() || entries.length == 0 || maxHits <= 0) {
            return List.of();
        }
        if (hybrid == null) {
            return lexical(normalizedQuery, visible, maxHits);
        }
        Meaning ready = meaning;
        if (ready != null) {
            try {
                return ready.search(query, visible, maxHits, hybrid);
            } catch (TextEmbedder.Stopping stopping) {
                // a model ranking alone, with no static table beside it, while the process stops: lexically
            }
        }
        return hybrid.search(query, visible, maxHits, depth -> lexical(normalizedQuery, visible, depth));
    }

    /** Hyperterse's ranking of a normalized, non-empty query. */
    private List<SearchHit> lexical(String normalizedQuery, java.util.function.Predicate<ToolDef> visible,
                                    int maxHits) {
        if (maxHits <= 0) {
            return List.of();
        }
        int capacity = Math.min(maxHits, entries.length);
        // a few capacities at most are ever asked for; beyond that, don't keep the arrays
        ConcurrentLinkedQueue<Scratch> pool = idleScratch.size() < 4
                ? idleScratch.computeIfAbsent(capacity, c -> new ConcurrentLinkedQueue<>()) : idleScratch.get(capacity);
        Scratch scratch = pool == null ? null : pool.poll();
        if (scratch == null) {
            scratch = new Scratch(vocabulary.size(), entries.length, capacity);
        }
        try {
            return rank(normalizedQuery, scratch, visible);
        } finally {
            if (pool != null) {
                scratch.reset(vocabulary.size());
                pool.offer(scratch);
            }
        }
    }

    private List<SearchHit> rank(String normalizedQuery, Scratch scratch, java.util.function.Predicate<ToolDef> visible) {
        String[] queryTokens = SearchText.distinctTokens(normalizedQuery);
        long[] queryGrams = SearchText.gramKeys(normalizedQuery);
        int tokenCount = queryTokens.length;
        int words = (tokenCount + 63) >>> 6;
        int stride = 2 * words;

        // For each vocabulary id: which query tokens it equals (first `words` longs) and which it
        // partially matches (next `words` longs), one bit per query token.
        long[] masks = scratch.masks(vocabulary.size() * stride, stride);
        for (int i = 0; i < tokenCount; i++) {
            final long bit = 1L << i; // Java uses the low six bits of the shift distance
            int exact = vocabulary.id(queryTokens[i]);
            if (exact >= 0) {
                masks[exact * stride + (i >>> 6)] |= bit;
            }
            final int partialWord = words + (i >>> 6);
            vocabulary.forEachPartial(queryTokens[i], id -> masks[id * stride + partialWord] |= bit);
        }
        int[] sharedGrams = scratch.sharedGrams;
        grams.countShared(queryGrams, sharedGrams);

        for (int t = 0; t < entries.length; t++) {
            if (visible != null && !visible.test(entries[t].tool)) {
                continue;
            }
            double raw = score(t, normalizedQuery, tokenCount, words, masks, queryGrams.length, sharedGrams[t],
                    scratch);
            if (raw > 0) {
                scratch.offer(t, raw, entries);
            }
        }
        return scratch.drain(entries);
    }

    private double score(int tool, String normalizedQuery, int tokenCount, int words, long[] masks,
                         int queryGramCount, int sharedGramCount, Scratch scratch) {
        ToolEntry entry = entries[tool];
        double raw = 0;
        int complete = 0; // components in which every query token matched: only they can hold the phrase
        for (int c = 0; c < TEXT_COMPONENTS; c++) {
            if (!entry.active[c]) {
                continue;
            }
            int from = textBounds[tool * TEXT_COMPONENTS + c];
            int to = textBounds[tool * TEXT_COMPONENTS + c + 1];
            double coverage = words == 1
                    ? coverageOfOneWordQuery(from, to, tokenCount, masks, scratch)
                    : coverage(from, to, tokenCount, words, masks, scratch);
            raw += coverage * entry.weights[c];
            if (scratch.lastMisses == 0) {
                complete |= 1 << c;
            }
        }
        if (entry.active[GRAMS]) {
            double jaccard = sharedGramCount == 0 ? 0
                    : (double) sharedGramCount / (double) (queryGramCount + entry.gramCount - sharedGramCount);
            raw += jaccard * entry.weights[GRAMS];
        }

        // The query occurring in a text implies each query token lies inside one of its tokens,
        // so a text with a miss cannot contain it and the substring search is skipped.
        if ((complete & (1 << NAME)) != 0 && entry.nameText.contains(normalizedQuery)) {
            raw += NAME_PHRASE_BONUS;
        } else if ((complete & (1 << STATEMENT)) != 0 && entry.statementText.contains(normalizedQuery)) {
            raw += STATEMENT_PHRASE_BONUS;
        } else if ((complete & (1 << DESCRIPTION)) != 0 && entry.descriptionText.contains(normalizedQuery)) {
            raw += DESCRIPTION_PHRASE_BONUS;
        }
        return raw > 1 ? 1 : raw;
    }

    /**
     * Hyperterse's soft coverage for a query of at most 64 distinct tokens (nearly all queries),
     * with the match state in two registers; leaves the number of missed tokens in the scratch.
     */
    private double coverageOfOneWordQuery(int from, int to, int tokenCount, long[] masks, Scratch scratch) {
        long exact = 0;
        long partial = 0;
        for (int k = from; k < to; k++) {
            int base = tokenIds[k] << 1;
            exact |= masks[base];
            partial |= masks[base + 1];
        }
        if ((exact | partial) == 0) {
            scratch.lastMisses = tokenCount;
            return 0;
        }
        long[] seen = scratch.seen;
        seen[0] = exact;
        seen[1] = partial;
        return softCoverage(seen, 1, tokenCount, scratch);
    }

    /** The same for queries of more than 64 distinct tokens. */
    private double coverage(int from, int to, int tokenCount, int words, long[] masks, Scratch scratch) {
        int stride = 2 * words;
        long[] seen = scratch.seen;
        Arrays.fill(seen, 0, stride, 0L);
        for (int k = from; k < to; k++) {
            int base = tokenIds[k] * stride;
            for (int w = 0; w < stride; w++) {
                seen[w] |= masks[base + w];
            }
        }
        return softCoverage(seen, words, tokenCount, scratch);
    }

    /**
     * {@code s == 0 ? 0 : s / (s + 0.10 × misses)}, with s summed in query-token order as
     * Hyperterse does (0.6 + 0.6 + 0.6 + 1 is 2.8 but 1 + 0.6 + 0.6 + 0.6 is 2.8000000000000003).
     */
    private static double softCoverage(long[] seen, int words, int tokenCount, Scratch scratch) {
        double score = 0;
        double misses = 0;
        for (int i = 0; i < tokenCount; i++) {
            long bit = 1L << i;
            int word = i >>> 6;
            if ((seen[word] & bit) != 0) {
                score += 1;
            } else if ((seen[words + word] & bit) != 0) {
                score += PARTIAL_CREDIT;
            } else {
                misses += 1;
            }
        }
        scratch.lastMisses = misses;
        if (score <= 0) {
            return 0;
        }
        return score / (score + misses * MISS_PENALTY);
    }

    /** {@code round(raw × 99) + 1}, rounding half away from zero, clamped to 1..100. */
    static int relevanceScore(double raw) {
        double scaled = raw * 99;
        long rounded = scaled < 0 ? -Math.round(-scaled) : Math.round(scaled);
        return (int) Math.max(1, Math.min(100, rounded + 1));
    }

    /** One tool with everything a query needs precomputed. */
    private static final class ToolEntry {
        final ToolDef tool;
        final String nameText;
        final String statementText;
        final String descriptionText;
        final boolean[] active;
        /** Component weights rescaled over the active components; 0 for inactive ones. */
        final double[] weights;
        final int gramCount;

        private ToolEntry(ToolDef tool, String nameText, String statementText, String descriptionText,
                          boolean[] active, double[] weights, int gramCount) {
            this.tool = tool;
            this.nameText = nameText;
            this.statementText = statementText;
            this.descriptionText = descriptionText;
            this.active = active;
            this.weights = weights;
            this.gramCount = gramCount;
        }

        /** Builds the entry, appending its token ids and component bounds to the shared arrays. */
        static ToolEntry of(ToolDef tool, int index, TokenVocabulary.Builder vocabulary, GramIndex.Builder grams,
                            IntList tokenIds, IntList textBounds) {
            String nameText = SearchText.normalize(tool.name());
            String descriptionText = SearchText.normalize(tool.description());
            // A handler tool has no statement worth matching; Hyperterse blanks its placeholder one.
            String statementText = tool.isDatabaseTool() ? SearchText.normalize(tool.statement()) : "";
            StringJoiner inputNames = new StringJoiner(" ");
            StringJoiner inputDescriptions = new StringJoiner(" ");
            for (InputDef input : tool.inputs()) {
                String name = SearchText.normalize(input.name());
                if (!name.isEmpty()) {
                    inputNames.add(name);
                }
                String description = SearchText.normalize(input.description());
                if (!description.isEmpty()) {
                    inputDescriptions.add(description);
                }
            }

            String[] texts = new String[TEXT_COMPONENTS];
            texts[NAME] = nameText;
            texts[STATEMENT] = statementText;
            texts[INPUT_NAMES] = inputNames.toString();
            // a title and tags are searched with the description (a tool without them ranks as in Hyperterse)
            texts[DESCRIPTION] = tool.title() == null && tool.tags().isEmpty() ? descriptionText
                    : SearchText.normalize(String.join(" ", tool.description() == null ? "" : tool.description(),
                            tool.title() == null ? "" : tool.title(), String.join(" ", tool.tags())));
            texts[INPUT_DESCRIPTIONS] = inputDescriptions.toString();

            boolean[] active = new boolean[WEIGHTS.length];
            for (int c = 0; c < TEXT_COMPONENTS; c++) {
                textBounds.add(tokenIds.size());
                String[] distinct = SearchText.distinctTokens(texts[c]);
                for (String token : distinct) {
                    tokenIds.add(vocabulary.add(token));
                }
                active[c] = distinct.length > 0;
            }

            // Grams run across text boundaries, so the join order (Hyperterse's) matters.
            long[] gramKeys = SearchText.gramKeys(String.join(" ", texts[NAME], texts[DESCRIPTION],
                    texts[STATEMENT], texts[INPUT_NAMES], texts[INPUT_DESCRIPTIONS]));
            grams.add(index, gramKeys);
            active[GRAMS] = gramKeys.length > 0;

            return new ToolEntry(tool, nameText, statementText, descriptionText, active,
                    rescaledWeights(active), gramKeys.length);
        }

        private static double[] rescaledWeights(boolean[] active) {
            double total = 0;
            for (int c = 0; c < WEIGHTS.length; c++) {
                if (active[c]) {
                    total += WEIGHTS[c];
                }
            }
            double[] weights = new double[WEIGHTS.length];
            if (total > 0) {
                for (int c = 0; c < WEIGHTS.length; c++) {
                    weights[c] = active[c] ? WEIGHTS[c] / total : 0;
                }
            }
            return weights;
        }
    }

    /**
     * Work arrays for one query at a time: the per-vocabulary match masks, shared-gram counts per
     * tool, and a bounded heap of the best hits so far (worst at the root).
     */
    private static final class Scratch {
        private long[] masks;
        private int masksInUse;
        private long[] seen;
        final int[] sharedGrams;
        private final int[] heapTools;
        private final double[] heapRaw;
        private int heapSize;
        double lastMisses;

        Scratch(int vocabularySize, int toolCount, int capacity) {
            this.masks = new long[vocabularySize * 2];
            this.seen = new long[2];
            this.sharedGrams = new int[toolCount];
            this.heapTools = new int[capacity];
            this.heapRaw = new double[capacity];
        }

        /** Zeroed masks of at least {@code length}; grows for queries of more than 64 tokens. */
        long[] masks(int length, int stride) {
            if (masks.length < length) {
                masks = new long[length];
            }
            if (seen.length < stride) {
                seen = new long[stride];
            }
            masksInUse = length;
            return masks;
        }

        void reset(int vocabularySize) {
            if (masks.length > vocabularySize * 2) {
                masks = new long[vocabularySize * 2]; // don't keep a long query's arrays around
                seen = new long[2];
            } else {
                Arrays.fill(masks, 0, masksInUse, 0L);
            }
            masksInUse = 0;
            Arrays.fill(sharedGrams, 0);
            heapSize = 0;
        }

        void offer(int tool, double raw, ToolEntry[] entries) {
            if (heapSize < heapTools.length) {
                heapTools[heapSize] = tool;
                heapRaw[heapSize] = raw;
                siftUp(heapSize++, entries);
            } else if (heapSize > 0 && worse(heapTools[0], heapRaw[0], tool, raw, entries)) {
                heapTools[0] = tool;
                heapRaw[0] = raw;
                siftDown(0, entries);
            }
        }

        /** Empties the heap into a list, best first. */
        List<SearchHit> drain(ToolEntry[] entries) {
            SearchHit[] hits = new SearchHit[heapSize];
            for (int k = heapSize - 1; k >= 0; k--) {
                ToolEntry entry = entries[heapTools[0]];
                double raw = heapRaw[0];
                hits[k] = new SearchHit(entry.tool.name(), relevanceScore(raw), raw, entry.tool);
                heapSize--;
                heapTools[0] = heapTools[heapSize];
                heapRaw[0] = heapRaw[heapSize];
                siftDown(0, entries);
            }
            return List.of(hits);
        }

        private void siftUp(int i, ToolEntry[] entries) {
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (!worse(heapTools[i], heapRaw[i], heapTools[parent], heapRaw[parent], entries)) {
                    return;
                }
                swap(i, parent);
                i = parent;
            }
        }

        private void siftDown(int i, ToolEntry[] entries) {
            while (true) {
                int worst = i;
                int left = 2 * i + 1;
                int right = left + 1;
                if (left < heapSize && worse(heapTools[left], heapRaw[left], heapTools[worst], heapRaw[worst], entries)) {
                    worst = left;
                }
                if (right < heapSize && worse(heapTools[right], heapRaw[right], heapTools[worst], heapRaw[worst], entries)) {
                    worst = right;
                }
                if (worst == i) {
                    return;
                }
                swap(i, worst);
                i = worst;
            }
        }

        private void swap(int a, int b) {
            int tool = heapTools[a];
            heapTools[a] = heapTools[b];
            heapTools[b] = tool;
            double raw = heapRaw[a];
            heapRaw[a] = heapRaw[b];
            heapRaw[b] = raw;
        }

        /** Whether hit a ranks below hit b: lower raw score, then later name, then later declaration. */
        private static boolean worse(int toolA, double rawA, int toolB, double rawB, ToolEntry[] entries) {
            if (rawA != rawB) {
                return rawA < rawB;
            }
            int byName = SearchText.compareCodePoints(entries[toolA].tool.name(), entries[toolB].tool.name());
            if (byName != 0) {
                return byName > 0;
            }
            return toolA > toolB;
        }
    }
}
