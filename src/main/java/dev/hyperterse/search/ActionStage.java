package dev.hyperterse.search;

import dev.hyperterse.model.ToolAnnotations;
import dev.hyperterse.model.ToolDef;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A ranking stage that reads what a query asks to do against what each of the best tools does,
 * so that a sibling tool (same object, another action: {@code create_issue} and
 * {@code update_issue}, {@code drop-index} and {@code create-index}) does not outrank the right one
 * only because its words are as close. A bag of word vectors sees no roles: "make a new namespace"
 * is as near to deleting a namespace as to creating one.
 *
 * <p>Three readings, each weighed by {@link ActionWeights}:
 * <ul>
 * <li><b>Mood</b>, read or write. A question ("which pods are running", "did CI pass", "how many
 * …") asks to read (+1). Otherwise the query's leading verb, as an imperative is phrased ("remove the
 * old cronjob", "please open a PR"), reads or changes by its place between the verbs of reading and
 * of changing that SQL and HTTP name (SELECT, SHOW, EXPLAIN, DESCRIBE, GET against INSERT, UPDATE,
 * DELETE, MERGE, TRUNCATE, DROP, POST, PUT, PATCH): the best cosine of its vector to the first
 * minus the best to the second, in −1..1. A tool reads or writes by its MCP hints when it has them
 * (read-only: +1; not read-only or destructive: −1; a database tool's are inferred from its
 * statement), else by its verb the same way.</li>
 * <li><b>Verb</b>: the cosine between the query's verb and the tool's (the verb its name starts
 * with, after a leading word that is no verb such as {@code kubectl_}, else the one its description
 * starts with), both from the static table's token vectors. A tool's verb is its author's term
 * ({@code create}, {@code delete}), so its vector is mixed with the mean of the vectors of the
 * other verbs of its first sense in WordNet ({@code make}; {@code cancel}), which are nearer the
 * words an agent says for the act; a query's multi-word verb, whose words pooled say little ("get
 * rid of" is near "get"), mostly by them ({@code remove}). The mood reads the mixed vectors
 * too.</li>
 * <li><b>Number</b>: whether the query names the tool's object in the form its name has ("which
 * issues are open" and {@code list_issues}) or in the other ({@code get_issue}).</li>
 * <li><b>Object</b>: how near the query's content words (its words beside its verb and words of
 * grammar) are to what the tool acts on: its name's words beside its action and the words half the
 * catalog's names carry ({@code kubectl_}, {@code API-}), or, when its name has none, the words after
 * its description's verb. The mean of each object word's best cosine to a query word and each query
 * word's best cosine to an object word, by the static table's word vectors (a word and its plural
 * count as one), each word weighted by how rare it is among the catalog's names ({@code collection}
 * in a database's tools says less than {@code index}): "which pods are running" is nearer
 * {@code list_pods} than {@code list_nodes}.</li>
 * </ul>
 * Only the first few tools whose score is within a margin of the best move, and (as the weights
 * say) only the best tool and its siblings, tools whose names share a word beside the action: they
 * are sorted again among the places they hold, so no other tool moves and every place keeps its
 * score. The ranking hands the stage its best tools as far as {@link ActionWeights#reach} says,
 * however many hits are asked for and below its floor too: a tool that does what the query asks
 * then rises into the hits from below them, taking a place and its score, and the one it
 * displaces drops out. Verbs are told from other words by WordNet's list of verbs
 * ({@link VerbLexicon}). Built once per snapshot; immutable and safe to share between threads.
 */
final class ActionStage {

    /** The words of a query the stage reads: an action and its object are named early. */
    static final int MAX_QUERY_WORDS = 64;
    /** Words of asking before the verb of an imperative. */
    private static final Set<String> ASKING = Set.of("please", "kindly", "can", "could", "would", "will", "you",
            "i", "i'd", "i'll", "we", "we'd", "let", "let's", "lets", "me", "us", "just", "now", "then", "so", "and",
            "also", "want", "need", "like", "to", "help", "try", "first", "ok", "okay");
    /** Words that follow a verb and not a noun: articles, pronouns, particles. */
    private static final Set<String> AFTER_A_VERB = Set.of("a", "an", "the", "this", "that", "these", "those", "my",
            "our", "your", "their", "its", "his", "her", "me", "us", "them", "it", "all", "every", "each", "some",
            "any", "up", "down", "out", "off", "back", "over", "in", "on", "into", "to");
    /** Quantifiers, which name how many and not what. */
    private static final Set<String> QUANTIFIERS = Set.of("many", "much", "few", "several", "both", "one", "more",
            "most", "other");
    /** Prepositions and conjunctions, which name no object. */
    private static final Set<String> LINKING = Set.of("of", "for", "from", "with", "by", "as", "at", "about", "and",
            "or", "but", "not", "if", "than", "via", "per", "within", "without", "under", "across", "between");
    /** Auxiliaries name no action of their own. */
    private static final Set<String> AUXILIARIES = Set.of("be", "do", "have");
    /** Words a question starts with: question words, and auxiliaries put before their subject. */
    private static final Set<String> QUESTION = Set.of("what", "what's", "which", "who", "who's", "whom", "whose",
            "where", "where's", "when", "why", "how", "how's", "is", "are", "was", "were", "isn't", "aren't", "do",
            "does", "did", "doesn't", "don't", "didn't", "has", "have", "had", "hasn't", "haven't");
    /** Verbs that read, as SQL and HTTP name them. */
    private static final List<String> READING = List.of("select", "show", "explain", "describe", "get");
    /** Verbs that change, as SQL and HTTP name them. */
    private static final List<String> CHANGING = List.of("insert", "update", "delete", "merge", "truncate", "drop",
            "post", "put", "patch");

    /**
     * What a query asks: its mood (−1 write .. +1 read, 0 unknown), its verb's unit vector (or null),
     * its words, and its content words (folded to the singular) with their unit vectors when the
     * object is read (else empty).
     */
    record Query(double mood, float[] verb, String[] words, String[] content, float[][] contentVectors,
                 double[] contentWeights) {
        Query(double mood, float[] verb, String[] words) {
            this(mood, verb, words, new String[0], new float[0][], new double[0]);
        }
    }

    private final VerbLexicon lexicon;
    private final StaticEmbedder table;
    private final ActionWeights weights;
    private final float[][] reading;
    private final float[][] changing;
    /** Per tool, the unit vector of its verb, mixed with its synonyms' (null when none can be read). */
    private final float[][] toolVerbs;
    /** Per tool, whether it reads (+1) or writes (−1), or between when only its verb says; 0 unknown. */
    private final double[] toolMood;
    /** Per tool, the words of its name as written (lower case, longer than two letters). */
    private final Set<String>[] nameForms;
    /** Per tool, the words of its name that are not its action nor common to the catalog: what it acts on. */
    private final Set<String>[] objects;
    /** Per tool, what it acts on as read against a query (singular forms; the description's when the name has none). */
    private final String[][] objectWords;
    /** Per tool, the unit vectors of {@link #objectWords} (of the words as written). */
    private final float[][][] objectVectors;
    /** Per tool, the weight of each of {@link #objectWords}: how rare it is among the catalog's names. */
    private final double[][] objectWeights;
    /** How many of the catalog's names carry each word (singular forms), for the weight of a query's word. */
    private final java.util.Map<String, Integer> nameFrequency;
    private final int nameCount;

    @SuppressWarnings("unchecked")
    ActionStage(ToolDef[] tools, VerbLexicon lexicon, StaticEmbedder table, ActionWeights weights) {
        this.lexicon = lexicon;
        this.table = table;
        this.weights = weights;
        this.reading = READING.stream().map(table::embed).toArray(float[][]::new);
        this.changing = CHANGING.stream().map(table::embed).toArray(float[][]::new);
        this.toolVerbs = new float[tools.length][];
        this.toolMood = new double[tools.length];
        this.objects = new Set[tools.length];
        this.nameForms = new Set[tools.length];
        this.objectWords = new String[tools.length][];
        this.objectVectors = new float[tools.length][][];
        this.objectWeights = new double[tools.length][];
        java.util.Map<String, float[]> wordVectors = new java.util.HashMap<>();
        String[][] names = new String[tools.length][];
        for (int t = 0; t < tools.length; t++) {
            names[t] = words(HybridRanking.words(tools[t].name()));
        }
        // how many names carry each word, as written (words half the names carry, such as kubectl_,
        // browser_, API-, say nothing about what a tool acts on) and in its singular form (how rare
        // an object word is); counted only when what a tool acts on is read
        java.util.Map<String, Integer> nameWordCounts = new java.util.HashMap<>();
        java.util.Map<String, Integer> frequency = new java.util.HashMap<>();
        if (weights.siblings() || weights.object() > 0) {
            for (String[] name : names) {
                for (String w : new java.util.HashSet<>(List.of(name))) {
                    nameWordCounts.merge(w, 1, Integer::sum);
                    frequency.merge(singular(w), 1, Integer::sum);
                }
            }
        }
        this.nameCount = tools.length;
        this.nameFrequency = java.util.Map.copyOf(frequency);
        java.util.Map<String, float[]> verbVectors = new java.util.HashMap<>();
        for (int t = 0; t < tools.length; t++) {
            String[] nameWords = names[t];
            String fromName = leadingVerb(nameWords);
            if (weights.siblings()) {
                Set<String> object = new java.util.HashSet<>();
                for (String w : nameWords) {
                    if (namesObject(w, fromName, nameWordCounts, tools.length)) {
                        object.add(singular(w));
                    }
                }
                objects[t] = object;
            }
            if (weights.object() > 0) {
                List<String> read = new ArrayList<>();
                for (String w : nameWords) {
                    if (namesObject(w, fromName, nameWordCounts, tools.length) && !grammar(w) && !read.contains(w)) {
                        read.add(w);
                    }
                }
                if (read.isEmpty()) {
                    read = descriptionObject(words(tools[t].description()));
                }
                objectWords[t] = read.stream().map(ActionStage::singular).toArray(String[]::new);
                objectVectors[t] = new float[read.size()][];
                objectWeights[t] = new double[read.size()];
                for (int k = 0; k < read.size(); k++) {
                    objectVectors[t][k] = wordVectors.computeIfAbsent(read.get(k), table::embed);
                    objectWeights[t][k] = rarity(objectWords[t][k]);
                }
            }
            // read by number() whatever its weight (the learned order reads it too): a few words a tool
            Set<String> forms = new java.util.HashSet<>();
            for (String w : nameWords) {
                if (w.length() > 2) {
                    forms.add(w);
                }
            }
            nameForms[t] = forms;
            String verb = fromName != null ? fromName : leadingVerb(words(tools[t].description()));
            if (verb != null) {
                toolVerbs[t] = verbVectors.computeIfAbsent(verb, v -> verbVector(v, weights.toolSynonyms()));
            }
            ToolAnnotations hints = tools[t].annotations();
            if (Boolean.TRUE.equals(hints.destructive()) || Boolean.FALSE.equals(hints.readOnly())) {
                toolMood[t] = -1;
            } else if (Boolean.TRUE.equals(hints.readOnly())) {
                toolMood[t] = 1;
            } else if (toolVerbs[t] != null) {
                toolMood[t] = mood(toolVerbs[t]);
            }
        }
    }

    /**
     * Whether a word of a tool's name says what it acts on: longer than two letters, not the
     * action the name starts with, and not carried by half the catalog's names (of four or more).
     */
    private boolean namesObject(String word, String action, java.util.Map<String, Integer> nameWordCounts,
                                int toolCount) {
        boolean common = toolCount >= 4 && nameWordCounts.get(word) * 2 >= toolCount;
        return !common && word.length() > 2 && (action == null || !action.equals(lexicon.lemma(word)));
    }

    /**
     * What a description says its tool acts on: up to two words after its leading verb and the
     * articles that follow it, up to the first word of grammar ("Get a resource from the cluster":
     * resource).
     */
    private List<String> descriptionObject(String[] words) {
        int i = 0;
        String verb = leadingVerb(words);
        if (verb != null) {
            while (i < Math.min(2, words.length) && !verb.equals(lexicon.lemma(words[i]))) {
                i++;
            }
            i++;
        }
        while (i < words.length && (AFTER_A_VERB.contains(words[i]) || words[i].length() <= 2)) {
            i++;
        }
        List<String> out = new ArrayList<>();
        for (; i < words.length && out.size() < 2 && !grammar(words[i]); i++) {
            if (words[i].length() > 2 && !out.contains(words[i])) {
                out.add(words[i]);
            }
        }
        return out;
    }

    /** Whether a word is one of grammar, naming no object: asking, articles, pronouns, prepositions, question words. */
    private static boolean grammar(String w) {
        return ASKING.contains(w) || AFTER_A_VERB.contains(w) || QUESTION.contains(w) || LINKING.contains(w)
                || AUXILIARIES.contains(w) || QUANTIFIERS.contains(w);
    }

    /** How rare a word (singular form) is among the catalog's names: ln(1 + names / names carrying it). */
    private double rarity(String word) {
        return Math.log(1 + (double) nameCount / Math.max(1, nameFrequency.getOrDefault(word, 0)));
    }

    /** Whether tool {@code tool} reads (toward +1) or writes (toward −1); 0 when unknown. */
    double toolMood(int tool) {
        return toolMood[tool];
    }

    /** A word's unit vector as a tool's verb is read (mixed with its synonyms as the weights say). */
    float[] toolVerbVector(String verb) {
        return verbVector(verb, weights.toolSynonyms());
    }

    /** The cosine of the query's verb and tool {@code tool}'s, or NaN when either has none. */
    double verbCosine(Query q, int tool) {
        return q.verb() != null && toolVerbs[tool] != null ? dot(q.verb(), toolVerbs[tool]) : Double.NaN;
    }

    /** Whether a verb reads (toward +1) or changes (toward −1): its best cosine to each kind. */
    private double mood(float[] verb) {
        return Math.max(-1, Math.min(1, best(verb, reading) - best(verb, changing)));
    }

    private static double best(float[] v, float[][] of) {
        double best = -1;
        for (float[] o : of) {
            best = Math.max(best, dot(v, o));
        }
        return best;
    }

    /** What the query asks, or null when it says neither its mood nor its verb. */
    Query read(String query) {
        String[] words = words(query);
        if (words.length > MAX_QUERY_WORDS) {
            // the action and the object are named early; a longer text is read as far as this
            words = java.util.Arrays.copyOf(words, MAX_QUERY_WORDS);
        }
        if (words.length == 0) {
            return null;
        }
        if (QUESTION.contains(words[0]) || query.strip().endsWith("?")) {
            return withContent(new Query(1, null, words), null);
        }
        String verb = queryVerb(words);
        if (verb == null) {
            return weights.number() > 0 || weights.object() > 0 ? withContent(new Query(0, null, words), null) : null;
        }
        float[] v = verbVector(verb, verb.contains("_") ? weights.phraseSynonyms() : 0);
        return withContent(new Query(mood(v), v, words), verb);
    }

    /**
     * A verb's unit vector: {@code 1 − share} of its own (its words pooled by the static table) and
     * {@code share} of the mean of the other verbs of its first sense in WordNet, when it has any.
     */
    float[] verbVector(String verb, double share) {
        float[] own = table.embed(verb.replace('_', ' '));
        String[] synonyms = lexicon.synonyms(verb);
        if (share == 0 || synonyms.length == 0) {
            return own;
        }
        float[] mean = new float[own.length];
        for (String s : synonyms) {
            float[] v = SemanticRanking.unit(table.embed(s.replace('_', ' ')));
            for (int i = 0; i < mean.length; i++) {
                mean[i] += v[i];
            }
        }
        mean = SemanticRanking.unit(mean);
        float[] a = SemanticRanking.unit(own);
        float[] mixed = new float[own.length];
        for (int i = 0; i < mixed.length; i++) {
            mixed[i] = (float) ((1 - share) * a[i] + share * mean[i]);
        }
        return SemanticRanking.unit(mixed);
    }

    /** The query with its content words read, when the object is: its words beside its verb and words of grammar. */
    private Query withContent(Query q, String verb) {
        if (weights.object() == 0) {
            return q;
        }
        Set<String> verbWords = verb == null ? new java.util.HashSet<>() : new java.util.HashSet<>(List.of(verb.split("_")));
        List<String> content = new ArrayList<>();
        for (String w : q.words()) {
            if (w.length() > 2 && !grammar(w) && !Character.isDigit(w.charAt(0)) && !verbWords.contains(w)
                    && !verbWords.contains(lexicon.lemma(w)) && !content.contains(w)) {
                content.add(w);
            }
        }
        float[][] vectors = new float[content.size()][];
        String[] folded = content.stream().map(ActionStage::singular).toArray(String[]::new);
        double[] rarity = new double[folded.length];
        for (int k = 0; k < vectors.length; k++) {
            vectors[k] = table.embed(content.get(k));
            rarity[k] = rarity(folded[k]);
        }
        return new Query(q.mood(), q.verb(), q.words(), folded, vectors, rarity);
    }

    /** The verb the query asks with, or null when it names none. */
    String queryVerb(String query) {
        return queryVerb(words(query));
    }

    private String queryVerb(String[] words) {
        int start = 0;
        while (start < words.length && ASKING.contains(words[start])) {
            start++;
        }
        if (start == words.length) {
            return null;
        }
        // a multi-word verb first: "get rid of", "tear down", "look up"
        for (int n = Math.min(3, words.length - start); n >= 2; n--) {
            String first = lexicon.lemma(words[start]);
            if (first == null) {
                break;
            }
            StringBuilder joined = new StringBuilder(first);
            for (int i = 1; i < n; i++) {
                joined.append('_').append(words[start + i]);
            }
            if (lexicon.isVerb(joined.toString())) {
                return joined.toString();
            }
        }
        String lemma = lexicon.lemma(words[start]);
        // an imperative's verb is in its plain form: "notes about the budget" names no action
        if (lemma == null || !lemma.equals(words[start]) || AUXILIARIES.contains(lemma)) {
            return null;
        }
        String next = start + 1 < words.length ? words[start + 1] : "";
        boolean verbHere = lexicon.mostlyVerb(lemma) || AFTER_A_VERB.contains(next)
                || !next.isEmpty() && Character.isDigit(next.charAt(0));
        return verbHere ? lemma : null;
    }

    /**
     * The verb a tool's name or description starts with: the first word if it is a verb, else the
     * second when it is mostly used as one ({@code kubectl_delete}, "Notion | Retrieve a page").
     */
    private String leadingVerb(String[] words) {
        for (int i = 0; i < Math.min(2, words.length); i++) {
            String lemma = lexicon.lemma(words[i]);
            if (lemma != null && !AUXILIARIES.contains(lemma) && (i == 0 || lexicon.mostlyVerb(lemma))) {
                return lemma;
            }
        }
        return null;
    }

    /** The score change for tool {@code tool} under the query {@code q}. */
    double adjustment(Query q, int tool) {
        double change = weights.mood() * q.mood() * toolMood[tool];
        if (q.verb() != null && toolVerbs[tool] != null) {
            change += weights.verb() * dot(q.verb(), toolVerbs[tool]);
        }
        if (weights.number() > 0) {
            change += weights.number() * number(q.words(), tool);
        }
        if (weights.object() > 0) {
            change += weights.object() * object(q, tool);
        }
        return change;
    }

    /**
     * How near the query's content words are to what tool {@code tool} acts on, in 0..1: the mean of
     * each object word's best cosine to a content word and each content word's best cosine to an
     * object word (a word and its plural: 1), each side weighted by how rare its words are among the
     * catalog's names; 0 when either has none.
     */
    double object(Query q, int tool) {
        String[] words = objectWords[tool];
        float[][] vectors = objectVectors[tool];
        int m = q.content().length;
        if (words == null || words.length == 0 || m == 0) {
            return 0;
        }
        double[] bestForQuery = new double[m];
        double toolSide = 0;
        double toolWeight = 0;
        for (int o = 0; o < words.length; o++) {
            double best = 0;
            for (int c = 0; c < m; c++) {
                double sim = words[o].equals(q.content()[c]) ? 1 : Math.max(0, dot(vectors[o], q.contentVectors()[c]));
                best = Math.max(best, sim);
                bestForQuery[c] = Math.max(bestForQuery[c], sim);
            }
            toolSide += objectWeights[tool][o] * best;
            toolWeight += objectWeights[tool][o];
        }
        double querySide = 0;
        double queryWeight = 0;
        for (int c = 0; c < m; c++) {
            querySide += q.contentWeights()[c] * bestForQuery[c];
            queryWeight += q.contentWeights()[c];
        }
        return (toolSide / toolWeight + querySide / queryWeight) / 2;
    }

    /**
     * Whether the query names the tool's object in the form the tool's name does (+1: "which issues
     * are open" and {@code list_issues}), in the other number (−1: and {@code get_issue}), or not at
     * all (0).
     */
    int number(String[] queryWords, int tool) {
        Set<String> forms = nameForms[tool];
        int same = 0;
        int other = 0;
        for (String w : queryWords) {
            if (w.length() <= 2) {
                continue;
            }
            if (forms.contains(w)) {
                same++;
            } else if (forms.contains(singular(w)) || forms.contains(w + "s") || forms.contains(w + "es")) {
                other++;
            }
        }
        return Integer.signum(same - other);
    }

    /**
     * Reorders the best tools, best first in {@code top} with their scores: the tools among the
     * first few whose score is within the margin of the best (as the weights say, only the best
     * tool and its siblings) are sorted again among the places they hold by score plus
     * {@link #adjustment}; every other tool keeps its place, and every place its score, so the
     * scores stay in order and in range.
     */
    void reorder(Query q, int[] top, double[] score, int count) {
        if (q == null || count < 2) {
            return;
        }
        int first = top[0];
        double floor = score[0] - weights.margin();
        int[] places = new int[count];
        int n = 0;
        for (int i = 0; i < Math.min(count, weights.few()) && score[i] >= floor; i++) {
            if (!weights.siblings() || i == 0 || siblings(first, top[i])) {
                places[n++] = i;
            }
        }
        if (n < 2) {
            return;
        }
        int[] moved = new int[n];
        double[] adjusted = new double[n];
        for (int k = 0; k < n; k++) {
            moved[k] = top[places[k]];
            adjusted[k] = score[places[k]] + adjustment(q, moved[k]);
        }
        sortByScore(moved, adjusted);
        for (int k = 0; k < n; k++) {
            top[places[k]] = moved[k];
        }
    }

    /**
     * Sorts {@code tools} by {@code scores}, highest first, both arrays alike; stable (an insertion
     * sort: ties keep the ranking's order, and a few places are sorted at a time).
     */
    static void sortByScore(int[] tools, double[] scores) {
        for (int k = 1; k < tools.length; k++) {
            int t = tools[k];
            double s = scores[k];
            int at = k;
            while (at > 0 && s > scores[at - 1]) {
                tools[at] = tools[at - 1];
                scores[at] = scores[at - 1];
                at--;
            }
            tools[at] = t;
            scores[at] = s;
        }
    }

    /**
     * Whether two tools act on the same object: their names share a word beside the action (or
     * both have none).
     */
    boolean siblings(int a, int b) {
        Set<String> x = objects[a];
        Set<String> y = objects[b];
        if (x.isEmpty() || y.isEmpty()) {
            return x.isEmpty() && y.isEmpty();
        }
        for (String w : x) {
            if (y.contains(w)) {
                return true;
            }
        }
        return false;
    }

    private static double dot(float[] a, float[] b) {
        double d = 0;
        for (int i = 0; i < a.length; i++) {
            d += a[i] * b[i];
        }
        return d;
    }

    private static String singular(String word) {
        return word.length() > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.substring(0, word.length() - 1)
                : word;
    }

    /** The text's words: lower case, runs of letters, digits and apostrophes (’ read as '). */
    private static String[] words(String text) {
        if (text == null || text.isEmpty()) {
            return new String[0];
        }
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? Character.toLowerCase(text.charAt(i)) : ' ';
            if (c == '\u2019') {
                c = '\'';
            }
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '\'') {
                word.append(c);
            } else if (word.length() > 0) {
                out.add(word.toString());
                word.setLength(0);
            }
        }
        return out.toArray(new String[0]);
    }
}
