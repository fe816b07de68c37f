package dev.hyperterse.project;

import dev.hyperterse.model.AdapterDef;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** "Did you mean" hints for misspelt keys and names: the closest known word within edit distance 2. */
final class Suggestions {
    /** The farthest a word may be from a known one to be called a misspelling of it. */
    static final int MAX_DISTANCE = 2;

    private Suggestions() {
    }

    /** @return {@code " (did you mean 'x'?)"}, or an empty string when nothing is close */
    static String didYouMean(String word, Collection<String> known) {
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        String lower = word.toLowerCase(Locale.ROOT);
        for (String candidate : known) {
            int d = distance(lower, candidate.toLowerCase(Locale.ROOT));
            // ties go to the first candidate, and callers pass sorted or declaration-ordered names
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null || best.equals(word) ? "" : " (did you mean '" + best + "'?)";
    }

    /**
     * For a {@code use} that names no adapter: the adapter it most likely means, as
     * {@code " (did you mean 'x'?)"}, or an empty string. First an adapter whose file is named so
     * while its {@code name} says otherwise (a 1.x name kept with {@code name: main_db} in
     * {@code main-db.terse}), then one spelt the same but for case, {@code -} and {@code _}, then the
     * closest name within edit distance 2.
     */
    static String adapter(String use, Map<String, AdapterDef> adapters) {
        for (AdapterDef a : adapters.values()) {
            Path file = a.location().file();
            String fileName = file == null ? "" : file.getFileName().toString();
            String stem = fileName.contains(".") ? fileName.substring(0, fileName.lastIndexOf('.')) : fileName;
            if (!stem.equals(a.name()) && separatorsAndCaseAside(stem).equals(separatorsAndCaseAside(use))) {
                return " (did you mean '" + a.name() + "'? " + file + " names its adapter '" + a.name() + "')";
            }
        }
        Collection<String> names = new TreeSet<>(adapters.keySet());
        for (String name : names) {
            if (separatorsAndCaseAside(name).equals(separatorsAndCaseAside(use))) {
                return " (did you mean '" + name + "'?)";
            }
        }
        return didYouMean(use, names);
    }

    private static String separatorsAndCaseAside(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A known word and how many edits it is from the word looked up. */
    record Closest(String word, int distance) {
    }

    /**
     * The known word closest to {@code word} (case-insensitive), however far; ties go to the first
     * in {@code known}'s order. Null when {@code known} is empty.
     */
    static Closest closest(String word, Collection<String> known) {
        Closest best = null;
        String lower = word.toLowerCase(Locale.ROOT);
        for (String candidate : known) {
            int d = distance(lower, candidate.toLowerCase(Locale.ROOT));
            if (best == null || d < best.distance()) {
                best = new Closest(candidate, d);
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
