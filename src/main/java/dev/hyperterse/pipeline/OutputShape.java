package dev.hyperterse.pipeline;

import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.InputValueException;
import dev.hyperterse.model.PatternBudget;
import dev.hyperterse.search.InputSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a tool's result looks like: MCP's {@code outputSchema} of it, and a check of actual rows
 * against it. The structured result is {@code {"rows": [...]}} with the rows the text block
 * carries as JSON, and {@code "truncated": true} when a limit cut them.
 *
 * <p>A database tool's rows are described by the columns its database reported when the
 * statement was prepared ({@link #ofColumns}): every column a key of each row, its value null or
 * of the column's JSON types. A tool that declares {@code output} gets that declaration
 * ({@link #declared}): an {@code object} describes each row, an {@code array} the rows (a
 * non-object element is the row {@code {"value": element}}, as every result is turned into rows).
 */
public final class OutputShape {
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /**
     * Why a row does not fit, at its path ({@code rows[3].price: …}), or null when it does. The
     * path is written only for a row that does not fit: a check runs for every row of a result.
     */
    private interface RowCheck {
        String mismatch(JsonObject row, int index, PatternBudget budget);
    }

    private final JsonObject schema;
    private final RowCheck check;
    private final boolean declared;

    private OutputShape(JsonObject row, String description, RowCheck check, boolean declared) {
        JsonObject schema = new JsonObject().put("type", "object");
        if (description != null && !description.isEmpty()) {
            schema.put("description", description);
        }
        this.schema = schema.put("properties", new JsonObject()
                        .put("rows", new JsonObject().put("type", "array").put("items", row))
                        .put("truncated", new JsonObject().put("type", "boolean")
                                .put("description", "Present and true when a limit cut the rows (row_limit or"
                                        + " result_max_bytes).")))
                .put("required", new JsonArray().add("rows"));
        this.check = check;
        this.declared = declared;
    }

    /** The shape of a statement's rows, from the columns its database described. */
    public static OutputShape ofColumns(ResultColumns described) {
        if (described.affectsRows()) {
            JsonObject row = new JsonObject().put("type", "object")
                    .put("properties", new JsonObject().put("rows_affected", new JsonObject().put("type", "integer")))
                    .put("required", new JsonArray().add("rows_affected"));
            return new OutputShape(row, null, (r, index, budget) -> integral(r.getValue("rows_affected")) ? null
                    : path(index) + ".rows_affected: expected integer, got " + InputType.describe(r.getValue("rows_affected")),
                    false);
        }
        // a repeated name is one key: its first position, the last column's value
        Map<String, ResultColumns.Column> byName = new LinkedHashMap<>();
        for (ResultColumns.Column c : described.columns()) {
            byName.put(c.name(), c);
        }
        JsonObject properties = new JsonObject();
        JsonArray required = new JsonArray();
        byName.forEach((name, column) -> {
            JsonObject property = new JsonObject();
            if (!column.jsonTypes().isEmpty()) {
                JsonArray types = new JsonArray();
                column.jsonTypes().forEach(types::add);
                property.put("type", types.add("null"));
            }
            if (column.format() != null) {
                property.put("format", column.format());
            }
            properties.put(name, property);
            required.add(name);
        });
        JsonObject row = new JsonObject().put("type", "object").put("properties", properties).put("required", required);
        List<ResultColumns.Column> columns = new ArrayList<>(byName.values());
        return new OutputShape(row, null, (r, index, budget) -> {
            for (ResultColumns.Column column : columns) {
                if (!r.containsKey(column.name())) {
                    return path(index) + "." + column.name() + ": the column is missing";
                }
                Object value = r.getValue(column.name());
                if (value == null) {
                    continue;
                }
                if (!column.jsonTypes().isEmpty() && !isAny(column.jsonTypes(), value)) {
                    return path(index) + "." + column.name() + ": expected " + String.join(" or ", column.jsonTypes())
                            + " or null, got " + InputType.describe(value);
                }
                if ("uuid".equals(column.format()) && value instanceof String
                        && !UUID_TEXT.matcher((String) value).matches()) {
                    return path(index) + "." + column.name() + ": expected a uuid, got " + InputType.describe(value);
                }
            }
            return null;
        }, false);
    }

    /** The shape a tool file declares in {@code output} (of type object or array). */
    public static OutputShape declared(InputDef output) {
        JsonObject row;
        RowCheck check;
        InputDef items = output.items();
        if (output.type() == InputType.OBJECT) {
            row = InputSchema.ofOutput(output);
            check = (r, index, budget) -> mismatch(output, r, path(index), budget);
        } else if (items == null) {
            row = new JsonObject().put("type", "object");
            check = (r, index, budget) -> null;
        } else if (items.type() == InputType.OBJECT) {
            row = InputSchema.ofOutput(items);
            check = (r, index, budget) -> mismatch(items, r, path(index), budget);
        } else {
            row = new JsonObject().put("type", "object")
                    .put("properties", new JsonObject().put("value", InputSchema.ofOutput(items)))
                    .put("required", new JsonArray().add("value"))
                    .put("additionalProperties", false);
            check = (r, index, budget) -> r.size() == 1 && r.containsKey("value")
                    ? mismatch(items, r.getValue("value"), path(index) + ".value", budget)
                    : path(index) + ": expected " + items.type().keyword() + ", got an object";
        }
        row.remove("description");
        return new OutputShape(row, output.description(), check, true);
    }

    /** The outputSchema, a fresh copy. */
    public JsonObject schema() {
        return schema.copy();
    }

    /** True when the tool file declared it (a mismatch is then the tool's failure). */
    public boolean declared() {
        return declared;
    }

    /** Why the rows do not fit this shape, naming the first value that does not ({@code rows[3].price: …}), or null. */
    public String mismatch(JsonArray rows) {
        // one pattern budget for the whole result, as for a call's inputs
        PatternBudget budget = PatternBudget.forCall();
        for (int i = 0; i < rows.size(); i++) {
            Object row = rows.getValue(i);
            if (!(row instanceof JsonObject)) {
                return path(i) + ": expected an object, got " + InputType.describe(row);
            }
            String problem = check.mismatch((JsonObject) row, i, budget);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String path(int index) {
        return "rows[" + index + "]";
    }

    /** Whether a value has one of the JSON Schema types. */
    private static boolean isAny(List<String> types, Object value) {
        for (String type : types) {
            if (is(type, value)) {
                return true;
            }
        }
        return false;
    }

    /** A tool's structured result: its rows, and {@code truncated: true} when they were cut. */
    public static JsonObject content(ToolResult result) {
        JsonObject content = new JsonObject().put("rows", result.rows());
        return result.truncated() ? content.put("truncated", true) : content;
    }

    /** Whether a JSON value has the JSON Schema type. */
    private static boolean is(String type, Object value) {
        switch (type) {
            case "string":
                return value instanceof String;
            case "boolean":
                return value instanceof Boolean;
            case "integer":
                return integral(value);
            case "number":
                return value instanceof Number && finite((Number) value);
            case "array":
                return value instanceof JsonArray || value instanceof List;
            case "object":
                return value instanceof JsonObject || value instanceof Map;
            default:
                return false;
        }
    }

    private static boolean finite(Number n) {
        return !(n instanceof Double || n instanceof Float) || Double.isFinite(n.doubleValue());
    }

    /** A whole number (JSON Schema counts 2.0 as an integer). */
    private static boolean integral(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return true;
        }
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).stripTrailingZeros().scale() <= 0;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) && d == Math.rint(d);
        }
        return false;
    }

    /**
     * Why a value does not keep its declaration: its type taken strictly (no coercion: a string
     * is no int), then its elements or properties, then its rules ({@code enum}, {@code minimum}, …).
     */
    private static String mismatch(InputDef def, Object value, String path, PatternBudget budget) {
        InputType type = def.type();
        Object checked;
        switch (type) {
            case STRING:
            case BOOLEAN:
                if (!is(type == InputType.STRING ? "string" : "boolean", value)) {
                    return expected(type, value, path);
                }
                checked = value;
                break;
            case INT:
                if (!integral(value)) {
                    return expected(type, value, path);
                }
                BigDecimal whole = InputType.decimal((Number) value);
                checked = whole.toBigIntegerExact().bitLength() < 64 ? (Object) whole.longValueExact() : whole;
                break;
            case FLOAT:
                if (!is("number", value)) {
                    return expected(type, value, path);
                }
                checked = ((Number) value).doubleValue();
                break;
            case DATETIME:
            case DATE:
            case UUID:
                if (!(value instanceof String)) {
                    return expected(type, value, path);
                }
                try {
                    checked = type.coerce(value);
                } catch (InputValueException e) {
                    return path + ": " + e.getMessage();
                }
                break;
            case ARRAY:
                List<?> list = value instanceof JsonArray ? ((JsonArray) value).getList()
                        : value instanceof List ? (List<?>) value : null;
                if (list == null) {
                    return expected(type, value, path);
                }
                String element = elements(def.items(), list, path, budget);
                if (element != null) {
                    return element;
                }
                checked = list;
                break;
            case OBJECT:
                Map<?, ?> map = value instanceof JsonObject ? ((JsonObject) value).getMap()
                        : value instanceof Map ? (Map<?, ?>) value : null;
                if (map == null) {
                    return expected(type, value, path);
                }
                String property = properties(def, map, path, budget);
                if (property != null) {
                    return property;
                }
                checked = map;
                break;
            default:
                throw new IllegalStateException(type.name());
        }
        try {
            def.constraints().check(checked, budget);
        } catch (InputValueException e) {
            return path + ": " + e.getMessage();
        }
        return null;
    }

    private static String elements(InputDef items, List<?> list, String path, PatternBudget budget) {
        if (items == null) {
            return null;
        }
        for (int i = 0; i < list.size(); i++) {
            Object element = list.get(i);
            String at = path + "[" + i + "]";
            String problem = element == null ? expected(items.type(), null, at) : mismatch(items, element, at, budget);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /** Declared properties are required unless optional (then they may also be null); no others may appear. */
    private static String properties(InputDef def, Map<?, ?> map, String path, PatternBudget budget) {
        if (def.properties().isEmpty()) {
            return null;
        }
        for (Object key : map.keySet()) {
            if (def.properties().stream().noneMatch(p -> p.name().equals(key))) {
                List<String> names = def.properties().stream().map(InputDef::name).toList();
                return path + "." + key + ": not a declared field (declared: " + String.join(", ", names) + ")";
            }
        }
        for (InputDef p : def.properties()) {
            Object v = map.get(p.name());
            String at = path + "." + p.name();
            if (v == null) {
                if (!p.optional()) {
                    return map.containsKey(p.name()) ? expected(p.type(), null, at) : at + ": required field is missing";
                }
                continue;
            }
            String problem = mismatch(p, v, at, budget);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String expected(InputType type, Object value, String path) {
        return path + ": expected " + type.keyword() + ", got " + InputType.describe(value);
    }
}
