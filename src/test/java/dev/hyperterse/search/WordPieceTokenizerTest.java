package dev.hyperterse.search;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WordPieceTokenizerTest {

    /**
     * wordpiece.tsv holds sample strings (bench/search/distill/samples.txt: accents, CJK, emoji,
     * punctuation, identifiers, an over-long word, invisible format characters) and the ids
     * all-MiniLM-L6-v2's own tokenizer (Hugging Face tokenizers) gives them, written by
     * bench/search/distill/distill.sh: the pure-Java tokenizer must give the same ids.
     */
    @Test
    void givesTheRealTokenizersIdsForEverySample() throws IOException {
        String tsv;
        try (InputStream in = getClass().getResourceAsStream("wordpiece.tsv")) {
            tsv = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> lines = tsv.lines().toList();
        assertTrue(lines.size() >= 20, "the samples are there");
        for (String line : lines) {
            int tab = line.lastIndexOf('\t');
            String text = line.substring(0, tab);
            int[] expected = Arrays.stream(line.substring(tab + 1).split(" ")).mapToInt(Integer::parseInt).toArray();
            assertArrayEquals(expected, StaticEmbedder.bundled().tokenIds(text), text);
        }
    }

    @Test
    void splitsWordsIntoTheLongestPiecesFromTheLeft() {
        WordPieceTokenizer tokenizer = new WordPieceTokenizer(List.of("[UNK]", "un", "##aff", "##able", "##a",
                "a", "!", "run", "##ning", "##n"));
        assertEquals("un ##aff ##able ! run ##ning", pieces(tokenizer, "Unaffable! RUNNING"));
        assertEquals("[UNK]", pieces(tokenizer, "unx"), "a word that cannot be spelled is unknown, whole");
        assertEquals("a [UNK] a", pieces(tokenizer, "a " + "a".repeat(101) + " \u00e0"),
                "over 100 characters is unknown; accents are stripped");
    }

    @Test
    void needsAnUnknownToken() {
        assertThrows(IllegalArgumentException.class, () -> new WordPieceTokenizer(List.of("a", "b")));
    }

    private static String pieces(WordPieceTokenizer tokenizer, String text) {
        List<String> vocabulary = List.of("[UNK]", "un", "##aff", "##able", "##a", "a", "!", "run", "##ning", "##n");
        return Arrays.stream(tokenizer.encode(text)).mapToObj(vocabulary::get).collect(Collectors.joining(" "));
    }
}
