package dev.hyperterse.pipeline;

import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.model.InputConstraints;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.testing.OutputSchemas;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Output shapes: each check of the server agrees with a JSON Schema validator reading the
 * outputSchema the server advertises, and names the first value that does not fit.
 */
class OutputShapeTest {

    private static InputDef field(String name, InputType type, boolean optional, InputDef items,
                                  List<InputDef> properties, InputConstraints rules) {
        return new InputDef(name, type, null, optional, false, null, null, items, properties, rules);
    }

    private static InputDef field(String name, InputType type) {
        return field(name, type, false, null, List.of(), InputConstraints.NONE);
    }

    /** {id: int ≥ 1, status: open|closed, tags: [string], when?: date, line?: {sku: uuid}} */
    private static final InputDef ORDER = field("output", InputType.OBJECT, false, null, List.of(
            field("id", InputType.INT, false, null, List.of(),
                    new InputConstraints(null, BigDecimal.ONE, null, null, null, null, null, null)),
            field("status", InputType.STRING, false, null, List.of(),
                    new InputConstraints(List.of("open", "closed"), null, null, null, null, null, null, null)),
            field("tags", InputType.ARRAY, false, field("items", InputType.STRING), List.of(),
                    new InputConstraints(null, null, null, null, null, null, null, 2)),
            field("when", InputType.DATE, true, null, List.of(), InputConstraints.NONE),
            field("line", InputType.OBJECT, true, null, List.of(field("sku", InputType.UUID)), InputConstraints.NONE)),
            InputConstraints.NONE);

    /** The server's verdict, after checking that the validator reaches the same one. */
    private static String mismatch(OutputShape shape, JsonArray rows) {
        String mismatch = shape.mismatch(rows);
        List<String> problems = OutputSchemas.problems(shape.schema(), new JsonObject().put("rows", rows));
        assertEquals(mismatch == null, problems.isEmpty(), mismatch + " / " + problems);
        return mismatch;
    }

    private static JsonArray rows(String json) {
        return new JsonArray(json);
    }

    @Test
    void aDeclaredObjectIsEachRowAndIsCheckedStrictly() {
        OutputShape shape = OutputShape.declared(ORDER);
        assertNull(mismatch(shape, rows("[{\"id\":1,\"status\":\"open\",\"tags\":[\"a\"]},"
                + "{\"id\":2.0,\"status\":\"closed\",\"tags\":[],\"when\":null,"
                + "\"line\":{\"sku\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\"}}]")));
        assertEquals("rows[0].id: expected int, got \"1\"",
                mismatch(shape, rows("[{\"id\":\"1\",\"status\":\"open\",\"tags\":[]}]")));
        assertEquals("rows[1].id: must be ≥ 1 (minimum), got 0", mismatch(shape,
                rows("[{\"id\":1,\"status\":\"open\",\"tags\":[]},{\"id\":0,\"status\":\"open\",\"tags\":[]}]")));
        assertEquals("rows[0].status: must be one of \"open\", \"closed\" (enum), got \"gone\"",
                mismatch(shape, rows("[{\"id\":1,\"status\":\"gone\",\"tags\":[]}]")));
        assertEquals("rows[0].tags[1]: expected string, got 2",
                mismatch(shape, rows("[{\"id\":1,\"status\":\"open\",\"tags\":[\"a\",2]}]")));
        assertEquals("rows[0].tags: must have at most 2 items (max_items), got 3",
                mismatch(shape, rows("[{\"id\":1,\"status\":\"open\",\"tags\":[\"a\",\"b\",\"c\"]}]")));
        assertEquals("rows[0].tags: required field is missing",
                mismatch(shape, rows("[{\"id\":1,\"status\":\"open\"}]")));
        assertEquals("rows[0].status: expected string, got null",
                mismatch(shape, rows("[{\"id\":1,\"status\":null,\"tags\":[]}]")));
        assertEquals("rows[0].colour: not a declared field (declared: id, status, tags, when, line)",
                mismatch(shape, rows("[{\"id\":1,\"status\":\"open\",\"tags\":[],\"colour\":\"red\"}]")));
        assertEquals("rows[0].when: expected date (YYYY-MM-DD), got \"soon\"",
                mismatch(shape, rows("[{\"id\":1,\"status\":\"open\",\"tags\":[],\"when\":\"soon\"}]")));
        assertEquals("rows[0].line.sku: expected uuid (such as 123e4567-e89b-12d3-a456-426614174000), got \"x\"",
                mismatch(shape, rows("[{\"id\":1,\"status\":\"open\",\"tags\":[],\"line\":{\"sku\":\"x\"}}]")));
    }

    @Test
    void aDeclaredArrayOfScalarsIsRowsOfValues() {
        OutputShape shape = OutputShape.declared(field("output", InputType.ARRAY, false,
                field("items", InputType.FLOAT), List.of(), InputConstraints.NONE));
        assertNull(mismatch(shape, rows("[{\"value\":1},{\"value\":2.5}]")));
        assertEquals("rows[1].value: expected float, got \"2\"", mismatch(shape, rows("[{\"value\":1},{\"value\":\"2\"}]")));
        assertEquals("rows[0]: expected float, got an object", mismatch(shape, rows("[{\"n\":1}]")));
        OutputShape any = OutputShape.declared(field("output", InputType.ARRAY));
        assertNull(mismatch(any, rows("[{\"value\":1},{\"a\":[1,{}]}]")));
    }

    @Test
    void describedColumnsAllowNullAndTheirTypesOnly() {
        OutputShape shape = OutputShape.ofColumns(new ResultColumns(List.of(
                ResultColumns.Column.of("id", "integer"),
                ResultColumns.Column.of("price", "number", "string"),
                new ResultColumns.Column("ref", List.of("string"), "uuid"),
                ResultColumns.Column.any("doc"))));
        assertNull(mismatch(shape, rows("[{\"id\":1,\"price\":\"12345678901234567890.1\",\"ref\":null,\"doc\":[1]},"
                + "{\"id\":null,\"price\":1.5,\"ref\":\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\",\"doc\":{\"a\":null}}]")));
        assertEquals("rows[0].id: expected integer or null, got 1.5",
                mismatch(shape, rows("[{\"id\":1.5,\"price\":1,\"ref\":null,\"doc\":null}]")));
        assertEquals("rows[0].price: expected number or string or null, got true",
                mismatch(shape, rows("[{\"id\":1,\"price\":true,\"ref\":null,\"doc\":null}]")));
        assertEquals("rows[0].ref: expected a uuid, got \"x\"",
                mismatch(shape, rows("[{\"id\":1,\"price\":1,\"ref\":\"x\",\"doc\":null}]")));
        assertEquals("rows[0].doc: the column is missing", mismatch(shape, rows("[{\"id\":1,\"price\":1,\"ref\":null}]")));

        OutputShape writes = OutputShape.ofColumns(ResultColumns.NONE);
        assertNull(mismatch(writes, rows("[{\"rows_affected\":3}]")));
        assertEquals("rows[0].rows_affected: expected integer, got \"3\"",
                mismatch(writes, rows("[{\"rows_affected\":\"3\"}]")));
    }

    @Test
    void theStructuredResultIsTheRowsAndSaysWhenTheyWereCut() {
        JsonArray rows = rows("[{\"n\":1}]");
        assertEquals("{\"rows\":[{\"n\":1}]}",
                OutputShape.content(new ToolResult(rows, dev.hyperterse.model.ResultCut.NONE, 10, 100)).encode());
        assertEquals("{\"rows\":[{\"n\":1}],\"truncated\":true}",
                OutputShape.content(new ToolResult(rows, dev.hyperterse.model.ResultCut.ROW_LIMIT, 1, 100)).encode());
        assertFalse(OutputShape.declared(ORDER).schema().containsKey("$schema"),
                "no $schema: clients validating with draft-07 validators would refuse a 2020-12 one");
    }
}
