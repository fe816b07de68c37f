package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultBudget;
import dev.hyperterse.model.ResultCut;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

/**
 * A Redis reply as one row, the shapes Hyperterse gives: {@code {"value": v}} for a scalar
 * (a missing key's nil is {@code {"value": null}}), {@code {"values": [...]}} for an array or set,
 * {@code {"value": {...}}} for a map (fields sorted by name: the client does not keep Redis's
 * order). Nested replies become nested JSON.
 *
 * <p>The elements of an array or map are what the call's {@link ResultBudget} counts: more than
 * the row limit, or more than fit in the size limit, are cut and the result says so. A scalar
 * reply larger than the size limit gives no row. Sizes are measured on the reply before anything
 * is converted, so a cut part is never turned into JSON.
 */
final class RedisReplies {
    /** {@code {"values":}} / {@code {"value":}} and the closing brace around a reply. */
    private static final long ROW_OVERHEAD = 12;

    private RedisReplies() {
    }

    static QueryResult row(Response reply, ResultBudget budget) {
        JsonObject row = new JsonObject();
        if (reply != null && reply.type() == ResponseType.MULTI) {
            if (reply.isMap()) {
                row.put("value", map(reply, budget));
            } else {
                row.put("values", array(reply, budget));
            }
            return new QueryResult(new JsonArray().add(row), budget.cut());
        }
        if (!budget.admitSized(ROW_OVERHEAD + size(reply))) {
            return new QueryResult(new JsonArray(), budget.cut());
        }
        row.put("value", json(reply));
        return new QueryResult(new JsonArray().add(row), ResultCut.NONE);
    }

    /** A reply already admitted whole. */
    private static Object json(Response reply) {
        if (reply == null) {
            return null;
        }
        switch (reply.type()) {
            case MULTI: {
                if (reply.isMap()) {
                    JsonObject out = new JsonObject();
                    for (String key : sortedKeys(reply)) {
                        out.put(key, json(reply.get(key)));
                    }
                    return out;
                }
                JsonArray out = new JsonArray();
                for (Response element : reply) {
                    out.add(json(element));
                }
                return out;
            }
            case NUMBER: {
                Number n = reply.toNumber();
                return n instanceof Double && !Double.isFinite((Double) n) ? n.toString() : n;
            }
            case BOOLEAN:
                return reply.toBoolean();
            case BULK:
                return reply.toString(StandardCharsets.UTF_8);
            default:
                return reply.toString();
        }
    }

    private static JsonObject map(Response reply, ResultBudget budget) {
        JsonObject out = new JsonObject();
        // the client keeps a map's fields in a hash; sorted, the same reply always reads the same
        for (String key : sortedKeys(reply)) {
            Response value = reply.get(key);
            if (!budget.admitSized(ResultBudget.jsonLength(key) + 1L + size(value))) {
                break;
            }
            out.put(key, json(value));
        }
        return out;
    }

    private static JsonArray array(Response reply, ResultBudget budget) {
        JsonArray out = new JsonArray();
        for (Response element : reply) {
            if (!budget.admitSized(size(element))) {
                break;
            }
            out.add(json(element));
        }
        return out;
    }

    private static Set<String> sortedKeys(Response map) {
        return new TreeSet<>(map.getKeys());
    }

    /** The JSON size of a reply, estimated from the reply itself (a bulk string by its bytes). */
    private static long size(Response reply) {
        if (reply == null) {
            return 4;
        }
        switch (reply.type()) {
            case MULTI: {
                long total = 2;
                if (reply.isMap()) {
                    for (String key : reply.getKeys()) {
                        total += ResultBudget.jsonLength(key) + 2L + size(reply.get(key));
                    }
                } else {
                    for (Response element : reply) {
                        total += size(element) + 1;
                    }
                }
                return total;
            }
            case NUMBER:
                return 24;
            case BOOLEAN:
                return 5;
            case BULK:
                return ResultBudget.jsonLength(reply.toBuffer());
            default:
                return ResultBudget.jsonLength(reply.toString());
        }
    }
}
