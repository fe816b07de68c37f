package dev.hyperterse.connector;

import io.vertx.core.Future;

import java.time.Duration;

/**
 * How one statement may run.
 *
 * @param rowLimit     most rows returned; more are cut and the result says so
 * @param timeout      the statement is cancelled after this long (null or zero: no limit)
 * @param cancellation completes when the caller gave up (MCP {@code notifications/cancelled});
 *                     the connector then stops the statement where its driver allows
 */
public record QueryOptions(int rowLimit, Duration timeout, Future<Void> cancellation) {

    public QueryOptions {
        if (cancellation == null) {
            // a future of its own that never completes: connectors add a handler per call, and a
            // shared one would keep every call's handler forever
            cancellation = io.vertx.core.Promise.<Void>promise().future();
        }
    }

    public static QueryOptions of(int rowLimit, Duration timeout) {
        return new QueryOptions(rowLimit, timeout, null);
    }
}
