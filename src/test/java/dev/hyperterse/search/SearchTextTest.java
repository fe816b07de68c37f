package dev.hyperterse.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SearchTextTest {

    @Test
    void punctuationRunsBecomeOneSpaceAndEndsAreTrimmed() {
        assertEquals("get user by id", SearchText.normalize("  Get_User--by  (ID)!! "));
        assertEquals("select from orders where status inputs status",
                SearchText.normalize("SELECT * FROM orders WHERE status = {{ inputs.status }}"));
        assertEquals("v2 2", SearchText.normalize("v2.2"));
        assertEquals("", SearchText.normalize(" -- ?! "));
        assertEquals("", SearchText.normalize(null));
    }

    @Test
    void caseIsFoldedPerCodePoint() {
        assertEquals("straße café", SearchText.normalize("STRAßE Café"));
        // Go's simple mapping: İ → i (String.toLowerCase would give i + combining dot)
        assertEquals("istanbul", SearchText.normalize("İSTANBUL"));
        // no final-sigma rule: Σ → σ wherever it stands
        assertEquals("οδοσ", SearchText.normalize("ΟΔΟΣ"));
    }

    @Test
    void unicodeLettersAndNumbersAreKept() {
        assertEquals("東京タワー", SearchText.normalize("東京タワー"));
        assertEquals("x² ½ ⅻ", SearchText.normalize("x² + ½ = Ⅻ"));
        assertEquals("١٢٣", SearchText.normalize("١٢٣")); // Arabic-Indic digits
        assertEquals("rocket 𝒳", SearchText.normalize("🚀rocket🚀 𝒳")); // emoji are separators; 𝒳 is a letter
    }

    @Test
    void tokensAreDistinctInFirstSeenOrder() {
        assertArrayEquals(new String[] {"status", "inputs", "order"},
                SearchText.distinctTokens("status inputs status order inputs"));
        assertArrayEquals(new String[0], SearchText.distinctTokens(""));
    }

    @Test
    void gramsIgnoreSpacesAndShortTextsAreOneGram() {
        assertEquals(4, SearchText.gramKeys("orders").length);
        assertEquals(9, SearchText.gramKeys("open tickets").length); // "opentickets"
        assertEquals(1, SearchText.gramKeys("ab").length);
        assertEquals(1, SearchText.gramKeys("a b").length);
        assertArrayEquals(SearchText.gramKeys("ab"), SearchText.gramKeys("a b"));
        assertEquals(0, SearchText.gramKeys("").length);
        assertEquals(1, SearchText.gramKeys("aaaa").length); // repeated grams count once
        // a one-letter and a two-letter text are different grams
        assertTrue(SearchText.gramKeys("a")[0] != SearchText.gramKeys("aa")[0]);
    }

    @Test
    void namesCompareByCodePointLikeGo() {
        assertTrue(SearchText.compareCodePoints("a", "b") < 0);
        assertTrue(SearchText.compareCodePoints("ab", "a") > 0);
        // U+FFFD < U+1F600, though its UTF-16 unit 0xFFFD is above the surrogate 0xD83D
        assertTrue(SearchText.compareCodePoints("\uFFFD", "😀") < 0);
        assertTrue("\uFFFD".compareTo("😀") > 0);
    }
}
