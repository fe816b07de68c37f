package dev.hyperterse.pipeline;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a call's failure and its traced inputs cost does not grow with the caller's data: an error
 * message is cut (saying so) before it reaches the caller, the log or a span, and traced inputs
 * read a bounded part of the inputs.
 */
class BoundedFailureTextTest {

    @Test
    void aToolExceptionMessageIsCutSayingSo() {
        String reason = "execution failed: invalid input value for enum mood: \"" + "x".repeat(1_000_000) + "\"";
        ToolException e = new ToolException(Stage.EXECUTION, "t", reason);
        assertTrue(e.getMessage().startsWith("execution failed: invalid input value for enum mood: \"xxx"));
        assertTrue(e.getMessage().endsWith("… (truncated, " + reason.length() + " chars)"), e.getMessage());
        assertTrue(e.getMessage().length() < 2100, "length " + e.getMessage().length());
        assertEquals("short reason", new ToolException(Stage.EXECUTION, "t", "short reason").getMessage());
    }

    @Test
    void tracedInputsReadABoundedPartOfTheInputs() {
        JsonObject inputs = new JsonObject().put("q", "a b" + "a".repeat(1_000_000)).put("password", "hunter2")
                .put("note", "token=abc123 " + "y".repeat(300));
        String traced = TracedInputs.of(inputs);
        JsonObject parsed = new JsonObject(traced);
        assertTrue(parsed.getString("q").endsWith("… (truncated, 1000003 chars)"), parsed.getString("q"));
        assertTrue(parsed.getString("q").length() < 300, "value cut to " + TracedInputs.VALUE_CHARS);
        assertEquals("***", parsed.getString("password"));
        assertTrue(parsed.getString("note").startsWith("token=*** yyy"), parsed.getString("note"));
        assertFalse(traced.contains("hunter2") || traced.contains("abc123"), traced);

        JsonObject many = new JsonObject();
        JsonArray big = new JsonArray();
        for (int i = 0; i < 200_000; i++) {
            many.put("k" + i, i);
            big.add("v" + i);
        }
        String wide = TracedInputs.of(many);
        assertTrue(wide.length() <= TracedInputs.MAX_LENGTH, wide);
        assertTrue(wide.contains("more not traced"), wide);
        String deep = TracedInputs.of(new JsonObject().put("list", big));
        assertTrue(deep.contains("199937 more not traced"), deep);
        String longName = TracedInputs.of(new JsonObject().put("n".repeat(1_000_000), 1));
        assertTrue(longName.length() < 200, longName);
    }

    @Test
    void theConsolesInputsAreMadeWhenReadAndOnlySmallInputsAreKeptUntilThen() {
        JsonObject small = new JsonObject().put("customer_id", 7).put("password", "hunter2")
                .put("tags", new JsonArray().add("a").add(true).add(1.5)).put("filter", new JsonObject().put("q", "x"));
        ConsoleCall later = new ConsoleCall(small).ended();
        String now = TracedInputs.of(small);
        assertEquals(now, later.get(), "the same text as traces show");
        assertEquals(later.get(), later.get(), "asked twice, the same");
        small.put("customer_id", 8);
        assertEquals(TracedInputs.of(small), later.get(), "small inputs are kept, not copied, until read");

        JsonObject longText = new JsonObject().put("q", "z".repeat(TracedInputs.VALUE_CHARS + 1));
        JsonObject many = new JsonObject();
        for (int i = 0; i <= TracedInputs.MAX_VALUES; i++) {
            many.put("k" + i, i);
        }
        JsonObject bigNumber = new JsonObject().put("n", java.math.BigInteger.TEN.pow(100_000));
        JsonObject longName = new JsonObject().put("n".repeat(TracedInputs.VALUE_CHARS + 1), 1);
        for (JsonObject large : java.util.List.of(longText, many, bigNumber, longName)) {
            ConsoleCall text = new ConsoleCall(large).ended();
            String before = TracedInputs.of(large);
            large.put("added", "later");
            assertEquals(before, text.get(), "large inputs are made into text at once, not kept");
        }
    }
}
