package dev.hyperterse.connector.redis;

import dev.hyperterse.connector.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;

import java.nio.charset.StandardCharsets;

/**
 * A Redis reply as one row, the shapes Hyperterse gives: {@code {"value": v}} for a scalar
 * (a missing key's nil is {@code {"value": null}}), {@code {"values": [...]}} for an array or set,
 * {@code {"value": {...}}} for a map (fields sorted by name: the client does not keep Redis's
 * order). Nested replies become nested JSON. More elements than the row limit are cut, and the
 * result says so.
 */
final class RedisReplies {

    private RedisReplies() {
    }

    static QueryResult row(Response reply, int limit) {
        JsonObject row = new JsonObject();
        boolean truncated = false;
        if (reply != null && reply.type() == io.vertx.redis.client.ResponseType.MULTI) {
            truncated = reply.size() > limit;
            if (reply.isMap()) {
                row.put("value", map(reply, limit));
            } else {
                row.put("values", array(reply, limit));
            }
        } else {
            row.put("value", json(reply));
        }
        return new QueryResult(new JsonArray().add(row), truncated);
    }

    private static Object json(Response reply) {
        if (reply == null) {
            return null;
        }
        switch (reply.type()) {
            case MULTI:
                return reply.isMap() ? map(reply, Integer.MAX_VALUE) : array(reply, Integer.MAX_VALUE);
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

    private static JsonObject map(Response reply, int limit) {
        JsonObject out = new JsonObject();
        // the client keeps a map's fields in a hash; sorted, the same reply always reads the same
        for (String key : new java.util.TreeSet<>(reply.getKeys())) {
            if (out.size() == limit) {
                break;
            }
            out.put(key, json(reply.get(key)));
        }
        return out;
    }

    private static JsonArray array(Response reply, int limit) {
        JsonArray out = new JsonArray();
        for (Response element : reply) {
            if (out.size() == limit) {
                break;
            }
            out.add(json(element));
        }
        return out;
    }
}
