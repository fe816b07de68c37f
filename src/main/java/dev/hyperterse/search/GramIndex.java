package dev.hyperterse.search;

import java.util.HashMap;
import java.util.Map;

/**
 * Inverted index from character n-gram to the tools whose combined text has it. Counting the
 * query's grams through it touches only tools that share a gram, instead of intersecting the
 * query with every tool's gram set.
 */
final class GramIndex {

    private final Map<Long, int[]> toolsByGram;

    private GramIndex(Map<Long, int[]> toolsByGram) {
        this.toolsByGram = toolsByGram;
    }

    /** Adds, for each tool, the number of the given distinct query grams its text has. */
    void countShared(long[] queryGrams, int[] sharedByTool) {
        for (long gram : queryGrams) {
            int[] tools = toolsByGram.get(gram);
            if (tools != null) {
                for (int tool : tools) {
                    sharedByTool[tool]++;
                }
            }
        }
    }

    /** Collects grams tool by tool, in ascending tool order; not thread-safe. */
    static final class Builder {
        private final Map<Long, IntList> toolsByGram = new HashMap<>();

        void add(int tool, long[] distinctGrams) {
            for (long gram : distinctGrams) {
                toolsByGram.computeIfAbsent(gram, k -> new IntList()).addIfNotLast(tool);
            }
        }

        GramIndex build() {
            Map<Long, int[]> frozen = new HashMap<>(toolsByGram.size() * 2);
            toolsByGram.forEach((gram, tools) -> frozen.put(gram, tools.toArray()));
            return new GramIndex(frozen);
        }
    }
}
