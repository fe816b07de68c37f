package dev.hyperterse.project;

import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.ToolAnnotations;
import dev.hyperterse.model.ToolDef;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.project.ProjectFixture.assertProblemAt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rich input model in tool files: types, nesting, constraints, and the file:line of each mistake. */
class RichInputsTest {
    @TempDir
    Path dir;
    ProjectFixture p;

    @BeforeEach
    void minimalProject() {
        p = ProjectFixture.withSqliteDb(dir);
    }

    private Path tool(String folder, String... lines) {
        return p.tool(folder, lines);
    }

    @Test
    void everyTypeAndConstraintReads() throws Exception {
        tool("rich", "use: db",
                "statement: SELECT {{ inputs.status }}, {{ inputs.ids }}, {{ inputs.since }}, {{ inputs.ref }},"
                        + " {{ inputs.filter }}, {{ inputs.code }}, {{ inputs.ratio }}",
                "inputs:",
                "  status: {type: string, enum: [open, closed], default: open}",
                "  ids: {type: array, items: {type: int, minimum: 1, maximum: 1000}, min_items: 1, max_items: 50}",
                "  since: {type: date, optional: true}",
                "  ref: {type: uuid, optional: true}",
                "  filter:",
                "    type: object",
                "    optional: true",
                "    properties:",
                "      city: {type: string, max_length: 40}",
                "      tags: {type: array, items: string, default: [a, b]}",
                "  code: {type: string, pattern: '^[A-Z]{3}$', min_length: 3, max_length: 3, default: ABC}",
                "  ratio: {type: float, minimum: 0, maximum: 1.5, enum: [0.5, 1.5], default: 1.5}");
        ToolDef t = p.compile().tools().get("rich");
        InputDef ids = t.input("ids").orElseThrow();
        assertEquals(InputType.ARRAY, ids.type());
        assertEquals(InputType.INT, ids.items().type());
        assertEquals(1000, ids.items().constraints().maximum().intValue());
        assertEquals(50, ids.constraints().maxItems());
        assertEquals(List.of("open", "closed"), t.input("status").orElseThrow().constraints().enumValues());
        InputDef filter = t.input("filter").orElseThrow();
        assertEquals(2, filter.properties().size());
        assertEquals(List.of("a", "b"), filter.properties().get(1).defaultValue());
        assertEquals("ABC", t.input("code").orElseThrow().defaultValue());
        assertEquals(List.of(0.5, 1.5), t.input("ratio").orElseThrow().constraints().enumValues());
        assertEquals(InputType.DATE, t.input("since").orElseThrow().type());
        assertEquals(InputType.UUID, t.input("ref").orElseThrow().type());
    }

    @Test
    void aDefaultThatBreaksItsOwnConstraintIsAnErrorAtItsLine() {
        Path f = tool("t", "use: db", "statement: SELECT {{ inputs.n }}, {{ inputs.ids }}, {{ inputs.s }}",
                "inputs:",
                "  n:",
                "    type: int",
                "    maximum: 10",
                "    default: 11",
                "  ids:",
                "    type: array",
                "    items: {type: int, maximum: 5}",
                "    default: [1, 2, 9]",
                "  s:",
                "    type: string",
                "    enum: [x, y]",
                "    default: z");
        ProjectException e = p.fails();
        assertProblemAt(e, f, "default: 11", "default for input 'n'", "must be ≤ 10 (maximum)");
        assertProblemAt(e, f, "default: [1, 2, 9]", "default for input 'ids' at [2]", "must be ≤ 5 (maximum)");
        assertProblemAt(e, f, "default: z", "default for input 's'", "must be one of \"x\", \"y\" (enum)");
        assertEquals(3, e.problems().size(), e.getMessage());
    }

    @Test
    void constraintsOnTheWrongTypeAndBadValuesAreErrors() {
        Path f = tool("t", "use: db", "statement: SELECT {{ inputs.a }}, {{ inputs.b }}, {{ inputs.c }}, {{ inputs.d }}",
                "inputs:",
                "  a: {type: string, minimum: 1}",
                "  b: {type: int, pattern: '[0-9]+', min_items: 2}",
                "  c: {type: string, pattern: '(unclosed', min_length: 5, max_length: 2}",
                "  d: {type: array, items: integer, enum: [1]}");
        ProjectException e = p.fails();
        assertProblemAt(e, f, "a: {", "'inputs.a.minimum' is for inputs of type int or float, not string");
        assertProblemAt(e, f, "b: {", "'inputs.b.pattern' is for inputs of type string, not int");
        assertProblemAt(e, f, "b: {", "'inputs.b.min_items' is for inputs of type array, not int");
        assertProblemAt(e, f, "c: {", "'inputs.c.pattern' is not a valid regular expression");
        assertProblemAt(e, f, "c: {", "'inputs.c.min_length' is greater than 'max_length'");
        assertProblemAt(e, f, "d: {", "'inputs.d.items' must be a type", "got \"integer\"");
        assertProblemAt(e, f, "d: {", "'inputs.d.enum' is for inputs of a single-value type, not array");
        assertEquals(7, e.problems().size(), e.getMessage());
    }

    @Test
    void nestedMistakesNameTheirFullKey() {
        Path f = tool("t", "use: db", "statement: SELECT {{ inputs.o }}",
                "inputs:",
                "  o:",
                "    type: object",
                "    properties:",
                "      city: {type: strng}",
                "      zip: {type: string, optinal: true}",
                "    items: int");
        ProjectException e = p.fails();
        assertProblemAt(e, f, "city:", "'inputs.o.properties.city.type' must be one of", "did you mean 'string'?");
        assertProblemAt(e, f, "optinal", "unknown key 'inputs.o.properties.zip.optinal'");
        assertProblemAt(e, f, "items: int", "'inputs.o.items' is for inputs of type array, not object");
        assertEquals(3, e.problems().size(), e.getMessage());
    }

    @Test
    void enumValuesMustFitTheTypeAndTheOtherRules() {
        Path f = tool("t", "use: db", "statement: SELECT {{ inputs.n }}",
                "inputs:",
                "  n:",
                "    type: int",
                "    minimum: 1",
                "    enum:",
                "      - 0",
                "      - two",
                "      - 3");
        ProjectException e = p.fails();
        assertProblemAt(e, f, "- 0", "'inputs.n.enum' value 0: must be ≥ 1 (minimum)");
        assertProblemAt(e, f, "- two", "'inputs.n.enum' value \"two\": expected int");
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    @Test
    void hyperterseInputsReadAsBefore() throws Exception {
        tool("plain", "use: db", "statement: SELECT {{ inputs.a }}",
                "inputs:", "  a:", "    type: datetime", "    default: '2024-01-01 10:00:00'");
        InputDef a = p.compile().tools().get("plain").input("a").orElseThrow();
        assertEquals("2024-01-01T10:00:00", a.defaultValue());
        assertNull(a.items());
        assertTrue(a.constraints().isEmpty());
        assertTrue(a.properties().isEmpty());
        assertEquals(Map.of(), Map.of());
    }

    @Test
    void titleTagsAndAnnotationsAreReadOrInferred() throws Exception {
        p.write("app/adapters/cache.terse", "connector: redis\nconnection_string: redis://127.0.0.1:6379\n");
        tool("read", "use: db", "statement: SELECT 1", "title: Read things", "tags: [reports, read, reports]");
        tool("write", "use: db", "statement: INSERT INTO t VALUES (1)", "annotations: {idempotent: true}");
        tool("remove", "use: db", "statement: DELETE FROM t");
        tool("forget", "use: cache", "statement: DEL k");
        p.handlerTool("hand", "annotations: {open_world: true}");
        Map<String, ToolDef> tools = p.compile().tools();
        assertEquals("Read things", tools.get("read").title());
        assertEquals(List.of("reports", "read"), tools.get("read").tags());
        assertEquals(new ToolAnnotations(true, false, true, false), tools.get("read").annotations());
        assertEquals(new ToolAnnotations(false, false, true, false), tools.get("write").annotations());
        assertEquals(new ToolAnnotations(false, true, null, false), tools.get("remove").annotations());
        assertEquals(new ToolAnnotations(false, true, null, false), tools.get("forget").annotations());
        assertEquals(new ToolAnnotations(null, null, null, true), tools.get("hand").annotations());
    }

    @Test
    void badAnnotationsAndTagsAreErrors() {
        Path f = tool("t", "use: db", "statement: SELECT 1", "tags: [ok, {a: 1}]",
                "annotations:", "  read_only: maybe", "  destructiv: true");
        ProjectException e = p.fails();
        assertProblemAt(e, f, "tags:", "'tags' must be a list of strings");
        assertProblemAt(e, f, "read_only", "'annotations.read_only' must be true or false");
        assertProblemAt(e, f, "destructiv", "unknown key 'annotations.destructiv'", "did you mean 'destructive'?");
        assertEquals(3, e.problems().size(), e.getMessage());
    }

    @Test
    void aHandlerOrAnOutputMapperDeclaresItsOutput() throws Exception {
        p.handlerTool("object", String.join("\n", "description: One order",
                "output:",
                "  type: object",
                "  description: The order",
                "  properties:",
                "    id: {type: int, minimum: 1}",
                "    status: {type: string, enum: [open, closed]}",
                "    lines: {type: array, items: {type: object, properties: {sku: {type: string}}}}",
                "    note: {type: string, optional: true}", ""));
        p.handlerTool("list", "output: {type: array, items: int}\n");
        tool("mapped", "use: db", "statement: SELECT 1 AS n", "output: {type: array}");
        p.write("app/tools/mapped/output.ts", "export default ({ results }: any) => results;\n");
        Map<String, ToolDef> tools = p.compile().tools();
        InputDef object = tools.get("object").output();
        assertEquals(InputType.OBJECT, object.type());
        assertEquals("The order", object.description());
        assertEquals(List.of("id", "status", "lines", "note"), object.properties().stream().map(InputDef::name).toList());
        assertEquals(List.of("open", "closed"), object.properties().get(1).constraints().enumValues());
        assertEquals(InputType.OBJECT, object.properties().get(2).items().type());
        assertTrue(object.properties().get(3).optional());
        assertEquals(InputType.INT, tools.get("list").output().items().type());
        assertEquals(InputType.ARRAY, tools.get("mapped").output().type());
        assertNull(tools.get("mapped").output().items());
        assertNull(tools.get("object").input("id").orElse(null), "an output is not an input");
    }

    @Test
    void outputMistakesAreErrorsAtTheirLine() {
        Path scalar = p.handlerTool("scalar", "output: {type: int}\n");
        Path nested = p.handlerTool("nested", String.join("\n", "output:",
                "  type: object",
                "  optional: true",
                "  properties:",
                "    n: {type: int, default: 1}",
                "    s: {type: string, minimum: 2}",
                "    d: {type: integer}",
                "    l:",
                "      type: array",
                "      items: {type: int, default: 2}", ""));
        Path database = tool("database", "use: db", "statement: SELECT 1 AS n", "output:", "  type: object");
        Path notMap = p.handlerTool("list", "output: [a, b]\n");
        ProjectException e = p.fails();
        assertProblemAt(e, scalar, "output:", "'output.type' must be object or array, got \"int\"");
        assertProblemAt(e, nested, "optional:", "unknown key 'output.optional'");
        assertProblemAt(e, nested, "n: {", "'output.properties.n.default': an output has no default");
        assertProblemAt(e, nested, "s: {", "'output.properties.s.minimum' is for inputs of type int or float, not string");
        assertProblemAt(e, nested, "d: {", "'output.properties.d.type' must be one of", "got \"integer\"");
        assertProblemAt(e, nested, "items:", "unknown key 'output.properties.l.items.default'");
        assertProblemAt(e, database, "type: object", "'output' declares what a handler or an output mapper returns;",
                "tool 'database' returns its statement's rows, whose columns its database describes");
        assertProblemAt(e, notMap, "output:", "'output' must be a mapping");
        assertEquals(8, e.problems().size(), e.getMessage());
    }
}
