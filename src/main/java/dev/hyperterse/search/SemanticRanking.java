package dev.hyperterse.search;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.ToolDef;
import org.apache.lucene.search.ScoreDoc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The {@code semantic} and {@code static} rankings: the cosine similarity of the query's and each
 * tool's embedding (name, description, inputs), plus a little BM25 so an exact word still counts. A tool scores
 * {@code (1 - w) × cosine + w × bm25 / best bm25} with {@code w} = {@link #DEFAULT_BM25_WEIGHT}
 * ({@link #STATIC_BM25_WEIGHT} with the static embedding). The action stage ({@link ActionStage})
 * then reorders the best tools by what the query asks to do (with the static table and
 * {@link ActionWeights#learned}, by the learned order's score, {@link LearnedOrder}, when its weights can
 * be read); it may read further than the hits
 * asked for, and below the floor ({@link ActionWeights#reach}), so that a tool it lifts enters the
 * hits with the score of the place it takes, and the hits' scores and number stay the ranking's.
 * For {@code semantic}, the static table's ranking puts its best tools, and the tools the models find
 * nearest among the rest ({@link LearnedOrder#MODEL_PICKS}), in order by a second learned
 * order, which reads the models' cosines too ({@link #orderWith}); the models' own ranking only lends
 * those cosines (and ranks by itself, by the first model's cosine, fused with the table's, where that
 * order does not apply).
 * Tool vectors are computed once per snapshot (see {@link #build}); instances are immutable and
 * safe to query from several threads at once. Each search embeds its query: with the model, a few
 * milliseconds of CPU, so it never runs on an event loop; with the static table, a table look-up, and
 * the whole search under a millisecond over a thousand tools (the learned order reads its thirty best
 * tools word by word, {@link TokenMatches}).
 */
final class SemanticRanking {

    private static final int[] NO_PARTS = {};

    /** The share of BM25 in a tool's score; chosen on bench/search's dev intents. */
    static final double DEFAULT_BM25_WEIGHT = 0.1;
    /** The same for the {@code static} ranking's embedding (chosen on the dev intents too). */
    static final double STATIC_BM25_WEIGHT = 0.15;
    /**
     * Below this cosine a tool with no query word in it is no hit: the model finds some likeness
     * between any two texts, and a query about nothing the project does should find nothing.
     */
    static final double MIN_SIMILARITY = 0.1;
    /**
     * With the static table, a place scoring under this is no hit either, word or not (the action
     * stage reads below it and may lift a tool from under it into a place above it, with that
     * place's score; {@link ActionWeights#reach}): a bag of
     * token vectors leaves unrelated texts a little closer than the model does, and a shared
     * common word ("a table at a restaurant", {@code list_tables}) lifts a tool only by its BM25
     * share. Chosen on bench/search's dev intents as the highest floor that drops no right tool
     * from their top ten: queries about nothing a catalog does (bench/search/unrelated.txt) get no
     * hit twice as often as under the cosine rule alone, and the rest get fewer. This is the floor of
     * the table's mean alone ({@link StaticPooling#OFF}); with the catalog's token weights, which
     * move every score, the pooling carries its own ({@link StaticPooling#minScore}).
     */
    static final double STATIC_MIN_SCORE = 0.13;

    private final ToolDef[] tools;
    private final TextEmbedder embedder;
    /** The tools' unit vectors one after another, {@link #dims} floats each: one scan reads them in order. */
    private final float[] vectors;
    /**
     * With a model: the same vectors a dimension at a time (per dimension, each tool's number), so that the
     * query's cosine with every tool ({@link ModelCosines#means}) is read in loops the JIT vectorizes; else null.
     */
    private final float[][] byDimension;
    private final int dims;
    /**
     * With a model: each tool's vectors of the parts of its text ({@link LearnedOrder#TEXTS}: its name, its
     * lead, its description), {@link #dims} floats each, a tool's parts one after another, as
     * {@link #vectors} holds the whole text's; a learned order reads their cosines with the query too. Null
     * with the static table.
     */
    private final float[] partVectors;
    /**
     * With models that give token vectors ({@link TextEmbedder#embedTokens}): those of each tool's texts ({@link
     * LearnedOrder#TOKEN_TEXTS}), for a learned order to read against the request's ({@link
     * LearnedOrder#readsTokens}); else null.
     */
    private final LateInteraction late;
    /** With {@link #late}: the map its token vectors and a request's are read through (null: as the models give them). */
    private final TokenBasis basis;
    /** Why a ranking asked to hold the token vectors of the tools' texts holds none (null: it holds them, or was not asked). */
    private final String tokensMissing;
    /**
     * How many models the vectors join ({@link TextEmbedder#models()}): the ranking's own cosine is the
     * first model's, read from the first {@code dims / models} floats of each vector.
     */
    private final int models;
    private final double bm25Weight;
    private final double minScore;
    /** Reads the query's action against each tool's; moves nothing when its weights are off. */
    private final ActionStage actions;
    /** The stage's weights, as given. */
    private final ActionWeights actionWeights;
    /** How many of the best tools the stage reads, at least (0: the hits asked for). */
    private final int reach;
    /** With the static table and a learned order: its weights over these tools (else null). */
    private final Order learned;
    /** Why the hand weights order the best tools though the learned order was asked for (null: it was not, or it orders them). */
    private final String handOrderBecause;
    /** With the static table: how closely a request's words match each tool's (else null). */
    private final TokenMatches matches;
    /** With the static table: the kinds of value each tool takes, against those a request carries (else null). */
    private final ValueKinds values;
    /** With the static table: how its token vectors are pooled (null: its mean, as {@link TextEmbedder#embed}). */
    private final StaticPooling pooling;
    /** The catalog's IDF when {@link #pooling} weighs by it; else null. */
    private final TokenWeights tokenWeights;

    private SemanticRanking(ToolDef[] tools, TextEmbedder embedder, float[][] vectors, float[][] partVectors,
                            LateInteraction late, TokenBasis basis, String tokensMissing, double bm25Weight,
                            ActionWeights actionWeights, StaticPooling pooling, TokenWeights tokenWeights,
                            TokenMatches matches) {
        this.tools = tools;
        this.late = late;
        this.basis = basis;
        this.tokensMissing = tokensMissing;
        this.matches = matches;
        this.values = matches == null ? null : new ValueKinds(tools);
        this.embedder = embedder;
        this.dims = vectors.length == 0 ? 0 : vectors[0].length;
        this.models = embedder.models().size();
        if (models < 1 || dims % models != 0) {
            throw new IllegalArgumentException("tool vectors of " + dims + " numbers cannot hold " + models
                    + " models' parts of one length");
        }
        this.vectors = new float[vectors.length * dims];
        for (int t = 0; t < vectors.length; t++) {
            if (vectors[t].length != dims) {
                throw new IllegalArgumentException("tool vectors of " + vectors[t].length + " and " + dims
                        + " dimensions");
            }
            System.arraycopy(vectors[t], 0, this.vectors, t * dims, dims);
        }
        this.byDimension = partVectors == null || vectors.length == 0 ? null
                : LateInteraction.byDimension(this.vectors, dims);
        if (partVectors == null) {
            this.partVectors = null;
        } else {
            int parts = LearnedOrder.TEXTS.size();
            this.partVectors = new float[vectors.length * parts * dims];
            for (int t = 0; t < vectors.length; t++) {
                for (int p = 0; p < parts; p++) {
                    float[] v = partVectors[t * parts + p];
                    if (v.length != dims) {
                        throw new IllegalArgumentException("a part's vector of " + v.length + " and tool vectors of "
                                + dims + " dimensions");
                    }
                    System.arraycopy(v, 0, this.partVectors, (t * parts + p) * dims, dims);
                }
            }
        }
        this.bm25Weight = bm25Weight;
        this.actionWeights = actionWeights;
        this.minScore = !(embedder instanceof StaticEmbedder) ? 0
                : pooling == null ? STATIC_MIN_SCORE : pooling.minScore();
        this.actions = actionWeights.off() ? null : actionStage(tools, embedder, actionWeights);
        this.reach = actionWeights.reach();
        // weights learned with another table (a table of a bench's, say) would weigh readings they never
        // saw: the hand weights order the twenty then
        LearnedOrder order = null;
        String because = null;
        if (actionWeights.learned() && readsLikeTheLearnedOrder()) {
            try {
                order = LearnedOrder.bundled();
            } catch (RuntimeException | LinkageError e) {
                because = LearnedOrder.RESOURCE + " could not be read: " + e.getMessage();
            }
            if (order != null && (!order.models().isEmpty() || !order.learnedWith(embedder.model(), dims))) {
                because = LearnedOrder.RESOURCE + (!order.models().isEmpty()
                        ? " reads the cosines of the models " + order.models() + ", which this ranking does not run"
                        : " was learned with the static table " + (order.table() != null ? order.table() : "of another size")
                                + ", not with this ranking's " + embedder.model());
                order = null;
            }
        }
        this.learned = order != null ? new Order(order) : null;
        this.handOrderBecause = because;
        this.pooling = pooling;
        this.tokenWeights = tokenWeights;
    }

    /**
     * The action stage, reading verbs by the static table's vectors (the ranking's own table, or
     * the bundled one beside a model). A table or verb list that cannot be read leaves the
     * ranking without the stage rather than without a ranking.
     */
    private static ActionStage actionStage(ToolDef[] tools, TextEmbedder embedder, ActionWeights weights) {
        try {
            StaticEmbedder table = embedder instanceof StaticEmbedder own ? own : StaticEmbedder.bundled();
            return new ActionStage(tools, VerbLexicon.bundled(), table, weights);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * Why the action stage's hand weights put the best tools in order though the learned order was
     * asked for: its weights cannot be read, or were learned with another static table or a model's
     * cosine; null when the
     * learned order puts them in order, or was not asked for (or there is no action stage).
     */
    String handOrderBecause() {
        return handOrderBecause;
    }

    /**
     * For the {@code semantic} ranking: the order this static ranking's best tools are put in with the
     * cosine of {@code model}'s vectors read too, by {@code weights} (the jar's
     * {@link LearnedOrder#bundledSemantic()} when null), or why there is none: this ranking has no
     * learned order (the hand weights order it, or no action stage), or the weights cannot be read or
     * were learned with another static table or model. Computed once per version of the project, with
     * the model's tool vectors.
     */
    ModelOrder orderWith(TextEmbedder model, LearnedOrder weights) {
        return orderWith(model, weights, null);
    }

    /**
     * {@link #orderWith(TextEmbedder, LearnedOrder)}, where {@code byModels} is the models' ranking whose cosines
     * the order reads: weights that read the token vectors of each tool's texts need it to hold them, mapped by the
     * basis the weights were learned with (null: no such check).
     */
    ModelOrder orderWith(TextEmbedder model, LearnedOrder weights, SemanticRanking byModels) {
        if (learned == null) {
            return new ModelOrder(null, "the static ranking has no learned order ("
                    + (handOrderBecause != null ? handOrderBecause : "its action stage is off") + ")");
        }
        LearnedOrder order = weights;
        if (order == null) {
            try {
                order = LearnedOrder.bundledSemantic();
            } catch (RuntimeException | LinkageError e) {
                return new ModelOrder(null, LearnedOrder.SEMANTIC_RESOURCE + " could not be read: " + e.getMessage());
            }
        }
        if (!order.models().equals(model.models())) {
            return new ModelOrder(null, "the order's weights were learned with the models " + order.models()
                    + ", not " + model.models());
        }
        if (!order.learnedWith(embedder.model(), dims)) {
            return new ModelOrder(null, "the order's weights were learned with another static table than "
                    + embedder.model());
        }
        if (order.readsTokens() && byModels != null && byModels.late == null) {
            String why = byModels.tokensMissing != null ? byModels.tokensMissing : model.degraded();
            return new ModelOrder(null, "the order's weights read the token vectors of each tool's texts, which the"
                    + " models do not give here" + (why != null ? " (" + why + ")" : ""));
        }
        if (order.readsTokens() && byModels != null && !java.util.Objects.equals(order.tokenBasis(), byModels.tokenBasis())) {
            return new ModelOrder(null, "the order's weights read token vectors "
                    + (order.tokenBasis() == null ? "as the models give them" : "mapped by the basis " + order.tokenBasis())
                    + ", and the models' ranking holds them "
                    + (byModels.tokenBasis() == null ? "as the models give them" : "mapped by " + byModels.tokenBasis()));
        }
        return new ModelOrder(new Order(order), null);
    }

    /** The order {@link #orderWith} gives, or (null) why there is none. */
    record ModelOrder(Order order, String problem) {}

    /**
     * A learned order's weights over these tools: each tool's kind, the kinds' verbs as unit vectors
     * (as a tool's verb is read) and each tool's vector mapped by the bilinear form (null: none).
     */
    final class Order {
        private final LearnedOrder weights;
        private final int[] kinds;
        private final float[][] verbVectors;
        private final float[][] toolMaps;

        private Order(LearnedOrder weights) {
            this.weights = weights;
            this.kinds = weights.kinds(tools);
            this.verbVectors = weights.verbVectors(actions);
            if (weights.mapsVectors()) {
                this.toolMaps = new float[tools.length][];
                for (int t = 0; t < tools.length; t++) {
                    toolMaps[t] = weights.mapTool(vectors, t * dims);
                }
            } else {
                this.toolMaps = null;
            }
        }

        /** Whether the weights read a model's cosine. */
        boolean readsModel() {
            return !weights.models().isEmpty();
        }
    }

    /**
     * What was built and how much of it came from the disk cache: {@code embedded} tools had a text the
     * model ran on (their whole text or a part of it, {@link LearnedOrder#TEXTS}), {@code reused} had all theirs
     * from the cache.
     */
    record Built(SemanticRanking ranking, int embedded, int reused, String cacheProblem) {}

    /**
     * Embeds every tool (with a model, its whole text and each part of it a learned order may read,
     * {@link LearnedOrder#TEXTS}), reusing the vectors {@code cache} holds for unchanged texts and storing
     * the new ones (a cache that cannot be read or written is reported, not fatal; null: none),
     * and loads the model for the queries. Blocking: a tool takes milliseconds.
     */
    static Built build(ToolDef[] tools, TextEmbedder embedder, VectorCache cache, double bm25Weight,
                       ActionWeights actionWeights) {
        return build(tools, embedder, cache, bm25Weight, actionWeights, StaticPooling.OFF);
    }

    /**
     * Like {@link #build(ToolDef[], TextEmbedder, VectorCache, double, ActionWeights)}; with the
     * static table, its token vectors pooled as {@code pooling} says (a model's are not: it pools
     * inside). Vectors weighted by the catalog's own token frequencies depend on every tool, so
     * they are computed afresh (microseconds a tool), never cached; so are vectors with a lead share.
     */
    static Built build(ToolDef[] tools, TextEmbedder embedder, VectorCache cache, double bm25Weight,
                       ActionWeights actionWeights, StaticPooling pooling) {
        return build(tools, embedder, cache, bm25Weight, actionWeights, pooling, holdsTokensFor(embedder));
    }

    /**
     * Whether a ranking by {@code embedder} holds the token vectors of each tool's texts as the server builds it:
     * a model's, where the jar's {@code semantic} order reads them (the static table gives none, and its
     * ranking never reads the {@code semantic} weights).
     */
    static boolean holdsTokensFor(TextEmbedder embedder) {
        return !(embedder instanceof StaticEmbedder) && LearnedOrder.semanticReadsTokens();
    }

    /**
     * Like {@link #build(ToolDef[], TextEmbedder, VectorCache, double, ActionWeights, StaticPooling)}; with
     * {@code tokens}, a model that gives token vectors gives those of each tool's texts too ({@link LateInteraction},
     * kept in the cache beside its vector), for a learned order that reads them (the jar's, when it does: the
     * default; a bench's dump, always).
     */
    static Built build(ToolDef[] tools, TextEmbedder embedder, VectorCache cache, double bm25Weight,
                       ActionWeights actionWeights, StaticPooling pooling, boolean tokens) {
        TokenBasis basis = null;
        String tokensMissing = null;
        if (tokens && parts(embedder)) {
            try {
                basis = TokenBasis.bundledFor(embedder.models());
            } catch (IllegalStateException e) {
                // the jar's map cannot be read: no token vectors, and the order that reads them says why
                tokens = false;
                tokensMissing = e.getMessage();
            }
        }
        return build(tools, embedder, cache, bm25Weight, actionWeights, pooling, tokens, basis, tokensMissing,
                TOKEN_BUDGET);
    }

    /**
     * The most numbers of token vectors a ranking holds (256 MB): a catalog whose tools' texts have more (some
     * thousands of tools with long descriptions) ranks without the order that reads them, and says why.
     */
    static final long TOKEN_BUDGET = 64L << 20;

    /**
     * Like {@link #build(ToolDef[], TextEmbedder, VectorCache, double, ActionWeights, StaticPooling, boolean)}, the
     * token vectors mapped by {@code basis} (null: as the models give them), or, with {@code tokensMissing}, why
     * none are held though they were asked for; none either when they would be more than {@code tokenBudget}
     * numbers.
     */
    static Built build(ToolDef[] tools, TextEmbedder embedder, VectorCache cache, double bm25Weight,
                       ActionWeights actionWeights, StaticPooling pooling, boolean tokens, TokenBasis basis,
                       String tokensMissing, long tokenBudget) {
        if (embedder instanceof StaticEmbedder table && !pooling.off()) {
            int[][] ids = new int[tools.length][];
            for (int i = 0; i < tools.length; i++) {
                ids[i] = table.tokenIds(text(tools[i]));
            }
            TokenWeights weights = pooling.usesIdf()
                    ? TokenWeights.of(ids, pooling.idfConstant(), pooling.unseenAtMean()) : null;
            double blend = pooling.toolIdf();
            java.util.function.IntToDoubleFunction toolWeight = blend > 0
                    ? id -> (1 - blend) + blend * weights.idf(id) : null;
            double lead = pooling.leadShare();
            float[][] vectors = new float[tools.length][];
            for (int i = 0; i < tools.length; i++) {
                float[] whole = table.embed(ids[i], toolWeight, pooling.maxShare());
                if (lead > 0) {
                    float[] first = table.embed(table.tokenIds(lead(tools[i])), toolWeight, pooling.maxShare());
                    for (int d = 0; d < whole.length; d++) {
                        whole[d] = (float) (lead * first[d] + (1 - lead) * whole[d]);
                    }
                }
                vectors[i] = unit(whole);
            }
            return new Built(new SemanticRanking(tools, embedder, vectors, null, null, null, null, bm25Weight, actionWeights, pooling,
                    weights, new TokenMatches(table, ids)), tools.length, 0, null);
        }
        Map<String, float[]> stored = Map.of();
        String problem = null;
        if (cache != null) {
            try {
                stored = cache.load();
            } catch (IOException | RuntimeException e) {
                problem = "could not read " + cache.file() + ": " + e.getMessage();
            }
        }
        // the token vectors of each tool's texts, where the models give them and an order reads them: from the
        // cache beside each text's vector, else from the run that gives that vector; mapped by the basis
        Vectors texts = new Vectors(embedder, stored, basis);
        float[][] vectors = new float[tools.length][];
        // a model's ranking holds the vectors of the parts of each tool's text too, for a learned order to read
        boolean parts = parts(embedder);
        float[][] partVectors = parts ? new float[tools.length * LearnedOrder.TEXTS.size()][] : null;
        int models = embedder.models().size();
        float[][][] held = parts && tokens ? new float[tools.length][][] : null;
        int embedded = 0;
        for (int i = 0; i < tools.length; i++) {
            int runs = texts.runs;
            if (held != null) {
                held[i] = new float[LearnedOrder.TOKEN_TEXTS.size() * models][];
                for (int k = 0; k < LearnedOrder.TOKEN_TEXTS.size() && held != null; k++) {
                    float[][] run = texts.tokens(tokenText(tools[i], k));
                    if (run == null) {
                        held = null;
                        break;
                    }
                    System.arraycopy(run, 0, held[i], k * models, models);
                }
            }
            vectors[i] = texts.of(text(tools[i]));
            for (int p = 0; parts && p < LearnedOrder.TEXTS.size(); p++) {
                partVectors[i * LearnedOrder.TEXTS.size() + p] = texts.of(part(tools[i], p));
            }
            if (texts.runs > runs) {
                embedded++;
            }
        }
        Map<String, float[]> current = texts.current;
        // every vector from the cache: the model is still to load before the first query needs it
        embedder.load();
        if (cache != null && embedded > 0) {
            try {
                cache.save(current, stored);
            } catch (IOException | RuntimeException e) {
                problem = "could not write " + cache.file() + ": " + e.getMessage();
            }
        }
        TokenMatches matches = embedder instanceof StaticEmbedder table
                ? new TokenMatches(table, java.util.Arrays.stream(tools).map(t -> table.tokenIds(text(t))).toArray(int[][]::new))
                : null;
        long heldFloats = 0;
        for (int i = 0; held != null && i < held.length; i++) {
            for (float[] text : held[i]) {
                heldFloats += text.length;
            }
        }
        if (held != null && heldFloats > tokenBudget) {
            tokensMissing = String.format(java.util.Locale.ROOT, "the token vectors of the tools' texts would take"
                    + " %.0f MB, more than the %.0f MB a ranking holds", heldFloats * 4 / 1e6, tokenBudget * 4 / 1e6);
            held = null;
        }
        // a token vector's width: the basis's, else the model's (its part of a text's vector)
        int width = basis != null ? basis.dims() : tools.length == 0 ? 1 : vectors[0].length / models;
        LateInteraction late = held == null ? null : new LateInteraction(held, LearnedOrder.TOKEN_TEXTS.size(), models, width);
        if (late == null && tokens && parts && tokensMissing == null) {
            tokensMissing = "the models give no token vectors";
        }
        return new Built(new SemanticRanking(tools, embedder, vectors, partVectors, late, late == null ? null : basis,
                tokensMissing, bm25Weight, actionWeights, null, null, matches), embedded, tools.length - embedded, problem);
    }

    /**
     * The vectors of one build's texts, each text's once: this build's, else the disk cache's, else the
     * model's ({@link #runs} counts those).
     */
    private static final class Vectors {
        final Map<String, float[]> current = new LinkedHashMap<>();
        private final TextEmbedder embedder;
        private final Map<String, float[]> stored;
        private final TokenBasis basis;
        int runs;

        Vectors(TextEmbedder embedder, Map<String, float[]> stored, TokenBasis basis) {
            this.embedder = embedder;
            this.stored = stored;
            this.basis = basis;
        }

        /**
         * The text's token vectors by each model (mapped by the basis, when there is one), one array per model:
         * this build's, else the disk cache's, else from a run of the models (null where they give none), whose
         * vector is then the text's unless the cache holds one.
         */
        float[][] tokens(String text) {
            String key = VectorCache.key(text);
            String tag = basis == null ? null : basis.tag();
            int models = embedder.models().size();
            float[][] tokens = new float[models][];
            for (int m = 0; m < models; m++) {
                String at = VectorCache.tokensKey(key, m, tag);
                tokens[m] = current.containsKey(at) ? current.get(at) : stored.get(at);
            }
            float[] vector = current.containsKey(key) ? current.get(key) : stored.get(key);
            if (vector == null || java.util.Arrays.asList(tokens).contains(null)) {
                TextEmbedder.TokenVectors run = embedder.embedTokens(text);
                if (run == null) {
                    return null;
                }
                runs++;
                tokens = project(basis, run.tokens());
                if (vector == null) {
                    vector = unitVector(embedder, run.vector());
                }
            }
            current.putIfAbsent(key, vector);
            for (int m = 0; m < models; m++) {
                current.putIfAbsent(VectorCache.tokensKey(key, m, tag), tokens[m]);
            }
            return tokens;
        }

        float[] of(String text) {
            return current.computeIfAbsent(VectorCache.key(text), key -> {
                float[] vector = stored.get(key);
                if (vector == null) {
                    vector = unitVector(embedder, embedder.embed(text));
                    runs++;
                }
                return vector;
            });
        }
    }

    /** Each model's token vectors mapped by {@code basis} ({@link TokenBasis#project}); as given without one. */
    static float[][] project(TokenBasis basis, float[][] tokens) {
        if (basis == null) {
            return tokens;
        }
        float[][] out = new float[tokens.length][];
        for (int m = 0; m < tokens.length; m++) {
            out[m] = basis.project(m, tokens[m]);
        }
        return out;
    }

    /** Whether a ranking by {@code embedder} holds the vectors of the parts of each tool's text: a model's does. */
    private static boolean parts(TextEmbedder embedder) {
        return !(embedder instanceof StaticEmbedder);
    }

    /** The text of a tool of {@link LearnedOrder#TOKEN_TEXTS} by index: its lead, or its whole text. */
    static String tokenText(ToolDef tool, int k) {
        return switch (LearnedOrder.TOKEN_TEXTS.get(k)) {
            case "lead" -> lead(tool);
            case "text" -> text(tool);
            default -> throw new IllegalStateException("no text " + LearnedOrder.TOKEN_TEXTS.get(k));
        };
    }

    /** Whether this ranking was built by {@link #build} with these arguments (the tools aside). */
    boolean builtAs(TextEmbedder embedder, double bm25Weight, ActionWeights actionWeights, StaticPooling pooling) {
        return this.embedder == embedder && this.bm25Weight == bm25Weight && this.actionWeights.equals(actionWeights)
                && java.util.Objects.equals(this.pooling, pooling);
    }

    /** Whether the ranking holds the token vectors of each tool's texts ({@link LateInteraction}). */
    boolean holdsTokens() {
        return late != null;
    }

    /** The bytes the token vectors of the tools' texts take, arrays' headers included (0 when the ranking holds none). */
    long tokenBytes() {
        return late == null ? 0 : late.bytes();
    }

    /** The {@link TokenBasis#tag} of the map the held token vectors are read through (null: none, or none held). */
    String tokenBasis() {
        return basis == null ? null : basis.tag();
    }

    /** Whether the embedding is the static table (a query costs microseconds, not a model run). */
    boolean staticEmbedding() {
        return embedder instanceof StaticEmbedder;
    }

    /** What a tool says about itself, as the model reads it: name as words, description, inputs, examples. */
    static String text(ToolDef tool) {
        StringBuilder text = heading(tool);
        text.append(". ").append(tool.description() == null ? "" : tool.description());
        for (InputDef input : tool.inputs()) {
            text.append(' ').append(input.name()).append(": ")
                    .append(input.description() == null ? "" : input.description());
        }
        // the author's examples of how an agent asks for it, in the agent's own words
        for (String example : tool.examples()) {
            text.append(". ").append(example);
        }
        return text.toString();
    }

    /**
     * The part {@code part} of a tool's text, as {@link LearnedOrder#TEXTS} names them: its name as words
     * (and title), its {@link #lead}, or its description (its name as words when it has none).
     */
    static String part(ToolDef tool, int part) {
        return switch (LearnedOrder.TEXTS.get(part)) {
            case "name" -> heading(tool).toString();
            case "lead" -> lead(tool);
            case "description" -> tool.description() == null || tool.description().isBlank()
                    ? heading(tool).toString() : tool.description();
            default -> throw new IllegalArgumentException("no part " + LearnedOrder.TEXTS.get(part));
        };
    }

    /**
     * What a tool is for in a few words: its name as words, its title and its description's first
     * sentence, up to the first {@code .}, {@code !} or {@code ?} followed by white space (the mark
     * left out); a description with no such end gives its first line.
     */
    static String lead(ToolDef tool) {
        String description = tool.description() == null ? "" : tool.description();
        int end = -1;
        for (int i = 0; i + 1 < description.length() && end < 0; i++) {
            char c = description.charAt(i);
            if ((c == '.' || c == '!' || c == '?') && Character.isWhitespace(description.charAt(i + 1))) {
                end = i;
            }
        }
        for (int i = 0; i < description.length() && end < 0; i++) {
            if (description.charAt(i) == '\n' || description.charAt(i) == '\r') {
                end = i;
            }
        }
        return heading(tool).append(". ").append(description, 0, end < 0 ? description.length() : end).toString();
    }

    /** The name as words, then the title if there is one. */
    private static StringBuilder heading(ToolDef tool) {
        StringBuilder text = new StringBuilder(HybridRanking.words(tool.name()));
        if (tool.title() != null && !tool.title().isBlank()) {
            text.append(". ").append(tool.title());
        }
        return text;
    }

    /**
     * The hits for {@code query} among the tools {@code visible} accepts (all when null), best
     * first, at most {@code maxHits}; {@code bm25} is BM25's order of the same query (document
     * ids are positions in the tools), possibly empty.
     */
    List<SearchHit> search(String query, Predicate<ToolDef> visible, int maxHits, ScoreDoc[] bm25) {
        return search(query, visible, maxHits, bm25, null, learned, null);
    }

    /**
     * Like {@link #search(String, Predicate, int, ScoreDoc[])}, the best tools put in order by
     * {@code order} (from {@link #orderWith}), which reads {@code modelCosine}: a tool's (by its place
     * among the tools) cosines with the query by the models' vectors.
     */
    List<SearchHit> search(String query, Predicate<ToolDef> visible, int maxHits, ScoreDoc[] bm25, Order order,
                           ModelCosines modelCosine) {
        if (order.readsModel() && (modelCosine == null || modelCosine.models() != order.weights.models().size())) {
            throw new IllegalArgumentException("this order reads the cosines of " + order.weights.models().size()
                    + " models: " + (modelCosine == null ? "none" : modelCosine.models()) + " given");
        }
        if (order.weights.readsTokens() && !modelCosine.readsTokens()) {
            throw new IllegalArgumentException("this order reads the token vectors of each tool's texts: the models"
                    + " give none");
        }
        return search(query, visible, maxHits, bm25, null, order, modelCosine);
    }

    /**
     * For {@code bench/search/rerank}: what the learned order reads for {@code query}, tab-separated: a
     * line with an empty name, an empty field per base feature (twenty-three; with {@code modelCosine}, per model one
     * more, and one more per part of the tool's text, {@link LearnedOrder#TEXTS})
     * and the query's vector, then, best first as the ranking finds them, a line per tool: its name, its
     * base features ({@link LearnedOrder#features}, then the readings of every group of
     * {@link LearnedOrder#GROUPS}, then when given its {@code modelCosine}s of the whole text, then per part each
     * model's) and its vector (whether or not weights could be read: they are learned from these); empty when
     * this ranking is no static one with an action stage.
     */
    String learnedFeatures(String query, ScoreDoc[] bm25, ModelCosines modelCosine) {
        if (!readsLikeTheLearnedOrder()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        search(query, null, LearnedOrder.FEW, bm25, out, null, modelCosine);
        return out.toString();
    }

    /**
     * A tool's cosines with one query, by each model of a ranking's embedding ({@link TextEmbedder#models()}).
     */
    interface ModelCosines {
        /** How many models: cosines per tool. */
        int models();

        /** The cosine of the query's vector with the tool's (by its place among the tools) by the model {@code model}. */
        double cosine(int tool, int model);

        /** The mean of the tool's cosines by every model. */
        double mean(int tool);

        /** {@link #mean} of every tool, by its place among the tools. */
        double[] means();

        /**
         * The cosine of the query's vector with the vector of the tool's part {@code part} of its text
         * ({@link LearnedOrder#TEXTS}) by the model {@code model}.
         */
        double partCosine(int tool, int part, int model);

        /** Whether {@link #tokenReadings} can be read: the models give token vectors. */
        boolean readsTokens();

        /**
         * The readings of the token vectors of the tool's texts against the query's, {@link LearnedOrder#TOKEN_COLUMNS}
         * per model ({@link LateInteraction#read}: per text, per model), into {@code out} from {@code at}.
         */
        void tokenReadings(int tool, double[] out, int at);
    }

    /**
     * The cosines of the query's vector with a tool's by each of this ranking's models, the query
     * embedded on the first call only (a model run: on a worker thread), none when no tool is asked
     * for. For one search, on one thread.
     */
    ModelCosines cosines(String query) {
        return new ModelCosines() {
            private float[] q;
            private float[][] tokens;

            @Override
            public int models() {
                return models;
            }

            @Override
            public double cosine(int tool, int model) {
                return cosineByModel(query(), tool, model);
            }

            @Override
            public double mean(int tool) {
                // each model's unit vector scaled by 1/√models, side by side: the whole vectors' dot
                // product is the mean of the models' cosines
                return dot(query(), vectors, tool * dims, dims);
            }

            @Override
            public double[] means() {
                double[] out = new double[tools.length];
                if (byDimension == null) {
                    for (int t = 0; t < tools.length; t++) {
                        out[t] = mean(t);
                    }
                    return out;
                }
                float[] sums = new float[tools.length];
                LateInteraction.times(query(), 0, byDimension, sums);
                for (int t = 0; t < sums.length; t++) {
                    out[t] = sums[t];
                }
                return out;
            }

            @Override
            public double partCosine(int tool, int part, int model) {
                if (partVectors == null) {
                    throw new IllegalStateException("a ranking by the static table holds no vectors of the parts of a tool's text");
                }
                return cosineByModel(query(), partVectors, (tool * LearnedOrder.TEXTS.size() + part) * dims, model);
            }

            @Override
            public boolean readsTokens() {
                return late != null;
            }

            @Override
            public void tokenReadings(int tool, double[] out, int at) {
                if (late == null) {
                    throw new IllegalStateException("this ranking's models give no token vectors");
                }
                query();
                late.read(tool, tokens, out, at);
            }

            private float[] query() {
                if (q == null) {
                    if (late != null) {
                        // the query's token vectors from the same run of the models as its vector
                        TextEmbedder.TokenVectors run = embedder.embedTokens(query);
                        if (run == null) {
                            throw new IllegalStateException("the models gave the tools' token vectors, and none for a query");
                        }
                        tokens = project(basis, run.tokens());
                        q = unitVector(embedder, run.vector());
                    } else {
                        q = queryUnitVector(query, pooling == null ? null : ((StaticEmbedder) embedder).tokenIds(query));
                    }
                }
                return q;
            }
        };
    }

    /**
     * For {@code bench/search/rerank}: the cosine of the query's verb with each of {@code verbs} read
     * as a tool's verb, or null when the query has no verb (a question) or the ranking is no static one
     * with an action stage.
     */
    double[] queryVerbCosines(String query, String[] verbs) {
        ActionStage.Query action = readsLikeTheLearnedOrder() ? actions.read(query) : null;
        if (action == null || action.verb() == null) {
            return null;
        }
        return cosines(action.verb(), java.util.Arrays.stream(verbs).map(actions::toolVerbVector).toArray(float[][]::new));
    }

    /** Whether this ranking has what the learned order reads: the static table and an action stage. */
    private boolean readsLikeTheLearnedOrder() {
        return actions != null && embedder instanceof StaticEmbedder;
    }

    /** The cosine of a unit vector with each of {@code vectors}. */
    private static double[] cosines(float[] verb, float[][] vectors) {
        double[] out = new double[vectors.length];
        for (int i = 0; i < vectors.length; i++) {
            out[i] = dot(verb, vectors[i], 0, verb.length);
        }
        return out;
    }

    private List<SearchHit> search(String query, Predicate<ToolDef> visible, int maxHits, ScoreDoc[] bm25,
                                   StringBuilder features, Order order, ModelCosines modelCosine) {
        // with the static table, the request's tokens once: its vector and its word matches read them
        int[] ids = embedder instanceof StaticEmbedder table ? table.tokenIds(query) : null;
        // a models' ranking reads its own query vector by the first model's cosine alone (ownCosine; the orders
        // and their features are the static table's, and the cosines an order reads come from cosines()): the
        // other models need not run
        float[] q = ids == null && models > 1 ? embedder.embedFirst(query) : queryUnitVector(query, ids);
        float[] lexical = new float[tools.length];
        float best = 0;
        for (ScoreDoc doc : bm25) {
            if (visible == null || visible.test(tools[doc.doc])) {
                lexical[doc.doc] = doc.score;
                best = Math.max(best, doc.score);
            }
        }
        ActionStage.Query action = actions == null ? null : actions.read(query);
        // the best so far, best first: a small sorted insertion list, as long as the hits asked for or
        // as far as the stage reads, so that a tool it lifts from below them can enter them
        // with a learned order, always as far as it reads: the first hits are the same for any limit,
        // and the same as the order was learned on
        int depth = order != null || features != null ? Math.max(maxHits, Math.max(reach, LearnedOrder.FEW))
                : action == null ? maxHits : Math.max(maxHits, reach);
        int[] top = new int[Math.min(depth, tools.length)];
        double[] topScore = new double[top.length];
        int count = 0;
        // the stage reads below the floor too, however many hits are asked for (so the first ones are
        // the same for a limit of 10 or 100): a tool it lifts takes a place, and its score, above the
        // floor, and the places below the floor are no hits
        double readFloor = action != null && reach > 0 ? 0 : minScore;
        for (int t = 0; t < tools.length; t++) {
            double cosine = ownCosine(q, t);
            if (cosine < MIN_SIMILARITY && lexical[t] == 0) {
                continue;
            }
            double score = score(cosine, lexical[t], best);
            if (score < readFloor) {
                continue;
            }
            if (count == top.length && !before(score, t, topScore[count - 1], top[count - 1])) {
                continue;
            }
            if (visible != null && !visible.test(tools[t])) {
                continue;
            }
            int at = count == top.length ? count - 1 : count++;
            while (at > 0 && before(score, t, topScore[at - 1], top[at - 1])) {
                top[at] = top[at - 1];
                topScore[at] = topScore[at - 1];
                at--;
            }
            top[at] = t;
            topScore[at] = score;
        }
        // the table's place scores, where the models' picks take places: the order reads each pick's own
        // score, and then every place shows the table's score for it again
        double[] placeScores = null;
        int placed = count;
        if (modelCosine != null && (features != null || order != null && order.readsModel())) {
            placeScores = java.util.Arrays.copyOf(topScore, count);
            count = withModelPicks(modelCosine, visible, q, lexical, best, top, topScore, count);
        }
        if (features != null) {
            learnedFeatures(query, action, q, lexical, best, top, topScore, count, features, modelCosine, matchQuery(ids));
        } else if (order != null) {
            learnedOrder(order, modelCosine, query, action, q, lexical, best, top, topScore, count,
                    order.weights.readsMatches() ? matchQuery(ids) : null);
        } else if (action != null) {
            actions.reorder(action, top, topScore, count);
        }
        count = Math.min(count, maxHits);
        if (placeScores != null) {
            // the number of hits and each place's score stay the table's; a place it did not fill (the picks
            // went past its last) takes its pick's own score, no higher than the place before, and is a hit
            // only above the floor
            for (int i = 0; i < count; i++) {
                topScore[i] = i < placed ? placeScores[i] : Math.min(topScore[i], i == 0 ? 1 : topScore[i - 1]);
            }
        }
        while (count > 0 && topScore[count - 1] < minScore) {
            count--;
        }
        List<SearchHit> hits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            // cosine and the BM25 share are at most 1 together: the score is already on a 0..1 scale
            double raw = Math.max(1e-6, Math.min(1.0, topScore[i]));
            ToolDef tool = tools[top[i]];
            hits.add(new SearchHit(tool.name(), SearchIndex.relevanceScore(raw), raw, tool));
        }
        return hits;
    }

    /**
     * The models' picks: the last {@link LearnedOrder#MODEL_PICKS} of the first {@link LearnedOrder#MODEL_POOL}
     * places (those a model-reading order sorts) go to the tools the models find nearest to the query
     * ({@link ModelCosines#mean}) among those the table did not place before them, so that a tool
     * the table's vectors and BM25 miss can still be ordered; each comes in with its own score, the
     * picks in the table's order, and the places they took move after them. Returns the new count.
     */
    private int withModelPicks(ModelCosines cosine, Predicate<ToolDef> visible, float[] q, float[] lexical,
                               float best, int[] top, double[] topScore, int count) {
        int picks = LearnedOrder.MODEL_PICKS;
        int kept = Math.min(count, LearnedOrder.MODEL_POOL - picks);
        if (picks == 0 || kept == tools.length) {
            return count;
        }
        int[] picked = new int[picks];
        double[] near = new double[picks];
        int found = 0;
        double[] means = cosine.means();
        for (int t = 0; t < tools.length; t++) {
            if (placedBefore(t, top, kept) || visible != null && !visible.test(tools[t])) {
                continue;
            }
            double c = means[t];
            if (found == picks && c <= near[found - 1]) {
                continue;
            }
            int at = found == picks ? found - 1 : found++;
            while (at > 0 && c > near[at - 1]) {
                picked[at] = picked[at - 1];
                near[at] = near[at - 1];
                at--;
            }
            picked[at] = t;
            near[at] = c;
        }
        picked = java.util.Arrays.copyOf(picked, found);
        double[] pickScore = new double[found];
        for (int i = 0; i < found; i++) {
            pickScore[i] = score(ownCosine(q, picked[i]), lexical[picked[i]], best);
        }
        ActionStage.sortByScore(picked, pickScore);
        int[] rest = java.util.Arrays.copyOfRange(top, kept, count);
        double[] restScore = java.util.Arrays.copyOfRange(topScore, kept, count);
        int at = kept;
        for (int i = 0; i < found && at < top.length; i++, at++) {
            top[at] = picked[i];
            topScore[at] = pickScore[i];
        }
        for (int i = 0; i < rest.length && at < top.length; i++) {
            if (!placedBefore(rest[i], picked, found)) {
                top[at] = rest[i];
                topScore[at++] = restScore[i];
            }
        }
        return at;
    }

    /** A tool's score by the ranking: its cosine with the query, and its BM25 score's share of the best one's. */
    private double score(double cosine, float bm25, float best) {
        return (1 - bm25Weight) * cosine + (best > 0 ? bm25Weight * bm25 / best : 0);
    }

    /** Whether {@code tool} is among the first {@code n} of {@code places}. */
    private static boolean placedBefore(int tool, int[] places, int n) {
        for (int i = 0; i < n; i++) {
            if (places[i] == tool) {
                return true;
            }
        }
        return false;
    }

    /**
     * What a learned order reads of the first {@link LearnedOrder#FEW} places (the most any orders), written to {@code out}:
     * a line with no name and the query's vector, then a line per place, the tool's name, its base
     * features and its vector.
     */
    private void learnedFeatures(String query, ActionStage.Query action, float[] q, float[] lexical, float best, int[] top,
                                 double[] topScore, int count, StringBuilder out,
                                 ModelCosines modelCosine, TokenMatches.Query words) {
        // first the query's vector (in the tools' columns of vectors), then each tool's features and vector
        int groups = words == null ? 0 : LearnedOrder.GROUPS.length;
        int[] parts = modelCosine == null ? NO_PARTS : LearnedOrder.ALL_TEXTS;
        boolean tokens = modelCosine != null && modelCosine.readsTokens();
        out.append('\t').append("\t".repeat(LearnedOrder.BASE - 1 + LearnedOrder.readings(groups)
                + (modelCosine == null ? 0 : modelCosine.models() * (1 + parts.length
                        + (tokens ? LearnedOrder.TOKEN_COLUMNS : 0)))));
        appendVector(out, q, 0);
        int n = Math.min(count, LearnedOrder.FEW);
        double[][] past = readings(words, query, top, n, groups);
        for (int i = 0; i < n; i++) {
            out.append(tools[top[i]].name());
            for (double v : baseFeatures(action, q, lexical, best, top, topScore, i, modelCosine, parts, tokens,
                    past == null ? null : past[i])) {
                out.append('\t').append((float) v);
            }
            appendVector(out, vectors, top[i] * dims);
        }
    }

    private void appendVector(StringBuilder out, float[] v, int from) {
        for (int d = 0; d < dims; d++) {
            out.append('\t').append(v[from + d]);
        }
        out.append('\n');
    }

    /**
     * The readings past the nine of each of the first {@code n} tools of {@code top}, as many of
     * {@link LearnedOrder#GROUPS} as {@code groups} says, one after another: how the request's words match
     * the tool's ({@link TokenMatches#features}), then the kinds of value ({@link ValueKinds#features});
     * null for none.
     */
    private double[][] readings(TokenMatches.Query words, String query, int[] top, int n, int groups) {
        if (words == null || groups == 0) {
            return null;
        }
        double[][] out = new double[n][LearnedOrder.readings(groups)];
        double[][] matched = matches.features(words, top, n);
        int carried = groups > 1 ? ValueKinds.carried(query) : 0;
        for (int i = 0; i < n; i++) {
            System.arraycopy(matched[i], 0, out[i], 0, TokenMatches.COUNT);
            if (groups > 1) {
                System.arraycopy(values.features(carried, top[i]), 0, out[i], TokenMatches.COUNT, ValueKinds.COUNT);
            }
        }
        return out;
    }

    /**
     * The base features of the tool at {@code place}, then {@code past} when given (the readings past the
     * nine, {@link #readings}), then its cosine by each model when {@code modelCosine} is given, then per
     * part of its text of {@code parts} (indices into {@link LearnedOrder#TEXTS}), that part's cosine by each model.
     */
    private double[] baseFeatures(ActionStage.Query action, float[] q, float[] lexical, float best, int[] top,
                                  double[] topScore, int place, ModelCosines modelCosine, int[] parts, boolean tokens,
                                  double[] past) {
        int t = top[place];
        double[] x = LearnedOrder.features(actions, action, t, place, topScore[place], topScore[0],
                ownCosine(q, t), best > 0 ? lexical[t] / best : 0);
        if (modelCosine == null && past == null) {
            return x;
        }
        int models = modelCosine == null ? 0 : modelCosine.models();
        int cosines = models * (1 + parts.length + (tokens ? LearnedOrder.TOKEN_COLUMNS : 0));
        double[] out = java.util.Arrays.copyOf(x, x.length + (past == null ? 0 : past.length) + cosines);
        if (past != null) {
            System.arraycopy(past, 0, out, x.length, past.length);
        }
        int at = out.length - cosines;
        for (int m = 0; m < models; m++) {
            out[at++] = modelCosine.cosine(t, m);
        }
        for (int part : parts) {
            for (int m = 0; m < models; m++) {
                out[at++] = modelCosine.partCosine(t, part, m);
            }
        }
        if (tokens) {
            modelCosine.tokenReadings(t, out, at);
        }
        return out;
    }

    /** The request as {@link TokenMatches} reads it, its words weighted by their IDF in the catalog (1 each when the table's vectors are not weighted); null without the table. */
    private TokenMatches.Query matchQuery(int[] queryIds) {
        if (matches == null) {
            return null;
        }
        return matches.read(queryIds, tokenWeights == null ? null : tokenWeights::idf);
    }

    /**
     * Sorts the first places again by {@code order}'s score (as many as its weights order,
     * {@link LearnedOrder#places}), stable (ties keep
     * the ranking's order); every place keeps its score. {@code modelCosine} is read when the order
     * reads the models' cosines (else null).
     */
    private void learnedOrder(Order order, ModelCosines modelCosine, String query,
                              ActionStage.Query action, float[] q, float[] lexical, float best, int[] top,
                              double[] topScore, int count, TokenMatches.Query words) {
        int n = Math.min(count, order.weights.places());
        if (n < 2) {
            return;
        }
        LearnedOrder weights = order.weights;
        double[] frame = weights.frame(query, action == null || action.verb() == null ? null
                : cosines(action.verb(), order.verbVectors));
        float[] queryMap = order.toolMaps == null ? null : weights.mapQuery(q);
        ModelCosines cosine = order.readsModel() ? modelCosine : null;
        int[] parts = cosine == null ? NO_PARTS : weights.texts();
        boolean tokens = cosine != null && weights.readsTokens();
        int[] moved = new int[n];
        double[] learnedScore = new double[n];
        double[][] past = readings(words, query, top, n, weights.groups());
        for (int i = 0; i < n; i++) {
            moved[i] = top[i];
            learnedScore[i] = weights.score(baseFeatures(action, q, lexical, best, top, topScore, i, cosine,
                    parts, tokens, past == null ? null : past[i]), frame,
                    order.kinds[top[i]], queryMap, order.toolMaps == null ? null : order.toolMaps[top[i]]);
        }
        ActionStage.sortByScore(moved, learnedScore);
        System.arraycopy(moved, 0, top, 0, n);
    }

    /**
     * The query's unit vector: the model's, or the static table's of its token ids {@code ids} pooled as
     * {@link #pooling} says (with a pooling, ids are the table's {@link StaticEmbedder#tokenIds} of the query).
     */
    private float[] queryUnitVector(String query, int[] ids) {
        return pooling == null ? unitVector(embedder, embedder.embed(query)) : unit(queryVector(ids));
    }

    /** The vector of the query's token ids from the static table, pooled as {@link #pooling} says. */
    private float[] queryVector(int[] ids) {
        StaticEmbedder table = (StaticEmbedder) embedder;
        double blend = pooling.queryIdf();
        double prior = pooling.queryPrior();
        java.util.function.IntToDoubleFunction weight = blend == 0 && prior == 0 ? null
                : id -> (blend > 0 ? (1 - blend) + blend * tokenWeights.idf(id) : 1)
                        * (prior > 0 ? table.rankPrior(id, prior) : 1);
        return table.embed(ids, weight, pooling.maxShare());
    }

    /**
     * The cosine this ranking ranks a tool by: of the query's vector {@code q} and the tool's (by its place),
     * by the first of the models its vectors join (the whole vector for one model). With several, the
     * others lend their cosines to a learned order ({@link #cosines}) but do not rank by themselves: the
     * first's cosine alone ranked the catalogs held out whole higher where the rankings are fused
     * (bench/RESULTS.md).
     */
    private double ownCosine(float[] q, int tool) {
        return cosineByModel(q, tool, 0);
    }

    /**
     * The cosine of the query's vector {@code q} and the tool's (by its place) by the model {@code model} of those
     * the vectors join: each model's part is its unit vector scaled by 1/√models.
     */
    private double cosineByModel(float[] q, int tool, int model) {
        return cosineByModel(q, vectors, tool * dims, model);
    }

    /** The same for the vector of {@code dims} floats of {@code m} from {@code from}. */
    private double cosineByModel(float[] q, float[] m, int from, int model) {
        if (models == 1) {
            return dot(q, m, from, dims);
        }
        int width = dims / models;
        return models * dotFrom(q, model * width, m, from + model * width, width);
    }

    /** Higher score first; ties by name in code point order, then declaration order. */
    private boolean before(double score, int tool, double otherScore, int other) {
        if (score != otherScore) {
            return score > otherScore;
        }
        int byName = SearchText.compareCodePoints(tools[tool].name(), tools[other].name());
        return byName != 0 ? byName < 0 : tool < other;
    }

    /**
     * The dot product of {@code q} with the {@code dims} floats of {@code m} from {@code from}: the
     * cost of a search over a large catalog. Eight running sums instead of one let the CPU add
     * several products at once (one sum waits for each addition before the next); over 10,000 tools
     * this halves the time of a scan.
     */
    static double dot(float[] q, float[] m, int from, int dims) {
        return dotFrom(q, 0, m, from, Math.min(q.length, dims));
    }

    /** The dot product of the {@code n} floats of {@code q} from {@code at} with those of {@code m} from {@code from}. */
    static double dotFrom(float[] q, int at, float[] m, int from, int n) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        int i = 0;
        for (; i + 7 < n; i += 8) {
            int o = from + i;
            int p = at + i;
            s0 += q[p] * m[o];
            s1 += q[p + 1] * m[o + 1];
            s2 += q[p + 2] * m[o + 2];
            s3 += q[p + 3] * m[o + 3];
            s4 += q[p + 4] * m[o + 4];
            s5 += q[p + 5] * m[o + 5];
            s6 += q[p + 6] * m[o + 6];
            s7 += q[p + 7] * m[o + 7];
        }
        for (; i < n; i++) {
            s0 += q[at + i] * m[from + i];
        }
        return (double) ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    }

    /**
     * {@code embedder}'s vector of a text, unit length: a joint embedding's as it is (its parts are unit
     * length each, so that each model's cosine reads back from its part; scaling the whole would skew them
     * where a part is all zeros), another's scaled by {@link #unit}.
     */
    private static float[] unitVector(TextEmbedder embedder, float[] vector) {
        return embedder.models().size() > 1 ? vector : unit(vector);
    }

    /**
     * The vector scaled to length 1 (a model's output usually is already: then, or when it is all
     * zeros, the same array); never to be written to, as it may be the argument.
     */
    static float[] unit(float[] vector) {
        double norm = 0;
        for (float v : vector) {
            norm += v * v;
        }
        if (norm == 0 || Math.abs(norm - 1) < 1e-6) {
            return vector;
        }
        double scale = 1 / Math.sqrt(norm);
        float[] out = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            out[i] = (float) (vector[i] * scale);
        }
        return out;
    }
}
