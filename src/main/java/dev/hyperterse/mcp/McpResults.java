package dev.hyperterse.mcp;

import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.Pipeline;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Helpers the prompt, resource and completion methods share. */
final class McpResults {
    private McpResults() {
    }

    /** The items this caller may see: each item's auth check (by its access key) passes. */
    static <T> Future<List<T>> visible(Pipeline pipeline, List<T> items, Function<T, String> accessKey,
                                       CallContext context) {
        List<Future<Boolean>> allowed = new ArrayList<>(items.size());
        for (T item : items) {
            allowed.add(pipeline.admit(accessKey.apply(item), context).transform(ar -> Future.succeededFuture(ar.succeeded())));
        }
        return Future.join(allowed).transform(x -> {
            List<T> out = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                if (allowed.get(i).result()) {
                    out.add(items.get(i));
                }
            }
            return Future.succeededFuture(out);
        });
    }

    /** A string parameter, or an invalid-params error naming it. */
    static String requiredString(io.vertx.core.json.JsonObject params, String method, String key) {
        Object value = params.getValue(key);
        if (!(value instanceof String)) {
            throw new McpException(JsonRpc.INVALID_PARAMS, method + ": '" + key + "' must be a string");
        }
        return (String) value;
    }
}
