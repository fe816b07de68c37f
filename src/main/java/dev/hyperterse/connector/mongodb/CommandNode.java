package dev.hyperterse.connector.mongodb;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One value of a parsed MongoDB command: fixed JSON, or a hole a bound value fills at call time.
 * The shape of the command (its keys, operators and nesting) is fixed by the template; a bound
 * value only ever becomes one BSON value where its hole stands.
 */
sealed interface CommandNode {

    BsonValue bind(BoundValues values);

    /** A value written in the template (a string, number, boolean, null, ObjectId or date). */
    record Fixed(BsonValue value) implements CommandNode {
        @Override
        public BsonValue bind(BoundValues values) {
            return value;
        }
    }

    /**
     * A placeholder standing for a whole value ({@code {{ inputs.x }}} or {@code "{{ inputs.x }}"}).
     *
     * @param expression the hole is in an aggregation expression, where a string starting with
     *                   {@code $} would read as a field path or variable: such a value is bound as
     *                   {@code {"$literal": …}}
     * @param key        the key the hole is the value of (or, in an array, the array's key), so a
     *                   statement check can stand a value of a fitting type in it
     */
    record Hole(int parameter, boolean expression, String key) implements CommandNode {
        @Override
        public BsonValue bind(BoundValues values) {
            BsonValue value = values.bson(parameter, key);
            return expression && BoundValues.readsAsExpression(value) ? new BsonDocument("$literal", value) : value;
        }
    }

    /** {@code {"$oid": "{{ inputs.id }}"}}: the value must be an ObjectId's 24 hex digits. */
    record ObjectIdHole(int parameter) implements CommandNode {
        @Override
        public BsonValue bind(BoundValues values) {
            return values.objectId(parameter);
        }
    }

    /** {@code {"$date": "{{ inputs.since }}"}}: the value must be a date-time (or milliseconds since 1970). */
    record DateHole(int parameter) implements CommandNode {
        @Override
        public BsonValue bind(BoundValues values) {
            return values.date(parameter);
        }
    }

    /**
     * A string with placeholders inside it ({@code "order-{{ inputs.n }}"}): the values' text is
     * pasted into the string, which stays one string whatever the values hold.
     *
     * @param parts literal {@link String}s and {@link Integer} parameter indexes
     * @param expression as for {@link Hole}; applies when the string starts with a value
     */
    record Text(List<Object> parts, boolean expression) implements CommandNode {
        public Text {
            parts = List.copyOf(parts);
        }

        @Override
        public BsonValue bind(BoundValues values) {
            StringBuilder out = new StringBuilder();
            for (Object part : parts) {
                out.append(part instanceof Integer ? values.text((Integer) part) : (String) part);
            }
            BsonString text = new BsonString(out.toString());
            boolean startsWithValue = parts.get(0) instanceof Integer;
            return expression && startsWithValue && BoundValues.readsAsExpression(text)
                    ? new BsonDocument("$literal", text) : text;
        }
    }

    /** A JSON object, keys in the order written (a command's name must come first). */
    record Document(Map<String, CommandNode> fields) implements CommandNode {
        public Document {
            fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        @Override
        public BsonDocument bind(BoundValues values) {
            BsonDocument doc = new BsonDocument();
            fields.forEach((key, node) -> doc.append(key, node.bind(values)));
            return doc;
        }
    }

    record Array(List<CommandNode> items) implements CommandNode {
        public Array {
            items = List.copyOf(items);
        }

        @Override
        public BsonArray bind(BoundValues values) {
            List<BsonValue> out = new ArrayList<>(items.size());
            items.forEach(item -> out.add(item.bind(values)));
            return new BsonArray(out);
        }
    }
}
