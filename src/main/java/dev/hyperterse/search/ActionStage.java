package dev.hyperterse.search;

import dev.hyperterse.model.ToolDef;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A ranking stage that reads the action a query asks for and each tool's own, so that a sibling
 * tool (same object, another verb: {@code create_issue} and {@code update_issue}, {@code drop-index}
 * and {@code create-index}) does not outrank the right one only because its words are as close. A
 * bag of word vectors or BM25 sees no roles: "make a new namespace" is as near to deleting a
 * namespace as to creating one.
 *
 * <p>The query's action is its leading verb, as an imperative is phrased ("remove the old cronjob",
 * "please open a PR", "I want to write up the notes"): the first word after words of asking
 * (please, can you, I want to …) when WordNet's multi-word verbs ({@code get_rid_of},
 * {@code tear_down}) or its usage counts say it is a verb, or when an article, pronoun, particle or
 * number follows it. A question ("which pods are running") names no action and is left alone. A
 * tool's actions are the verb its name starts with (after a leading word that is no verb, such as
 * {@code kubectl_} or {@code browser_}) and the verb its description starts with. Relations come
 * from {@link VerbLexicon}; a verb made with un- is the opposite of the verb it undoes. Built once
 * per snapshot; immutable and safe to share between threads.
 */
final class ActionStage {

    /** Words of asking before the verb of an imperative. */
    private static final Set<String> ASKING = Set.of("please", "kindly", "can", "could", "would", "will", "you",
            "i", "i'd", "i'll", "we", "we'd", "let", "let's", "lets", "me", "us", "just", "now", "then", "so", "and",
            "also", "want", "need", "like", "to", "help", "try", "first", "ok", "okay");
    /** Words that follow a verb and not a noun: articles, pronouns, particles. */
    private static final Set<String> AFTER_A_VERB = Set.of("a", "an", "the", "this", "that", "these", "those", "my",
            "our", "your", "their", "its", "his", "her", "me", "us", "them", "it", "all", "every", "each", "some",
            "any", "up", "down", "out", "off", "back", "over", "in", "on", "into", "to");
    /** Auxiliaries name no action of their own. */
    private static final Set<String> AUXILIARIES = Set.of("be", "do", "have");

    private final VerbLexicon lexicon;
    private final ActionWeights weights;
    /** Per tool, its actions (empty when none can be read). */
    private final VerbLexicon.Action[][] toolActions;
    /** Per tool, the words of its name that are not its action nor common to the catalog: what it acts on. */
    private final Set<String>[] objects;

    ActionStage(ToolDef[] tools, VerbLexicon lexicon, ActionWeights weights) {
        this.lexicon = lexicon;
        this.weights = weights;
        this.toolActions = new VerbLexicon.Action[tools.length][];
        this.objects = new Set[tools.length];
        // words half the names carry (kubectl_, browser_, API-) say nothing about what a tool acts on
        java.util.Map<String, Integer> nameWordCounts = new java.util.HashMap<>();
        for (ToolDef tool : tools) {
            for (String w : new java.util.HashSet<>(List.of(words(HybridRanking.words(tool.name()))))) {
                nameWordCounts.merge(w, 1, Integer::sum);
            }
        }
        for (int t = 0; t < tools.length; t++) {
            List<VerbLexicon.Action> actions = new ArrayList<>(2);
            String[] nameWords = words(HybridRanking.words(tools[t].name()));
            String fromName = leadingVerb(nameWords);
            Set<String> object = new java.util.HashSet<>();
            for (String w : nameWords) {
                String lemma = lexicon.lemma(w);
                boolean common = tools.length >= 4 && nameWordCounts.get(w) * 2 >= tools.length;
                if (!common && w.length() > 2 && (fromName == null || !fromName.equals(lemma))) {
                    object.add(singular(w));
                }
            }
            objects[t] = object;
            String fromDescription = leadingVerb(words(tools[t].description()));
            if (fromName != null) {
                actions.add(lexicon.action(fromName));
            }
            if (fromDescription != null && !fromDescription.equals(fromName)) {
                actions.add(lexicon.action(fromDescription));
            }
            toolActions[t] = actions.toArray(new VerbLexicon.Action[0]);
        }
    }

    /** The actions read from tool {@code tool}'s name and description (for diagnostics). */
    List<String> toolActionNames(int tool) {
        return java.util.Arrays.stream(toolActions[tool]).map(VerbLexicon.Action::lemma).toList();
    }

    /** Whether the stage moves anything at all. */
    boolean active() {
        return !weights.off();
    }

    /** The action the query asks for, or null when it names none. */
    VerbLexicon.Action queryAction(String query) {
        String[] words = words(query);
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
                return lexicon.action(joined.toString());
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
        return verbHere ? lexicon.action(lemma) : null;
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

    /**
     * The score change for tool {@code tool} under the query's {@code action}: 0 when either names
     * no action.
     */
    double adjustment(VerbLexicon.Action action, int tool) {
        VerbLexicon.Action[] actions = toolActions[tool];
        if (action == null || actions.length == 0) {
            return 0;
        }
        boolean opposite = false;
        for (VerbLexicon.Action a : actions) {
            VerbLexicon.Relation r = VerbLexicon.relate(action, a);
            if (r == VerbLexicon.Relation.SAME) {
                return weights.same();
            }
            opposite |= r == VerbLexicon.Relation.OPPOSITE;
        }
        return opposite ? -weights.opposite() : -weights.other();
    }

    /**
     * Reorders the best tools, best first in {@code top} with their scores, so that no tool whose
     * action is another than the query's comes before a sibling (a tool acting on the same object)
     * whose action is the query's: that sibling moves up just before the first such tool, and takes
     * its score. Nothing moves when the query names no action.
     */
    void reorder(VerbLexicon.Action action, int[] top, double[] score, int count) {
        if (action == null || !weights.siblings()) {
            return;
        }
        VerbLexicon.Relation[] relation = new VerbLexicon.Relation[count];
        for (int i = 0; i < count; i++) {
            relation[i] = relation(action, top[i]);
        }
        for (int j = 1; j < count; j++) {
            if (relation[j] != VerbLexicon.Relation.SAME) {
                continue;
            }
            int to = -1;
            for (int i = 0; i < j; i++) {
                if (relation[i] != null && relation[i] != VerbLexicon.Relation.SAME && siblings(top[i], top[j])) {
                    to = i;
                    break;
                }
            }
            if (to < 0) {
                continue;
            }
            int tool = top[j];
            VerbLexicon.Relation r = relation[j];
            double s = Math.max(score[j], score[to]);
            System.arraycopy(top, to, top, to + 1, j - to);
            System.arraycopy(score, to, score, to + 1, j - to);
            System.arraycopy(relation, to, relation, to + 1, j - to);
            top[to] = tool;
            score[to] = s;
            relation[to] = r;
        }
    }

    /** How a tool's action relates to the query's; null when the tool's cannot be read. */
    private VerbLexicon.Relation relation(VerbLexicon.Action action, int tool) {
        VerbLexicon.Action[] actions = toolActions[tool];
        if (actions.length == 0) {
            return null;
        }
        boolean opposite = false;
        for (VerbLexicon.Action a : actions) {
            VerbLexicon.Relation r = VerbLexicon.relate(action, a);
            if (r == VerbLexicon.Relation.SAME) {
                return r;
            }
            opposite |= r == VerbLexicon.Relation.OPPOSITE;
        }
        return opposite ? VerbLexicon.Relation.OPPOSITE : VerbLexicon.Relation.OTHER;
    }

    /** Whether two tools act on the same object: their names share a word beside the action (or both have none). */
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

    private static String singular(String word) {
        return word.length() > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.substring(0, word.length() - 1)
                : word;
    }

    private static String[] words(String text) {
        if (text == null) {
            return new String[0];
        }
        return java.util.Arrays.stream(text.toLowerCase(Locale.ROOT).replace('\u2019', '\'').split("[^a-z0-9']+"))
                .filter(w -> !w.isEmpty()).toArray(String[]::new);
    }
}
