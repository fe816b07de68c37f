package dev.hyperterse.mcp;

import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.pipeline.Pipeline;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/** Helpers the prompt, resource and completion methods share. */
final class McpResults {
    private static final Logger LOG = LoggerFactory.getLogger(McpResults.class);

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

    /**
     * Succeeds when the auth check known by {@code key} admits the caller; fails with
     * {@code hidden} when it refuses it (denies, or cannot decide). The lists leave out exactly
     * those items ({@link #visible}), so a get, read or completion must not confirm that one
     * exists either: refused reads exactly like missing, as {@code execute} answers for a tool
     * that search hides. The reason goes to the server log, for the operator.
     */
    static Future<Void> admitted(Pipeline pipeline, String key, CallContext context, Supplier<McpException> hidden) {
        return pipeline.admit(key, context).transform(ar -> {
            if (ar.succeeded()) {
                return Future.<Void>succeededFuture();
            }
            LOG.atInfo().addKeyValue("item", key).addKeyValue("stage", "auth")
                    .addKeyValue("reason", ar.cause().getMessage()).log("refused, answered as not found");
            if (ar.cause().getCause() != null) {
                LOG.debug("cause of the refusal for {}", key, ar.cause().getCause());
            }
            return Future.failedFuture(hidden.get());
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
