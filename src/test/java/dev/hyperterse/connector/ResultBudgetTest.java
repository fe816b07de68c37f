package dev.hyperterse.connector;

import dev.hyperterse.model.ResultCut;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultBudgetTest {

    @Test
    void sizesAreNeverBelowTheEncodedJson() {
        JsonObject row = new JsonObject().put("id", 123456789L).put("neg", -42).put("name", "Ünïcode and \"quotes\"")
                .put("price", new BigDecimal("19.99")).put("big", new BigInteger("123456789012345678901234567890"))
                .put("ratio", 0.1 + 0.2).put("ok", true).putNull("none")
                .put("doc", new JsonObject().put("tags", new JsonArray().add("a").add(1).addNull()))
                .put("empty", new JsonArray());
        long estimate = ResultBudget.size(row);
        long actual = row.encode().length();
        // escapes are counted too: the estimate is never below the encoded text
        assertTrue(estimate >= actual && estimate <= actual * 2, estimate + " for " + actual + ": " + row.encode());
        assertEquals(new JsonArray().add(1).add(22).encode().length(), ResultBudget.size(new JsonArray().add(1).add(22)));
        assertEquals(new byte[300].length / 3 * 4 + 2, ResultBudget.size(new byte[300]));
    }

    /**
     * Text the encoder escapes is counted by its escapes: a string of control characters is six
     * times its length as JSON, and a cap counted by characters let six times the cap through.
     */
    @Test
    void escapedTextCountsByItsEscapes() {
        for (String text : new String[] {"\u0001".repeat(1000), "\"".repeat(1000), "a\tb\\c\u001f\n"}) {
            JsonObject row = new JsonObject().put("v" + text.substring(0, 1), text);
            assertEquals(row.encode().length(), ResultBudget.size(row), row.encode().substring(0, 20));
        }
        ResultBudget budget = new ResultBudget(100, 10_000);
        int admitted = 0;
        while (budget.admit(new JsonObject().put("v", "\u0001".repeat(1000)))) {
            admitted++;
        }
        assertEquals(1, admitted, "one row of 6,008 bytes of JSON fits in 10,000, not ten");
    }

    @Test
    void aSizeCountedUpToAStopIsExactBelowItAndLooksNoFurtherAtIt() {
        JsonObject row = new JsonObject().put("id", 7).put("name", "Ada").put("tags", new JsonArray().add("a").add("b"));
        assertEquals(ResultBudget.size(row), ResultBudget.size(row, 1000), "under the stop: the full size");
        JsonArray rows = new JsonArray();
        for (int i = 0; i < 100_000; i++) {
            rows.add(row);
        }
        long full = ResultBudget.size(rows);
        long stopped = ResultBudget.size(rows, 64 * 1024);
        assertTrue(stopped >= 64 * 1024, "at least the stop once it is reached: " + stopped);
        assertTrue(stopped < 64 * 1024 + 100, "and no further than the row that reached it: " + stopped + " of " + full);
        // a long string's escapes are counted only while under the stop
        String quotes = "\"".repeat(1_000_000);
        assertEquals(2_000_002, ResultBudget.size(quotes));
        assertTrue(ResultBudget.size(quotes, 64 * 1024) >= 64 * 1024);
        assertEquals(ResultBudget.size("a\"b"), ResultBudget.size("a\"b", 1000));
    }

    @Test
    void theFirstItemThatDoesNotFitEndsTheResult() {
        ResultBudget budget = new ResultBudget(100, 20);
        assertTrue(budget.admit("12345678"));   // [ + "12345678" + ] = 12
        assertFalse(budget.admit("123456789"));  // would be 12 + 1 + 11 = 24
        assertEquals(ResultCut.BYTE_LIMIT, budget.cut());
        assertFalse(budget.admit("1"), "nothing fits after a cut, even a small item");
        ResultBudget rows = new ResultBudget(2, 1000);
        assertTrue(rows.admit(1) && rows.admit(2));
        assertFalse(rows.admit(3));
        assertEquals(ResultCut.ROW_LIMIT, rows.cut());
        ResultBudget tooBig = new ResultBudget(10, 10);
        assertFalse(tooBig.admit("a string longer than the limit"));
        assertEquals(ResultCut.BYTE_LIMIT, tooBig.cut());
    }

    /** What keeps memory bounded: a cursor is asked only for rows the remaining budget can hold. */
    @Test
    void fetchesAreSizedByTheRemainingBudget() {
        ResultBudget small = new ResultBudget(10, 4L << 20);
        assertEquals(11, small.nextFetch(), "one past the row limit proves a cut");

        ResultBudget big = new ResultBudget(1_000_000, 4L << 20);
        assertEquals(ResultBudget.FIRST_FETCH, big.nextFetch());
        String mib = "x".repeat(1 << 20);
        assertTrue(big.admit(new JsonObject().put("body", mib)));
        int next = big.nextFetch();
        assertTrue(next >= 1 && next <= 4, "about 3 MiB left for rows of 1 MiB: " + next);

        ResultBudget tiny = new ResultBudget(1000, 4L << 20);
        tiny.nextFetch();
        for (int i = 0; i < 64; i++) {
            tiny.admit(new JsonObject().put("n", i));
        }
        assertEquals(4 * ResultBudget.FIRST_FETCH, tiny.nextFetch(), "small rows: fetches grow fourfold at most");
    }

    @Test
    void theFirstFetchSettlesAResultOnlyUnderItsSize() {
        ResultBudget small = new ResultBudget(ResultBudget.FIRST_FETCH - 1, 1 << 20);
        assertTrue(small.settledByFirstFetch());
        assertEquals(ResultBudget.FIRST_FETCH, small.nextFetch(), "the row limit and one row more: all in one fetch");
        ResultBudget large = new ResultBudget(ResultBudget.FIRST_FETCH, 1 << 20);
        assertFalse(large.settledByFirstFetch());
        assertEquals(ResultBudget.FIRST_FETCH, large.nextFetch(), "one row short of the limit and one more");
    }

    @Test
    void aFreshBudgetHasTheSameCapsAndNothingCounted() {
        ResultBudget used = new ResultBudget(2, 1000);
        assertTrue(used.admit("a"));
        assertTrue(used.admit("b"));
        assertFalse(used.admit("c"));
        ResultBudget fresh = used.fresh();
        assertEquals(ResultCut.NONE, fresh.cut());
        assertTrue(fresh.admit("a"));
        assertTrue(fresh.admit("b"));
        assertFalse(fresh.admit("c"), "the same row limit");
        assertEquals(ResultCut.ROW_LIMIT, fresh.cut());
    }
}
