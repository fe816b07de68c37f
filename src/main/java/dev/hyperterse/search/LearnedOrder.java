package dev.hyperterse.search;

import dev.hyperterse.model.ToolDef;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The order of the {@code static} ranking's best tools by a learned score: a linear function of
 * what the ranking and the action stage read of each tool (its score, cosine and BM25 share, its
 * place, the query's mood against the tool's, the cosine of their verbs, the number the query names
 * the tool's object in) plus, for each way a query is put (its first word among the most common
 * first words of agents' requests; whether it holds a number, a quoted word, a word such as "all",
 * a question mark, a word such as "this"; which kind of tool its verb is nearest to; which of the
 * words agents' requests most often hold it holds, wherever: "who", "new", "running") and each kind of
 * tool (the first word its name holds, past the words half its catalog's names carry, of the verbs
 * tools' names most often start with: {@code get}, {@code list}, {@code create}, …; whether its name
 * has a plural), a learned weight: "which inboxes …" puts a {@code list_} tool
 * before a {@code get_} one, "add a line to that invoice" a {@code create_} one before another; and
 * a bilinear form of the query's and the tool's static vectors, each mapped to a few numbers and
 * their dot product taken; and, where the weights hold one, a small hidden layer over the base
 * features (a few units, each a weighted tanh of their weighted sum), which reads them together.
 * Past the nine, the base features may hold how closely the request's words match each tool's
 * ({@link TokenMatches}) and then the kinds of value the request carries against those each tool
 * takes ({@link ValueKinds}: a URL and a {@code url} input, "issue 42" and a number).
 * The weights
 * and the word lists are learned by {@code bench/search/rerank/train.py} from requests to real
 * catalogs, a softmax over each request's best tools (as many as the order sorts), and shipped as
 * {@value #RESOURCE}. The first places, as many as the weights say ({@link #places()}: thirty in
 * {@code static}'s, twenty in {@code semantic}'s), are sorted again by that score; each place
 * keeps its score. The {@code semantic} ranking's weights ({@value #SEMANTIC_RESOURCE}) read a
 * base feature more per model they name ({@link #models()}): the cosine of the query's and the tool's
 * vectors by that model; then, per part of the tool's text they name ({@link #texts()}: its name, lead or
 * description), that part's cosine by each model; then, when they say so ({@link #readsTokens()}), the readings of
 * the models' token vectors of the tool's lead and whole text against the request's. Immutable and safe to share
 * between threads.
 */
final class LearnedOrder {

    static final String RESOURCE = "learned-order.tsv";
    /** The weights of the order the {@code semantic} ranking puts the static ranking's best tools and the models' picks in ({@link #MODEL_PICKS}). */
    static final String SEMANTIC_RESOURCE = "learned-order-semantic.tsv";
    /**
     * The most of the ranking's best tools an order puts in order again (and the bench's dump holds
     * per request): {@code static}'s weights order thirty. Before any order, the ranking's first
     * thirty hold a right tool for 99.0 % of the requests to the bench's fourteen sets of catalogs
     * held out whole, its first twenty for 98.0 %, and the order lifts some of those into the ten
     * (bench/RESULTS.md).
     */
    static final int FEW = 30;
    /** The places an order that reads the models' cosines sorts: the ranking's first, then the models' picks. */
    static final int MODEL_POOL = 20;
    /**
     * Of {@link #MODEL_POOL}, the last places, which go to the tools the models find nearest among those
     * the ranking did not place before them. With six, a right tool is among the twenty for 98.6 % of the
     * bench's requests against 97.8 % with the ranking's twenty (three 98.4 %, eight 98.6 %, ten 98.5 %;
     * bench/RESULTS.md).
     */
    static final int MODEL_PICKS = 6;
    /** How many places weights that do not say ({@code places} line) were learned to order. */
    static final int DEFAULT_PLACES = 20;
    /** The features each tool has from the ranking and the action stage (more per model's cosines, {@link #models()}). */
    static final int BASE = 9;
    /**
     * The groups of readings weights may read after the {@link #BASE}, each only with those before it, in
     * this order: how closely the request's words match the tool's ({@link TokenMatches#features}), then
     * the kinds of value the request carries against those the tool takes ({@link ValueKinds#features}).
     */
    static final int[] GROUPS = {TokenMatches.COUNT, ValueKinds.COUNT};
    private static final String[] GROUP_NAMES = {"the word matches", "the kinds of value too"};
    /**
     * The parts of a tool's text whose cosines with the request, by each model, weights may read after the
     * whole text's ({@code texts} line), in this order: its name as words (and title), its lead (name and
     * the description's first sentence) and its description. A model reads a short text apart from the rest:
     * "list policies" against "fetch policy" where the whole texts, which share their inputs, are close.
     */
    static final List<String> TEXTS = List.of("name", "lead", "description");
    /** Every part of {@link #TEXTS}, by index. */
    static final int[] ALL_TEXTS = java.util.stream.IntStream.range(0, TEXTS.size()).toArray();
    /**
     * The texts of a tool whose tokens' vectors, by each model, weights may read after the parts' cosines
     * ({@code tokens} line), in this order: its lead and its whole text (as the models embed it: name, description,
     * inputs, examples). Per
     * model and text two readings, {@link #TOKEN_READINGS}: how well each of the request's tokens finds its best
     * match among the text's, on average, and each of the text's among the request's ({@link LateInteraction}).
     * The request's "make" meets the lead's "create", and its "who can push" an input's "permission", where a
     * text's one vector averages them with every other word.
     */
    static final List<String> TOKEN_TEXTS = List.of("lead", "text");
    /** The readings per model and text of {@link #TOKEN_TEXTS}. */
    static final int TOKEN_READINGS = 2;
    /** The token readings per model, of all {@link #TOKEN_TEXTS}: what weights that read tokens read per model. */
    static final int TOKEN_COLUMNS = TOKEN_READINGS * TOKEN_TEXTS.size();
    private static final Set<String> QUANTIFIERS = Set.of("all", "every", "each", "any");
    private static final Set<String> DEICTIC = Set.of("this", "that", "it");

    private final List<String> verbs;
    private final Map<String, Integer> firstWords;
    /** Words a request may hold anywhere ("who", "new", "running"), each a way it is put; by place. */
    private final Map<String, Integer> heldWords;
    private final double[] base;
    /** Per way a query is put, per kind of tool (each verb, then any other, then a plural name). */
    private final double[][] pairs;

    /**
     * A low-rank bilinear form of the query's and a tool's static vectors, {@code (Uᵀq)·(Vᵀt)}: what
     * the table's dimensions say of a request against a tool, beyond their cosine (rows: the table's
     * dimensions; columns: the rank). Empty when the weights have none.
     */
    private final float[][] queryMap;
    private final float[][] toolMap;

    /** The static table the weights were learned with ({@link StaticEmbedder#model()}), or null: any. */
    private final String table;
    /** The models whose cosines are the last base features, in order ({@link TextEmbedder#models()}); empty: none. */
    private final List<String> models;
    /** The parts of a tool's text ({@link #TEXTS}, by index) whose cosines by each model follow the whole text's. */
    private final int[] texts;
    /** Whether the token vectors of a tool's texts ({@link #TOKEN_TEXTS}), by each model, are read after the parts' cosines. */
    private final boolean tokens;
    /** The {@link TokenBasis#tag} of the map the token vectors were read through when learned (null: as the models give them). */
    private final String tokenBasis;
    /** How many of the ranking's best tools these weights put in order (2 to {@link #FEW}, as {@link #read} checks). */
    private final int places;
    /** How many of {@link #GROUPS} the base weights read after the {@link #BASE}, in that order. */
    private final int groups;
    /**
     * A hidden layer over the base features, one row per unit: a weight per base feature, the unit's
     * bias, then its weight in the score ({@code a · tanh(wᵀx + c)} added per unit); empty when the
     * weights have none. It reads the base features together (a cosine that counts more when the
     * BM25 share is low, a verb cosine that counts only with a high score), which their linear
     * weights cannot.
     */
    private final double[][] hidden;

    private LearnedOrder(String table, List<String> models, List<String> texts, boolean tokens, String tokenBasis, int places,
                         List<String> verbs,
                         List<String> first, List<String> held, double[] base, double[][] pairs, double[][] u,
                         double[][] v, double[][] hidden) {
        this.table = table;
        this.models = List.copyOf(models);
        if (!texts.isEmpty() && models.isEmpty()) {
            throw new IllegalArgumentException("learned order: the parts " + texts + " of a tool's text are read by a model,"
                    + " and the weights name none");
        }
        if (tokens && models.isEmpty()) {
            throw new IllegalArgumentException("learned order: the token vectors of a tool's texts are read by a model,"
                    + " and the weights name none");
        }
        this.texts = texts.stream().mapToInt(TEXTS::indexOf).toArray();
        if (tokenBasis != null && !tokens) {
            throw new IllegalArgumentException("learned order: a basis for the token vectors of weights that read none");
        }
        this.tokens = tokens;
        this.tokenBasis = tokenBasis;
        this.places = places;
        this.verbs = List.copyOf(verbs);
        this.firstWords = places(first);
        this.heldWords = places(held);
        if (firstWords.size() != first.size() || heldWords.size() != held.size()
                || new HashSet<>(verbs).size() != verbs.size()) {
            throw new IllegalArgumentException("learned order: a word or a verb listed twice");
        }
        // a word frame() can never read (empty, upper case, a space or a hyphen in it) would be a dead row
        for (String w : java.util.stream.Stream.concat(first.stream(), held.stream()).toList()) {
            if (!w.matches("[a-z0-9']+")) {
                throw new IllegalArgumentException("learned order: \"" + w + "\" is no word a request is read as"
                        + " (runs of a-z, 0-9 and ')");
            }
        }
        this.base = base;
        this.pairs = pairs;
        int own = base.length - models.size() * (1 + texts.size() + (tokens ? TOKEN_COLUMNS : 0));
        int groups = 0;
        while (groups < GROUPS.length && BASE + readings(groups) < own) {
            groups++;
        }
        if (BASE + readings(groups) != own || pairs.length != first.size() + 6 + verbs.size() + held.size()) {
            StringBuilder sizes = new StringBuilder().append(BASE);
            for (int g = 1; g <= GROUPS.length; g++) {
                sizes.append("; with ").append(GROUP_NAMES[g - 1]).append(", ").append(BASE + readings(g));
            }
            throw new IllegalArgumentException("learned order: " + base.length + " base weights (" + sizes
                    + (models.isEmpty() ? "" : "; one more per model's cosine and per part of the text read, "
                            + models.size() * (1 + texts.size()) + (tokens ? ", and " + TOKEN_COLUMNS
                            + " per model for the token vectors of " + TOKEN_TEXTS + ", " + models.size() * TOKEN_COLUMNS : ""))
                    + " expected) and " + pairs.length
                    + " query rows for " + first.size() + " first words, " + verbs.size() + " verbs and "
                    + held.size() + " words");
        }
        this.groups = groups;
        for (double[] row : pairs) {
            if (row.length != verbs.size() + 2) {
                throw new IllegalArgumentException("learned order: a row of " + row.length + " weights for "
                        + verbs.size() + " verbs");
            }
        }
        if (u.length != v.length || u.length > 0 && (u[0].length == 0 || java.util.stream.Stream.of(u, v)
                .flatMap(java.util.Arrays::stream).anyMatch(row -> row.length != u[0].length))) {
            throw new IllegalArgumentException("learned order: the query's and the tool's maps differ in shape");
        }
        this.queryMap = floats(u);
        this.toolMap = floats(v);
        for (double[] unit : hidden) {
            if (unit.length != base.length + 2) {
                throw new IllegalArgumentException("learned order: a hidden unit of " + unit.length + " numbers, "
                        + (base.length + 2) + " expected (a weight per base feature, its bias, its weight in the score)");
            }
        }
        this.hidden = hidden;
    }

    private static Map<String, Integer> places(List<String> words) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < words.size(); i++) {
            index.putIfAbsent(words.get(i), i);
        }
        return Map.copyOf(index);
    }

    private static float[][] floats(double[][] rows) {
        float[][] out = new float[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            out[i] = new float[rows[i].length];
            for (int j = 0; j < rows[i].length; j++) {
                out[i][j] = (float) rows[i][j];
            }
        }
        return out;
    }

    /**
     * Whether these weights were learned with the static table {@code model} (vectors of {@code dims}
     * dimensions): the readings they weigh, the form's maps above all, mean something only with it.
     */
    boolean learnedWith(String model, int dims) {
        return (table == null || table.equals(model)) && (queryMap.length == 0 || queryMap.length == dims);
    }

    /** The static table these weights were learned with, or null when they do not say. */
    String table() {
        return table;
    }

    /**
     * The models whose cosines of the query's and a tool's vectors these weights read as their last base
     * features, in that order; empty when they read none (the {@code static} ranking's).
     */
    List<String> models() {
        return models;
    }

    /**
     * The parts of a tool's text ({@link #TEXTS}, by index) whose cosines with the query, by each model,
     * these weights read after the models' cosines of the whole text: per part, a cosine per model.
     */
    int[] texts() {
        return texts.clone();
    }

    /**
     * Whether these weights read the token vectors of each tool's texts ({@link #TOKEN_TEXTS}) against the
     * request's, by each model, after the parts' cosines: {@link #TOKEN_COLUMNS} per model.
     */
    boolean readsTokens() {
        return tokens;
    }

    /**
     * The {@link TokenBasis#tag} of the map the token vectors were read through when these weights were learned
     * ({@code basis} line); null: as the models give them. A ranking whose token vectors are mapped otherwise does
     * not serve them.
     */
    String tokenBasis() {
        return tokenBasis;
    }

    /**
     * Whether these weights read how closely the request's words match each tool's ({@link TokenMatches}),
     * after the {@link #BASE} features and before the models' cosines.
     */
    boolean readsMatches() {
        return groups > 0;
    }

    /**
     * Whether these weights read the kinds of value the request carries against those each tool takes
     * ({@link ValueKinds}), after the word matches and before the models' cosines.
     */
    boolean readsValues() {
        return groups > 1;
    }

    /** How many of {@link #GROUPS} these weights read after the {@link #BASE}, in that order (0 to all). */
    int groups() {
        return groups;
    }

    /** How many readings the first {@code groups} of {@link #GROUPS} give. */
    static int readings(int groups) {
        int n = 0;
        for (int g = 0; g < groups; g++) {
            n += GROUPS[g];
        }
        return n;
    }

    /** How many of the ranking's best tools these weights put in order. */
    int places() {
        return places;
    }

    /** How many units the hidden layer over the base features has (0: none). */
    int hiddenUnits() {
        return hidden.length;
    }

    /** Whether the weights hold a bilinear form. */
    boolean mapsVectors() {
        return queryMap.length > 0;
    }

    /** {@code Uᵀq}: the query's vector mapped to the form's rank. */
    float[] mapQuery(float[] q) {
        return map(queryMap, q, 0);
    }

    /** {@code Vᵀt} of the {@code dims} floats of {@code vectors} from {@code from}: a tool's vector mapped. */
    float[] mapTool(float[] vectors, int from) {
        return map(toolMap, vectors, from);
    }

    private static float[] map(float[][] m, float[] v, int from) {
        double[] sum = new double[m[0].length];
        for (int d = 0; d < m.length; d++) {
            double x = v[from + d];
            for (int r = 0; r < sum.length; r++) {
                sum[r] += x * m[d][r];
            }
        }
        float[] out = new float[sum.length];
        for (int r = 0; r < out.length; r++) {
            out[r] = (float) sum[r];
        }
        return out;
    }

    private static LearnedOrder load(String resource) {
        try (InputStream in = LearnedOrder.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return read(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(resource + ": " + e.getMessage(), e);
        }
    }

    /** Weights in the jar, read once; or why they could not be, given to every caller (not a class that failed to load). */
    private record Bundled(LearnedOrder order, RuntimeException failure) {
        static Bundled read(String resource) {
            try {
                return new Bundled(load(resource), null);
            } catch (RuntimeException e) {
                return new Bundled(null, e);
            }
        }

        LearnedOrder get() {
            if (failure != null) {
                throw failure;
            }
            return order;
        }
    }

    private static final class Holder {
        static final Bundled BUNDLED = Bundled.read(RESOURCE);
    }

    private static final class SemanticHolder {
        static final Bundled BUNDLED = Bundled.read(SEMANTIC_RESOURCE);
    }

    /** The weights shipped in the jar (read on first use); throws when they cannot be read. */
    static LearnedOrder bundled() {
        return Holder.BUNDLED.get();
    }

    /** The {@code semantic} ranking's weights shipped in the jar (read on first use); throws when they cannot be read. */
    static LearnedOrder bundledSemantic() {
        return SemanticHolder.BUNDLED.get();
    }

    /**
     * Whether the {@code semantic} ranking's weights shipped in the jar read the token vectors of each tool's
     * texts ({@link #readsTokens}): only then does a ranking by the models hold them. False when they cannot be
     * read (the ranking says why where it orders).
     */
    static boolean semanticReadsTokens() {
        try {
            return bundledSemantic().readsTokens();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Reads weights written by {@code train.py}: lines {@code table\tNAME} (the static table they were
     * learned with; optional), {@code model\tNAME…} (the models whose cosines are the last base features,
     * in that order; optional), {@code texts\tPART…} (the parts of a tool's text, of {@link #TEXTS}, whose cosines
     * by each model follow: per part, one per model; optional, with models only), {@code tokens\tlead\ttext} (the
     * token vectors of a tool's texts are read after the parts' cosines, {@link #TOKEN_COLUMNS} per model;
     * optional, with models only), {@code basis\tTAG} (the map those token vectors were read through, {@link
     * TokenBasis#tag}; optional, with tokens only), {@code places\tN} (how many of the ranking's best tools they order; optional,
     * {@value #DEFAULT_PLACES} when absent), {@code verbs\tW…}, {@code first\tW…}, optionally {@code words\tW…}
     * (words a request may hold anywhere), {@code base\tX…}, one {@code pair\tX…} per way a query is put, optionally the bilinear form's maps, one
     * {@code u\tX…} and one {@code v\tX…} per dimension of the table (a number per rank), and
     * optionally a hidden layer over the base features, one {@code hidden\tX…} per unit (a weight per
     * base feature, the unit's bias, its weight in the score); {@code #} comments.
     */
    static LearnedOrder read(BufferedReader reader) throws IOException {
        String table = null;
        List<String> models = List.of();
        List<String> texts = List.of();
        boolean tokens = false;
        String basis = null;
        int places = DEFAULT_PLACES;
        List<String> verbs = null;
        List<String> first = null;
        List<String> held = List.of();
        double[] base = null;
        List<double[]> pairs = new ArrayList<>();
        List<double[]> u = new ArrayList<>();
        List<double[]> v = new ArrayList<>();
        List<double[]> hidden = new ArrayList<>();
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            List<String> rest = List.of(f).subList(1, f.length);
            try {
                switch (f[0]) {
                    case "table" -> table = String.join("\t", rest);
                    case "model" -> models = modelNames(rest, number);
                    case "texts" -> texts = textNames(rest, number);
                    case "tokens" -> tokens = tokenTexts(rest, number);
                    case "basis" -> basis = basisTag(rest, number);
                    case "places" -> places = places(String.join("\t", rest), number);
                    case "verbs" -> verbs = rest;
                    case "first" -> first = rest;
                    case "words" -> held = rest;
                    case "base" -> base = numbers(rest);
                    case "pair" -> pairs.add(numbers(rest));
                    case "u" -> u.add(numbers(rest));
                    case "v" -> v.add(numbers(rest));
                    case "hidden" -> hidden.add(numbers(rest));
                    default -> throw new IOException("line " + number + ": unknown key " + f[0]);
                }
            } catch (NumberFormatException e) {
                throw new IOException("line " + number + ": " + e.getMessage(), e);
            }
        }
        if (verbs == null || first == null || base == null) {
            throw new IOException("verbs, first or base missing");
        }
        return new LearnedOrder(table, models, texts, tokens, basis, places, verbs, first, held, base, pairs.toArray(double[][]::new),
                u.toArray(double[][]::new), v.toArray(double[][]::new), hidden.toArray(double[][]::new));
    }

    /** A {@code model} line's names: at least one, none empty or given twice. */
    private static List<String> modelNames(List<String> names, int line) throws IOException {
        if (names.isEmpty() || names.stream().anyMatch(String::isBlank) || new HashSet<>(names).size() != names.size()) {
            throw new IOException("line " + line + ": model names a model or more, each once, not " + names);
        }
        return names;
    }

    /** A {@code texts} line's parts of a tool's text: some of {@link #TEXTS}, each once, in that order. */
    private static List<String> textNames(List<String> names, int line) throws IOException {
        int last = -1;
        boolean inOrder = !names.isEmpty();
        for (String name : names) {
            int at = TEXTS.indexOf(name);
            inOrder &= at > last;
            last = at;
        }
        if (!inOrder) {
            throw new IOException("line " + line + ": texts names parts of a tool's text, some of " + TEXTS
                    + ", each once and in that order, not " + (names.isEmpty() ? "none" : names));
        }
        return names;
    }

    /** A {@code tokens} line's parts of a tool's text: {@link #TOKEN_TEXTS}, the only ones read so. */
    private static boolean tokenTexts(List<String> names, int line) throws IOException {
        if (!names.equals(TOKEN_TEXTS)) {
            throw new IOException("line " + line + ": tokens names the parts of a tool's text whose token vectors are"
                    + " read, " + TOKEN_TEXTS + ", not " + (names.isEmpty() ? "none" : names));
        }
        return true;
    }

    /** A {@code basis} line's tag: one word of hexadecimal digits. */
    private static String basisTag(List<String> rest, int line) throws IOException {
        if (rest.size() != 1 || !rest.get(0).matches("[0-9a-f]{1,64}")) {
            throw new IOException("line " + line + ": basis names the tag of a token basis (hexadecimal digits), not "
                    + String.join(" ", rest));
        }
        return rest.get(0);
    }

    /** A {@code places} line's number: how many places the weights order, 2 to {@link #FEW}. */
    private static int places(String text, int line) throws IOException {
        int places;
        try {
            places = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            places = -1;
        }
        if (places < 2 || places > FEW) {
            throw new IOException("line " + line + ": places \"" + text + "\" is no whole number from 2 to " + FEW
                    + " (how many of the ranking's best tools the weights put in order)");
        }
        return places;
    }

    private static double[] numbers(List<String> text) {
        double[] out = new double[text.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Double.parseDouble(text.get(i));
            if (!Double.isFinite(out[i])) {
                throw new NumberFormatException("not a finite weight: " + text.get(i));
            }
        }
        return out;
    }

    /** Each tool's kind: the index of its name's verb among {@link #verbs} (their count: another), and a plural bit. */
    int[] kinds(ToolDef[] tools) {
        String[][] own = ownWords(tools);
        int[] kinds = new int[tools.length];
        for (int t = 0; t < tools.length; t++) {
            int verb = verbs.size();
            boolean plural = false;
            for (String w : own[t]) {
                if (verb == verbs.size() && verbs.contains(w)) {
                    verb = verbs.indexOf(w);
                }
                plural |= w.length() > 3 && w.endsWith("s") && !w.endsWith("ss");
            }
            kinds[t] = verb << 1 | (plural ? 1 : 0);
        }
        return kinds;
    }

    /**
     * Each tool's name's words ({@link #nameWords}) in order, without the words half the catalog's
     * names carry when it has four tools or more ({@code kubectl_}, {@code API-}: no verb of their own).
     */
    static String[][] ownWords(ToolDef[] tools) {
        String[][] names = new String[tools.length][];
        Map<String, Integer> carrying = new HashMap<>();
        for (int t = 0; t < tools.length; t++) {
            names[t] = nameWords(tools[t].name());
            for (String w : new HashSet<>(List.of(names[t]))) {
                carrying.merge(w, 1, Integer::sum);
            }
        }
        for (int t = 0; t < tools.length; t++) {
            names[t] = java.util.Arrays.stream(names[t])
                    .filter(w -> tools.length < 4 || carrying.get(w) * 2 < tools.length).toArray(String[]::new);
        }
        return names;
    }

    /** A name's words: split at case changes and at anything but ASCII letters and digits, lower case. */
    static String[] nameWords(String name) {
        String split = name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        return java.util.Arrays.stream(split.split("[^a-z0-9]+")).filter(w -> !w.isEmpty()).toArray(String[]::new);
    }

    /** Each kind of tool's verb as a unit vector, as the stage reads a tool's verb. */
    float[][] verbVectors(ActionStage stage) {
        return verbs.stream().map(stage::toolVerbVector).toArray(float[][]::new);
    }

    /**
     * How the query is put: its first word's place among the first words (else another), five
     * marks, which kind of tool its verb is nearest to ({@code verbCosines}: the cosine of the
     * query's verb with each kind's, in {@link #verbVectors}' order; null when it has no verb), then
     * which of the held words it holds, wherever they stand.
     */
    double[] frame(String query, double[] verbCosines) {
        int n = firstWords.size();
        double[] f = new double[n + 6 + verbs.size() + heldWords.size()];
        if (verbCosines != null) {
            int nearest = 0;
            for (int v = 1; v < verbCosines.length; v++) {
                if (verbCosines[v] > verbCosines[nearest]) {
                    nearest = v;
                }
            }
            f[n + 6 + nearest] = 1;
        }
        String lower = query.toLowerCase(Locale.ROOT);
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= lower.length(); i++) {
            char c = i < lower.length() ? lower.charAt(i) : ' ';
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '\'') {
                word.append(c);
            } else if (word.length() > 0) {
                words.add(word.toString());
                word.setLength(0);
            }
        }
        for (String w : words) {
            Integer held = heldWords.get(w);
            if (held != null) {
                f[n + 6 + verbs.size() + held] = 1;
            }
        }
        Integer first = words.isEmpty() ? null : firstWords.get(words.get(0));
        f[first == null ? n : first] = 1;
        boolean digit = false;
        boolean quoted = false;
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            digit |= Character.isDigit(c);
            if ((c == '"' || c == '\u201c' || c == '\'') && i + 1 < query.length()) {
                char next = query.charAt(i + 1);
                quoted |= Character.isLetterOrDigit(next) || next == '_';
            }
        }
        f[n + 1] = digit ? 1 : 0;
        f[n + 2] = quoted ? 1 : 0;
        f[n + 3] = words.stream().anyMatch(QUANTIFIERS::contains) ? 1 : 0;
        f[n + 4] = query.strip().endsWith("?") ? 1 : 0;
        f[n + 5] = words.stream().anyMatch(DEICTIC::contains) ? 1 : 0;
        return f;
    }

    /**
     * The learned score of a tool of kind {@code kind} with the base features {@code x} under a query
     * put as {@code frame}, the query's and the tool's mapped vectors {@code query} and {@code tool}
     * (null when the weights have no bilinear form); {@code x} ends with the models' cosines when the
     * weights read them ({@link #models()}), those of the whole text, then per part ({@link #texts()}) each model's.
     */
    double score(double[] x, double[] frame, int kind, float[] query, float[] tool) {
        double s = 0;
        if (query != null) {
            for (int r = 0; r < query.length; r++) {
                s += query[r] * tool[r];
            }
        }
        for (int i = 0; i < base.length; i++) {
            s += base[i] * x[i];
        }
        for (double[] unit : hidden) {
            double z = unit[base.length];
            for (int i = 0; i < base.length; i++) {
                z += unit[i] * x[i];
            }
            s += unit[base.length + 1] * Math.tanh(z);
        }
        int verb = kind >> 1;
        int plural = verbs.size() + 1;
        for (int f = 0; f < frame.length; f++) {
            if (frame[f] != 0) {
                s += frame[f] * (pairs[f][verb] + ((kind & 1) != 0 ? pairs[f][plural] : 0));
            }
        }
        return s;
    }

    /**
     * The base features of the tool at place {@code place} (0 first) of the ranking: its score,
     * cosine and BM25 share, the reciprocal of its place, its score less the first's, the query's
     * mood times the tool's, the cosine of their verbs and whether both have one, and the number
     * the query names its object in.
     */
    static double[] features(ActionStage stage, ActionStage.Query q, int tool, int place, double score,
                             double firstScore, double cosine, double bm25Share) {
        double mood = q == null ? 0 : q.mood() * stage.toolMood(tool);
        double verb = q == null ? Double.NaN : stage.verbCosine(q, tool);
        return new double[] {score, cosine, bm25Share, 1.0 / (place + 1), score - firstScore, mood,
                Double.isNaN(verb) ? 0 : verb, Double.isNaN(verb) ? 0 : 1, q == null ? 0 : stage.number(q.words(), tool)};
    }
}
