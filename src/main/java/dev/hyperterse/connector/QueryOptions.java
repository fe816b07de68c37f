package dev.hyperterse.connector;

import dev.hyperterse.model.Limits;
import io.vertx.core.Future;

import java.time.Duration;

/**
 * How one statement may run.
 *
 * @param rowLimit     most rows returned; more are cut and the result says so
 * @param byteLimit    most bytes the rows may take as JSON ({@link ResultBudget}); the rows
 *                     before the one that would pass it are returned and the result says so
 * @param timeout      the statement is cancelled after this long (null or zero: no limit)
 * @param cancellation completes when the caller gave up (MCP {@code notifications/cancelled});
 *                     the connector then stops the statement where its driver allows
 */
public record QueryOptions(int rowLimit, long byteLimit, Duration timeout, Future<Void> cancellation) {

    public QueryOptions {
        if (cancellation == null) {
            // a future of its own that never completes: connectors add a handler per call, and a
            // shared one would keep every call's handler forever
            cancellation = io.vertx.core.Promise.<Void>promise().future();
        }
    }

    /** With the default result size limit. */
    public static QueryOptions of(int rowLimit, Duration timeout) {
        return of(rowLimit, Limits.DEFAULTS.resultMaxBytes(), timeout);
    }

    public static QueryOptions of(int rowLimit, long byteLimit, Duration timeout) {
        return new QueryOptions(rowLimit, byteLimit, timeout, null);
    }

    /** A new budget for one run of the statement under these caps. */
    public ResultBudget budget() {
        return new ResultBudget(rowLimit, byteLimit);
    }
}
