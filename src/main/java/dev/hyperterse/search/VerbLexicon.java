package dev.hyperterse.search;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * English verbs as WordNet 3.1 lists them (bench/search/actions/build_verbs.py writes the resource):
 * every verb, multi-word ones such as {@code get_rid_of} included, whether a word is mostly used as
 * a verb (SemCor's tag counts), the irregular forms, and the other verbs of each verb's first sense
 * (its most frequent: {@code create} and {@code make}, {@code get_rid_of} and {@code remove}). It
 * tells a verb from other words, leads a form to its verb ("removes", "made") and names a verb's
 * synonyms. Read once (about 0.5 MB), immutable after that and safe to share between threads.
 */
final class VerbLexicon {

    /** Regular inflections and what each leaves of the base form, tried in order. */
    private static final String[][] INFLECTIONS = {{"ies", "y"}, {"es", "e"}, {"es", ""}, {"s", ""}, {"ed", "e"},
            {"ed", ""}, {"ing", "e"}, {"ing", ""}};

    /** The resource shipped with the server. */
    static final String RESOURCE = "verbs.txt";

    /** Each verb, and whether it is used as a verb more often than as anything else. */
    private final Map<String, Boolean> lemmas;
    private final Map<String, String> irregular;
    /** Each verb's first sense's other verbs, for the verbs that have any. */
    private final Map<String, String[]> synonyms;

    private VerbLexicon(Map<String, Boolean> lemmas, Map<String, String> irregular, Map<String, String[]> synonyms) {
        this.lemmas = lemmas;
        this.irregular = irregular;
        this.synonyms = synonyms;
    }

    /** The lexicon this server ships with, read on first use. */
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

    /**
     * Lines {@code L lemma 1|0} (mostly a verb or not), {@code X form lemma} and
     * {@code S lemma synonym…} (the other verbs of its first sense); {@code #} comments.
     */
    static VerbLexicon read(InputStream stream) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16);
        Map<String, Boolean> lemmas = new HashMap<>(1 << 15);
        Map<String, String> irregular = new HashMap<>(1 << 12);
        Map<String, String[]> synonyms = new HashMap<>(1 << 14);
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int space = line.indexOf(' ', 2);
            if (line.length() < 5 || line.charAt(1) != ' ' || space < 0) {
                throw new IOException("line " + number + ": malformed");
            }
            String word = line.substring(2, space);
            String rest = line.substring(space + 1);
            switch (line.charAt(0)) {
                case 'L' -> lemmas.put(word, rest.equals("1"));
                case 'X' -> irregular.putIfAbsent(word, rest);
                case 'S' -> synonyms.putIfAbsent(word, rest.split(" "));
                default -> throw new IOException("line " + number + ": unknown record " + line.charAt(0));
            }
        }
        return new VerbLexicon(lemmas, irregular, synonyms);
    }

    /**
     * The verb a lower-case word is a form of ("removes", "made", "created" and "create" itself),
     * by the irregular forms and WordNet's suffix rules; null when it is no verb.
     */
    String lemma(String word) {
        return lemma(word, true);
    }

    /** {@code undo}: whether un- may be read off (once: "ununinstall" is no verb). */
    private String lemma(String word, boolean undo) {
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
        if (undo && word.startsWith("un") && word.length() > 4) {
            String undone = lemma(word.substring(2), false);
            if (undone != null && !undone.contains("_")) {
                return "un" + undone;
            }
        }
        for (String[] rule : INFLECTIONS) {
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
        Boolean mostly = lemmas.get(lemma);
        return mostly != null ? mostly : undoing(lemma) != null && mostlyVerb(undoing(lemma));
    }

    /** For a verb derived with un- that WordNet lacks, the verb it undoes; else null. */
    private String undoing(String lemma) {
        return !lemmas.containsKey(lemma) && lemma.startsWith("un") && lemmas.containsKey(lemma.substring(2))
                ? lemma.substring(2) : null;
    }

    /**
     * The other verbs of a verb's first sense, the one WordNet lists first ({@code create}:
     * {@code make}; {@code get_rid_of}: {@code remove}); empty when it has none. Not to be changed.
     */
    String[] synonyms(String lemma) {
        return synonyms.getOrDefault(lemma, NONE);
    }

    private static final String[] NONE = new String[0];

    /** Whether a multi-word verb ({@code get_rid_of}) or a verb of that spelling exists. */
    boolean isVerb(String lemma) {
        return lemmas.containsKey(lemma);
    }
}
