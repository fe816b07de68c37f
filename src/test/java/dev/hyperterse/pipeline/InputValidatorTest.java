package dev.hyperterse.pipeline;

import dev.hyperterse.model.InputConstraints;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolDef;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Call-time checks of the rich input model: every error names the field, the position and the rule. */
class InputValidatorTest {
    private static final SourceLocation AT = new SourceLocation(Path.of("config.terse"), 1);

    private static InputDef input(String name, InputType type, boolean optional, InputDef items,
                                  List<InputDef> properties, InputConstraints rules) {
        return new InputDef(name, type, null, optional, false, null, AT, items, properties, rules);
    }

    private static InputConstraints range(long min, long max) {
        return new InputConstraints(null, BigDecimal.valueOf(min), BigDecimal.valueOf(max), null, null, null, null,
                null);
    }

    private static final ToolDef TOOL = ToolDef.builder("rich").description("d").statement("db", "SELECT 1").inputs(List.of(
            input("ids", InputType.ARRAY, true, input("items", InputType.INT, false, null, List.of(), range(1, 1000)),
                    List.of(), new InputConstraints(null, null, null, null, null, null, 1, 3)),
            input("status", InputType.STRING, true, null, List.of(),
                    new InputConstraints(List.of("open", "closed"), null, null, null, null, null, null, null)),
            input("code", InputType.STRING, true, null, List.of(),
                    new InputConstraints(null, null, null, 2, 5, Pattern.compile("^[A-Z]+$"), null, null)),
            input("slow", InputType.STRING, true, null, List.of(),
                    new InputConstraints(null, null, null, null, null, Pattern.compile("(.*a){15}$"), null, null)),
            input("since", InputType.DATE, true, null, List.of(), null),
            input("ref", InputType.UUID, true, null, List.of(), null),
            input("filter", InputType.OBJECT, true, null, List.of(
                    input("city", InputType.STRING, false, null, List.of(), null),
                    input("points", InputType.ARRAY, true, input("items", InputType.OBJECT, false, null,
                            List.of(input("x", InputType.FLOAT, false, null, List.of(), range(0, 10))), null),
                            List.of(), null)), null),
            input("any", InputType.OBJECT, true, null, List.of(), null)))
            .location(AT).build();

    private static String failure(String json) {
        ToolException e = assertThrows(ToolException.class, () -> InputValidator.validate(TOOL, new JsonObject(json)));
        assertEquals(Stage.INPUT_VALIDATION, e.stage());
        return e.getMessage();
    }

    /** 1e400 inside an object taken as it is would reach a database or script as the string "Infinity". */
    @Test
    void aNumberPastADoubleInsideAnUntypedObjectIsNamedWhereItIs() {
        assertEquals("input validation failed: validation error for field 'any': inputs.any.k[1].n: is a number"
                + " beyond the range of a double", failure("{\"any\": {\"k\": [1, {\"n\": 1e400}]}}"));
        assertEquals("input validation failed: validation error for field 'filter': inputs.filter.points[0].x:"
                + " expected float, got a number beyond the range of a double",
                failure("{\"filter\": {\"city\": \"Oslo\", \"points\": [{\"x\": -1e400}]}}"));
    }

    @Test
    void validValuesAreCoercedAndShapedAsJson() {
        Map<String, Object> out = InputValidator.validate(TOOL, new JsonObject("{\"ids\": [1, \"2\", 3.0],"
                + " \"status\": \"open\", \"code\": \"ABC\", \"since\": \"2024-02-29\","
                + " \"ref\": \"123E4567-E89B-12D3-A456-426614174000\","
                + " \"filter\": {\"city\": \"Oslo\", \"points\": [{\"x\": 2}]}, \"any\": {\"k\": [1, {}]}}"));
        assertEquals(new JsonArray().add(1L).add(2L).add(3L), out.get("ids"));
        assertEquals("2024-02-29", out.get("since"));
        assertEquals("123e4567-e89b-12d3-a456-426614174000", out.get("ref"));
        assertEquals(new JsonObject().put("city", "Oslo").put("points",
                new JsonArray().add(new JsonObject().put("x", 2.0))), out.get("filter"));
        assertEquals(new JsonObject("{\"k\": [1, {}]}"), out.get("any"));
    }

    @Test
    void errorsNameFieldPositionAndRule() {
        assertEquals("input validation failed: validation error for field 'ids': inputs.ids[2]: must be ≤ 1000"
                + " (maximum), got 1001", failure("{\"ids\": [1, 2, 1001]}"));
        assertEquals("input validation failed: validation error for field 'ids': must have at most 3 items"
                + " (max_items), got 4", failure("{\"ids\": [1, 2, 3, 4]}"));
        // the count is checked before any item is coerced: an array far past its limit costs nothing per item
        assertEquals("input validation failed: validation error for field 'ids': must have at most 3 items"
                + " (max_items), got 4", failure("{\"ids\": [1, 2, \"x\", 4]}"));
        assertEquals("input validation failed: validation error for field 'ids': must have at least 1 item"
                + " (min_items), got 0", failure("{\"ids\": []}"));
        assertTrue(failure("{\"ids\": [1, null]}").endsWith("inputs.ids[1]: expected int, got null"));
        assertTrue(failure("{\"ids\": 5}").endsWith("field 'ids': expected array, got 5"));
        assertTrue(failure("{\"status\": \"pending\"}")
                .endsWith("field 'status': must be one of \"open\", \"closed\" (enum), got \"pending\""));
        assertTrue(failure("{\"code\": \"A\"}").endsWith("must be at least 2 characters long (min_length), got 1"));
        assertTrue(failure("{\"code\": \"abc\"}").endsWith("must match the pattern ^[A-Z]+$ (pattern), got \"abc\""));
        assertTrue(failure("{\"since\": \"2024-02-30\"}").endsWith("expected date (YYYY-MM-DD), got \"2024-02-30\""));
        assertTrue(failure("{\"ref\": \"nope\"}").contains("field 'ref': expected uuid"));
        assertTrue(failure("{\"filter\": {}}").endsWith("inputs.filter.city: required field is missing"));
        assertTrue(failure("{\"filter\": {\"city\": \"x\", \"zip\": 1}}")
                .endsWith("inputs.filter.zip: unknown field (allowed: city, points)"));
        assertTrue(failure("{\"filter\": {\"city\": \"x\", \"points\": [{\"x\": 1}, {\"x\": 11}]}}")
                .endsWith("inputs.filter.points[1].x: must be ≤ 10 (maximum), got 11"));
    }

    @Test
    void aCatastrophicPatternIsStoppedNotRunToTheEnd() {
        // (.*a){15}$ against 40 a's and a b tries every way to split the a's into 15 runs (about
        // 10^10, minutes of work; Java's matcher memoizes simpler shapes but not this one): the
        // step budget stops it after a few milliseconds
        String evil = "a".repeat(40) + "b";
        String message = failure("{\"slow\": \"" + evil + "\"}");
        assertTrue(message.contains("could not be checked against the pattern (.*a){15}$ within its step budget"),
                message);
        String tooLong = "a".repeat(InputConstraints.PATTERN_MAX_INPUT + 1);
        assertTrue(failure("{\"slow\": \"" + tooLong + "\"}").contains("is too long to check against its pattern"));
        String fine = "a".repeat(20);
        assertEquals(fine, InputValidator.validate(TOOL, new JsonObject().put("slow", fine)).get("slow"));
    }

    // the outside review's host pattern: 700 letters match its second branch after about 735,000
    // characters read in the first, within the budget of one value but not of 2,000
    private static final Pattern HOSTS = Pattern.compile("^(?:([a-z]+-?)+\\.example\\.com|[a-z]+)$");

    private static final ToolDef PATTERNED = ToolDef.builder("hosts").description("d").statement("db", "SELECT 1").inputs(List.of(
            input("hosts", InputType.ARRAY, true, input("items", InputType.STRING, false, null, List.of(),
                    new InputConstraints(null, null, null, null, null, HOSTS, null, null)), List.of(), null),
            input("rows", InputType.ARRAY, true, input("items", InputType.OBJECT, false, null, List.of(
                    input("host", InputType.STRING, false, null, List.of(),
                            new InputConstraints(null, null, null, null, null, HOSTS, null, null))), null),
                    List.of(), null),
            input("note", InputType.STRING, true, null, List.of(), null)))
            .location(AT).build();

    private static String patternedFailure(JsonObject inputs) {
        ToolException e = assertThrows(ToolException.class, () -> InputValidator.validate(PATTERNED, inputs));
        return e.getMessage();
    }

    /** Each item alone is within its budget; together they are not: the call is refused, not run item by item. */
    @Test
    void patternWorkIsBudgetedPerCallNotPerArrayItem() {
        String letters = "a".repeat(700);
        assertEquals(new JsonArray().add(letters).add(letters),
                InputValidator.validate(PATTERNED, new JsonObject().put("hosts", new JsonArray().add(letters).add(letters)))
                        .get("hosts"));
        JsonArray many = new JsonArray();
        for (int i = 0; i < 10; i++) {
            many.add(letters);
        }
        String message = patternedFailure(new JsonObject().put("hosts", many));
        assertTrue(message.contains("inputs.hosts[5]: could not be checked against the pattern"), message);
        assertTrue(message.contains("this call's values together needed more than the 4000000 characters"), message);
        // objects inside arrays draw on the same budget
        JsonArray rows = new JsonArray();
        for (int i = 0; i < 10; i++) {
            rows.add(new JsonObject().put("host", letters));
        }
        // as a request body decodes it: nested objects as maps
        message = patternedFailure(new JsonObject(new JsonObject().put("rows", rows).encode()));
        assertTrue(message.contains("inputs.rows[5].host: could not be checked against the pattern"), message);
        // and so do different inputs of one call
        JsonObject both = new JsonObject().put("hosts", new JsonArray().add(letters).add(letters).add(letters))
                .put("rows", new JsonArray().add(new JsonObject().put("host", letters)).add(new JsonObject().put("host",
                        letters)).add(new JsonObject().put("host", letters)));
        message = patternedFailure(new JsonObject(both.encode()));
        assertTrue(message.contains("inputs.rows[2].host: could not be checked"), message);
    }

    @Test
    void patternChecksOnMuchTextAreMarkedForAWorker() {
        String shortText = "a".repeat(100);
        assertTrue(!InputValidator.heavy(PATTERNED, Map.of("hosts", new JsonArray().add(shortText))));
        // much text, but no pattern reads it: stays where it is
        assertTrue(!InputValidator.heavy(PATTERNED, Map.of("note", "x".repeat(100_000))));
        assertTrue(!InputValidator.heavy(TOOL, Map.of("status", "x".repeat(100_000))));
        JsonArray many = new JsonArray();
        for (int i = 0; i < 11; i++) {
            many.add(shortText);
        }
        assertTrue(InputValidator.heavy(PATTERNED, Map.of("hosts", many)));
        assertTrue(InputValidator.heavy(PATTERNED, Map.of("rows", new JsonArray().add(new JsonObject().put("host",
                "a".repeat(InputValidator.PATTERN_TEXT_ON_WORKER + 1))))));
    }
}
