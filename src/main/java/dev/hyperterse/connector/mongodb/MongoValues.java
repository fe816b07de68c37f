package dev.hyperterse.connector.mongodb;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * BSON values as the JSON a caller reads: ObjectId as its hex string, a date as RFC 3339 text
 * ({@code 2024-06-01T10:00:00Z}), Decimal128 as its exact text, binary as base64, a 64-bit
 * integer as a number while JSON readers hold it exactly (within 2^53) and as text beyond.
 */
final class MongoValues {
    /** The largest integer a JSON reader using doubles holds exactly. */
    private static final long EXACT_IN_DOUBLE = 1L << 53;

    private MongoValues() {
    }

    static JsonObject document(BsonDocument doc) {
        JsonObject out = new JsonObject();
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            out.put(e.getKey(), value(e.getValue()));
        }
        return out;
    }

    static Object value(BsonValue v) {
        switch (v.getBsonType()) {
            case DOCUMENT:
                return document(v.asDocument());
            case ARRAY: {
                JsonArray out = new JsonArray();
                v.asArray().forEach(item -> out.add(value(item)));
                return out;
            }
            case STRING:
                return v.asString().getValue();
            case INT32:
                return v.asInt32().getValue();
            case INT64: {
                long n = v.asInt64().getValue();
                return Math.abs(n) <= EXACT_IN_DOUBLE && n != Long.MIN_VALUE ? (Object) n : Long.toString(n);
            }
            case DOUBLE: {
                double d = v.asDouble().getValue();
                // JSON has no NaN or infinities
                return Double.isFinite(d) ? (Object) d : Double.toString(d);
            }
            case DECIMAL128:
                return v.asDecimal128().getValue().toString();
            case BOOLEAN:
                return v.asBoolean().getValue();
            case OBJECT_ID:
                return v.asObjectId().getValue().toHexString();
            case DATE_TIME:
                return Instant.ofEpochMilli(v.asDateTime().getValue()).toString();
            case BINARY:
                return Base64.getEncoder().encodeToString(v.asBinary().getData());
            case TIMESTAMP:
                return new JsonObject().put("t", v.asTimestamp().getTime()).put("i", v.asTimestamp().getInc());
            case REGULAR_EXPRESSION:
                return "/" + v.asRegularExpression().getPattern() + "/" + v.asRegularExpression().getOptions();
            case JAVASCRIPT:
                return v.asJavaScript().getCode();
            case JAVASCRIPT_WITH_SCOPE:
                return v.asJavaScriptWithScope().getCode();
            case SYMBOL:
                return v.asSymbol().getSymbol();
            case DB_POINTER:
                return v.asDBPointer().getNamespace() + "/" + v.asDBPointer().getId().toHexString();
            case MIN_KEY:
                return "MinKey";
            case MAX_KEY:
                return "MaxKey";
            case NULL:
            case UNDEFINED:
            default:
                return null;
        }
    }
}
