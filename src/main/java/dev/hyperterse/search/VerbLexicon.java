package dev.hyperterse.search;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * English verbs as WordNet 3.1 relates them (bench/search/actions/build_verbs.py writes the
 * resource): each verb's senses in WordNet's order, each sense's hypernyms, antonyms and
 * verb-group neighbours, whether a word is mostly used as a verb (SemCor's tag counts), and the
 * irregular forms. It answers whether two actions are the same ("make" and "create", "remove"
 * and "delete"), opposite ("install" and "uninstall", "open" and "close") or just different.
 * Read once (about 0.5 MB), immutable after that and safe to share between threads.
 */
final class VerbLexicon {

    /** How two actions relate. */
    enum Relation { SAME, OTHER, OPPOSITE }

    /** The resource shipped with the server. */
    static final String RESOURCE = "verbs.txt";
    /** Senses of a verb taken into account, most common first (WordNet lists at most eight per verb here). */
    static final int SENSES = 8;

    private final Map<String, Entry> lemmas;
    private final Map<String, String> irregular;
    private final int[][] hypernyms;
    private final int[][] antonyms;
    private final int[][] groups;

    private record Entry(boolean mostlyVerb, int[] senses) {}

    private VerbLexicon(Map<String, Entry> lemmas, Map<String, String> irregular, int[][] hypernyms,
                        int[][] antonyms, int[][] groups) {
        this.lemmas = lemmas;
        this.irregular = irregular;
        this.hypernyms = hypernyms;
        this.antonyms = antonyms;
        this.groups = groups;
    }

    /** The lexicon this server ships with, read on first use (a few tens of milliseconds). */
    static VerbLexicon bundled() {
        return Bundled.LEXICON;
    }

    private static final class Bundled {
        static final VerbLexicon LEXICON = load();

        private static VerbLexicon load() {
            try (InputStream in = VerbLexicon.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IOException("resource " + RESOURCE + " is missing from the server's jar");
                }
                return read(in);
            } catch (IOException e) {
                throw new UncheckedIOException("verb lexicon: " + e.getMessage(), e);
            }
        }
    }

    static VerbLexicon read(InputStream stream) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16);
        List<int[][]> synsets = new ArrayList<>();
        Map<String, Entry> lemmas = new HashMap<>();
        Map<String, String> irregular = new HashMap<>();
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            String[] f = line.split(" ");
            switch (f[0]) {
                case "S" -> {
                    if (f.length != 5 || Integer.parseInt(f[1]) != synsets.size()) {
                        throw new IOException("line " + number + ": a synset out of order or malformed");
                    }
                    synsets.add(new int[][] {ids(f[2]), ids(f[3]), ids(f[4])});
                }
                case "L" -> {
                    int[] senses = new int[f.length - 3];
                    for (int i = 3; i < f.length; i++) {
                        senses[i - 3] = Integer.parseInt(f[i]);
                    }
                    lemmas.put(f[1], new Entry(f[2].equals("1"), senses));
                }
                case "X" -> irregular.putIfAbsent(f[1], f[2]);
                default -> throw new IOException("line " + number + ": unknown record " + f[0]);
            }
        }
        int[][] hypernyms = new int[synsets.size()][];
        int[][] antonyms = new int[synsets.size()][];
        int[][] groups = new int[synsets.size()][];
        for (int i = 0; i < synsets.size(); i++) {
            hypernyms[i] = synsets.get(i)[0];
            antonyms[i] = synsets.get(i)[1];
            groups[i] = synsets.get(i)[2];
        }
        return new VerbLexicon(lemmas, irregular, hypernyms, antonyms, groups);
    }

    private static int[] ids(String field) {
        if (field.equals("-")) {
            return new int[0];
        }
        return Arrays.stream(field.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    /**
     * The verb a lower-case word is a form of ("removes", "made", "created" and "create" itself),
     * by the irregular forms and WordNet's suffix rules; null when it is no verb.
     */
    String lemma(String word) {
        if (word.isEmpty()) {
            return null;
        }
        if (lemmas.containsKey(word)) {
            return word;
        }
        String base = irregular.get(word);
        if (base != null) {
            return base;
        }
        // a verb WordNet lacks but English derives: un- undoes a verb ("uninstall", "unpublish")
        if (word.startsWith("un") && word.length() > 4) {
            String undone = lemma(word.substring(2));
            if (undone != null && !undone.contains("_")) {
                return "un" + undone;
            }
        }
        String[][] rules = {{"ies", "y"}, {"es", "e"}, {"es", ""}, {"s", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"},
                {"ing", ""}};
        for (String[] rule : rules) {
            if (word.endsWith(rule[0]) && word.length() > rule[0].length() + 1) {
                String candidate = word.substring(0, word.length() - rule[0].length()) + rule[1];
                if (lemmas.containsKey(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** Whether {@code lemma} (a verb) is used as a verb more often than as anything else. */
    boolean mostlyVerb(String lemma) {
        Entry e = lemmas.get(lemma);
        return e != null ? e.mostlyVerb : undoing(lemma) != null && mostlyVerb(undoing(lemma));
    }

    /** For a verb derived with un- that WordNet lacks, the verb it undoes; else null. */
    private String undoing(String lemma) {
        return !lemmas.containsKey(lemma) && lemma.startsWith("un") && lemmas.containsKey(lemma.substring(2))
                ? lemma.substring(2) : null;
    }

    /** Whether a multi-word verb ({@code get_rid_of}) or a verb of that spelling exists. */
    boolean isVerb(String lemma) {
        return lemmas.containsKey(lemma);
    }

    /** The verb's most common senses. */
    int[] senses(String lemma) {
        Entry e = lemmas.get(lemma);
        return e == null ? new int[0] : Arrays.copyOf(e.senses, Math.min(SENSES, e.senses.length));
    }

    /** The senses and what they specialise or sit in a group with: what counts as the same action. */
    int[] reach(int[] senses) {
        IntList out = new IntList();
        for (int s : senses) {
            out.add(s);
            for (int h : hypernyms[s]) {
                out.add(h);
            }
            for (int g : groups[s]) {
                out.add(g);
            }
        }
        return out.toArray();
    }

    /** The opposites of the senses and of what they specialise. */
    int[] opposites(int[] senses) {
        IntList out = new IntList();
        for (int s : senses) {
            for (int a : antonyms[s]) {
                out.add(a);
            }
            for (int h : hypernyms[s]) {
                for (int a : antonyms[h]) {
                    out.add(a);
                }
            }
        }
        return out.toArray();
    }

    /** How the action {@code a} relates to {@code b}, both read ({@link Action}). */
    static Relation relate(Action a, Action b) {
        if (a.lemma.equals(b.lemma)) {
            return Relation.SAME;
        }
        // opposites first: "open" and "close" also share a verb group
        if (a.lemma.equals("un" + b.lemma) || b.lemma.equals("un" + a.lemma)
                || meets(a.opposites, b.senses) || meets(b.opposites, a.senses)) {
            return Relation.OPPOSITE;
        }
        if (meets(a.senses, b.reach) || meets(b.senses, a.reach) || meets(a.reach, b.reach)) {
            return Relation.SAME;
        }
        return Relation.OTHER;
    }

    private static boolean meets(int[] x, int[] y) {
        for (int i : x) {
            for (int j : y) {
                if (i == j) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A verb read once for comparisons: its senses, their reach and opposites. */
    Action action(String lemma) {
        int[] senses = senses(lemma);
        return new Action(lemma, senses, reach(senses), opposites(senses));
    }

    record Action(String lemma, int[] senses, int[] reach, int[] opposites) {}
}
