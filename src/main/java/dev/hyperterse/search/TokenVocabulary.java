package dev.hyperterse.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Every distinct token of every tool text, numbered, with an index of their short substrings.
 * A query token is related to the vocabulary once per query (exact id, and the ids it partially
 * matches), so scoring a tool needs only integer look-ups instead of a substring test against each
 * of its tokens.
 */
final class TokenVocabulary {

    private final Map<String, Integer> ids;
    private final String[] tokens;
    /** Substrings of one to three code points → ids (ascending) of the tokens that contain them. */
    private final Map<Long, int[]> shortSubstrings;
    private final int longestToken;

    private TokenVocabulary(Map<String, Integer> ids, String[] tokens, Map<Long, int[]> shortSubstrings,
                            int longestToken) {
        this.ids = ids;
        this.tokens = tokens;
        this.shortSubstrings = shortSubstrings;
        this.longestToken = longestToken;
    }

    int size() {
        return tokens.length;
    }

    /** The id of a token, or -1 when no tool text has it. */
    int id(String token) {
        Integer id = ids.get(token);
        return id == null ? -1 : id;
    }

    /**
     * Feeds {@code sink} the id of every vocabulary token that contains {@code token} or is
     * contained in it (Hyperterse's "partial" match: prefix and substring, both directions).
     * An id may be fed more than once.
     */
    void forEachPartial(String token, IntConsumer sink) {
        int[] cps = token.codePoints().toArray();
        forEachContaining(token, cps, sink);
        forEachContained(token, cps, sink);
    }

    private void forEachContaining(String token, int[] cps, IntConsumer sink) {
        if (cps.length <= SearchText.GRAM_SIZE) {
            int[] holders = shortSubstrings.get(SearchText.key(cps, 0, cps.length));
            if (holders != null) {
                for (int id : holders) {
                    sink.accept(id);
                }
            }
            return;
        }
        // A token containing this one contains each of its grams: check only the rarest gram's holders.
        int[] candidates = null;
        for (int i = 0; i + SearchText.GRAM_SIZE <= cps.length; i++) {
            int[] holders = shortSubstrings.get(SearchText.key(cps, i, SearchText.GRAM_SIZE));
            if (holders == null) {
                return;
            }
            if (candidates == null || holders.length < candidates.length) {
                candidates = holders;
            }
        }
        for (int id : candidates) {
            if (tokens[id].contains(token)) {
                sink.accept(id);
            }
        }
    }

    private void forEachContained(String token, int[] cps, IntConsumer sink) {
        int[] offsets = new int[cps.length + 1]; // char offset of each code point boundary
        for (int i = 0; i < cps.length; i++) {
            offsets[i + 1] = offsets[i] + Character.charCount(cps[i]);
        }
        for (int start = 0; start < cps.length; start++) {
            int maxEnd = Math.min(cps.length, start + longestToken);
            for (int end = start + 1; end <= maxEnd; end++) {
                Integer id = ids.get(token.substring(offsets[start], offsets[end]));
                if (id != null) {
                    sink.accept(id);
                }
            }
        }
    }

    /** Collects tokens while the index is built; not thread-safe, used by one constructor. */
    static final class Builder {
        private final Map<String, Integer> ids = new HashMap<>();
        private final List<String> tokens = new ArrayList<>();

        int add(String token) {
            Integer known = ids.get(token);
            if (known != null) {
                return known;
            }
            int id = tokens.size();
            ids.put(token, id);
            tokens.add(token);
            return id;
        }

        TokenVocabulary build() {
            Map<Long, IntList> holders = new HashMap<>();
            int longest = 0;
            for (int id = 0; id < tokens.size(); id++) {
                int[] cps = tokens.get(id).codePoints().toArray();
                longest = Math.max(longest, cps.length);
                for (int start = 0; start < cps.length; start++) {
                    int maxLength = Math.min(SearchText.GRAM_SIZE, cps.length - start);
                    for (int length = 1; length <= maxLength; length++) {
                        holders.computeIfAbsent(SearchText.key(cps, start, length), k -> new IntList())
                                .addIfNotLast(id);
                    }
                }
            }
            Map<Long, int[]> frozen = new HashMap<>(holders.size() * 2);
            holders.forEach((key, list) -> frozen.put(key, list.toArray()));
            return new TokenVocabulary(ids, tokens.toArray(new String[0]), frozen, longest);
        }
    }
}
