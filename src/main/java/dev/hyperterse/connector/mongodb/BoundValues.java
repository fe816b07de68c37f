package dev.hyperterse.connector.mongodb;

import dev.hyperterse.connector.BindText;
import dev.hyperterse.connector.CompiledStatement.Parameter;
import dev.hyperterse.connector.CompiledStatement.Source;
import dev.hyperterse.connector.ConnectorException;
import dev.hyperterse.model.CallerText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One call's bound values (coerced inputs and claims, in parameter order) as BSON values. A
 * value becomes data only: a string stays a string (never parsed as JSON), and an object value
 * may not carry a key starting with {@code $}, so no value can add an operator.
 */
final class BoundValues {
    /**
     * What stands in a hole when a statement is checked without values ({@code validate --check-db}):
     * a value of the type its key takes, so the check judges the statement, not a missing value.
     */
    private static final Map<String, BsonValue> CHECK_VALUES = Map.ofEntries(
            Map.entry("limit", new BsonInt32(1)), Map.entry("skip", new BsonInt32(0)),
            Map.entry("batchSize", new BsonInt32(1)), Map.entry("$limit", new BsonInt32(1)),
            Map.entry("$skip", new BsonInt32(0)), Map.entry("size", new BsonInt32(1)),
            Map.entry("$sample", new BsonDocument("size", new BsonInt32(1))), Map.entry("maxTimeMS", new BsonInt32(1000)),
            Map.entry("$regex", new BsonString("")), Map.entry("$options", new BsonString("")),
            Map.entry("$search", new BsonString("")), Map.entry("$in", new BsonArray()),
            Map.entry("$nin", new BsonArray()), Map.entry("$all", new BsonArray()));

    private final List<Parameter> parameters;
    private final List<Object> values;
    private final boolean checking;

    BoundValues(List<Parameter> parameters, List<Object> values) {
        this(parameters, values, false);
    }

    private BoundValues(List<Parameter> parameters, List<Object> values, boolean checking) {
        if (parameters.size() != values.size()) {
            throw new IllegalArgumentException("statement has " + parameters.size() + " parameters but "
                    + values.size() + " values were given");
        }
        this.parameters = parameters;
        this.values = values;
        this.checking = checking;
    }

    /** Stand-ins for every hole: to check a statement's shape against a server before any call. */
    static BoundValues forCheck(List<Parameter> parameters) {
        return new BoundValues(parameters, java.util.Collections.nCopies(parameters.size(), null), true);
    }

    /** @param key the key the value stands under (see {@link #forCheck}) */
    BsonValue bson(int parameter, String key) {
        if (checking) {
            return CHECK_VALUES.getOrDefault(key == null ? "" : key, BsonNull.VALUE);
        }
        return toBson(values.get(parameter), parameter);
    }

    ObjectId objectIdValue(int parameter) {
        if (checking) {
            return new ObjectId(new byte[12]);
        }
        Object value = values.get(parameter);
        if (value instanceof String && ObjectId.isValid((String) value)) {
            return new ObjectId((String) value);
        }
        throw new ConnectorException(name(parameter) + " must be an ObjectId (24 hex digits) to stand in {\"$oid\": …}");
    }

    BsonObjectId objectId(int parameter) {
        return new BsonObjectId(objectIdValue(parameter));
    }

    BsonDateTime date(int parameter) {
        if (checking) {
            return new BsonDateTime(0);
        }
        Object value = values.get(parameter);
        if (value instanceof Long || value instanceof Integer) {
            return new BsonDateTime(((Number) value).longValue());
        }
        if (value instanceof String) {
            Temporal t = BindText.dateTime((String) value);
            if (t instanceof OffsetDateTime) {
                return new BsonDateTime(((OffsetDateTime) t).toInstant().toEpochMilli());
            }
            if (t instanceof LocalDateTime) {
                return new BsonDateTime(((LocalDateTime) t).toInstant(ZoneOffset.UTC).toEpochMilli());
            }
            if (t instanceof LocalDate) {
                return new BsonDateTime(((LocalDate) t).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli());
            }
        }
        throw new ConnectorException(name(parameter) + " must be a date-time (such as 2024-06-01T10:00:00Z) to stand"
                + " in {\"$date\": …}");
    }

    /** The value's text, pasted into a string of the template. */
    String text(int parameter) {
        if (checking) {
            return "";
        }
        Object value = values.get(parameter);
        if (value == null) {
            throw new ConnectorException(name(parameter) + " has no value, and it stands inside a string of the"
                    + " statement; give the input a default");
        }
        if (value instanceof Map || value instanceof List) {
            throw new ConnectorException(name(parameter) + " is an object or array, and it stands inside a string"
                    + " of the statement; write the placeholder as a whole value");
        }
        return BindText.of(value);
    }

    /** True for a value an aggregation expression would not read as itself: a {@code $} string, a document, an array. */
    static boolean readsAsExpression(BsonValue value) {
        return value.isString() && value.asString().getValue().startsWith("$") || value.isDocument() || value.isArray();
    }

    private BsonValue toBson(Object value, int parameter) {
        if (value == null) {
            return BsonNull.VALUE;
        }
        if (value instanceof String) {
            return new BsonString((String) value);
        }
        if (value instanceof Boolean) {
            return BsonBoolean.valueOf((Boolean) value);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            long n = ((Number) value).longValue();
            return n == (int) n ? new BsonInt32((int) n) : new BsonInt64(n);
        }
        if (value instanceof BigInteger) {
            BigInteger n = (BigInteger) value;
            return n.bitLength() < 64 ? new BsonInt64(n.longValue()) : decimal128(new BigDecimal(n), parameter);
        }
        if (value instanceof BigDecimal) {
            return decimal128((BigDecimal) value, parameter);
        }
        if (value instanceof Number) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                // JSON has no infinities: the reader turns a literal past a double's range (1e400) into one
                throw new ConnectorException(name(parameter) + " holds a number beyond the range of a double");
            }
            return new BsonDouble(d);
        }
        if (value instanceof JsonObject) {
            return toBson(((JsonObject) value).getMap(), parameter);
        }
        if (value instanceof JsonArray) {
            return toBson(((JsonArray) value).getList(), parameter);
        }
        if (value instanceof Map) {
            BsonDocument doc = new BsonDocument();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                String key = String.valueOf(e.getKey());
                if (key.startsWith("$") || key.indexOf('\0') >= 0) {
                    throw new ConnectorException(name(parameter) + " has the key '" + (key.startsWith("$") ? key : "\\0")
                            + "'; a key of a value may not start with '$' (it would be an operator)");
                }
                doc.append(key, toBson(e.getValue(), parameter));
            }
            return doc;
        }
        if (value instanceof List) {
            List<BsonValue> items = new ArrayList<>();
            for (Object item : (List<?>) value) {
                items.add(toBson(item, parameter));
            }
            return new BsonArray(items);
        }
        return new BsonString(String.valueOf(value));
    }

    /** A number past a long's range or a double's precision, as Decimal128 when it holds it exactly. */
    private BsonDecimal128 decimal128(BigDecimal n, int parameter) {
        try {
            return new BsonDecimal128(new Decimal128(n));
        } catch (NumberFormatException e) {
            // more than 34 significant digits, or an exponent past Decimal128's
            throw new ConnectorException(name(parameter) + " holds the number " + CallerText.cut(n.toString())
                    + ", which MongoDB cannot store exactly (at most 34 significant digits)");
        }
    }

    private String name(int parameter) {
        Parameter p = parameters.get(parameter);
        return (p.source() == Source.INPUT ? "input '" : "claim '") + p.name() + "'";
    }
}
