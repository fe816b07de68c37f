package dev.hyperterse.connector.postgres;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.PreparedStatement;
import io.vertx.sqlclient.SqlConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Statements prepared once per database connection and kept there, so a call costs one round
 * trip (Bind, Execute with the row limit, Sync) instead of three (Parse and Describe, then Bind and
 * Execute, then Close): on a point select that tripled what a pool of connections could serve. The
 * client's own statement cache does not help here, as it only serves plain prepared queries and
 * the row limit needs a cursor on a prepared statement.
 *
 * <p>A prepared statement belongs to the physical connection it was prepared on, which outlives
 * each lease from the pool. A connection is known by its backend's process id and secret key (the
 * pair PostgreSQL's cancel requests use, unique among live connections even when a process id is
 * reused). Connections the pool closed leave their entry behind until it is the least recently
 * used one past twice the pool's size, so the map stays small.
 */
final class ConnectionStatements {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionStatements.class);

    private final int maxConnections;
    /** Backend key → statement text → the statement prepared on that connection. Guarded by this. */
    private final LinkedHashMap<Long, Map<String, Future<PreparedStatement>>> byConnection;

    ConnectionStatements(int poolSize) {
        this.maxConnections = Math.max(1, poolSize) * 2;
        this.byConnection = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Map<String, Future<PreparedStatement>>> eldest) {
                return size() > maxConnections;
            }
        };
    }

    /** The statement prepared on this connection, preparing it on first use. */
    Future<PreparedStatement> on(SqlConnection conn, String text) {
        long key = key(conn);
        Future<PreparedStatement> known;
        Promise<PreparedStatement> preparing = null;
        synchronized (this) {
            Map<String, Future<PreparedStatement>> statements = byConnection.computeIfAbsent(key, k -> new HashMap<>());
            known = statements.get(text);
            if (known == null || known.failed()) {
                // one prepare per connection and text, however many calls ask at once
                preparing = Promise.promise();
                known = preparing.future();
                statements.put(text, known);
            }
        }
        if (preparing == null) {
            // without the context it was prepared on, so the caller goes on where it is
            return known.succeeded() ? Future.succeededFuture(known.result()) : known;
        }
        Future<PreparedStatement> fresh = known;
        conn.prepare(text).onComplete(preparing);
        fresh.onFailure(e -> forget(conn, text, fresh));
        return fresh;
    }

    /**
     * Drops this one statement after a failure on it, if it is still the one kept (a call on
     * another thread may already have prepared it afresh), and closes it on the server. For a
     * connection other calls' statements are queued on: their Binds went before this Close.
     */
    void forget(SqlConnection conn, String text, PreparedStatement statement) {
        boolean dropped = false;
        synchronized (this) {
            Map<String, Future<PreparedStatement>> statements = byConnection.get(key(conn));
            Future<PreparedStatement> kept = statements == null ? null : statements.get(text);
            if (kept != null && kept.succeeded() && kept.result() == statement) {
                statements.remove(text);
                dropped = true;
            }
        }
        if (dropped) {
            statement.close().onFailure(e -> LOG.debug("closing a dropped statement failed", e));
        }
    }

    /**
     * Drops the statement after a failure on it (the table changed under a kept plan, or the
     * connection broke): the next call prepares it afresh. It is closed on the server, if the
     * connection still works.
     */
    void forget(SqlConnection conn, String text) {
        Future<PreparedStatement> dropped;
        synchronized (this) {
            Map<String, Future<PreparedStatement>> statements = byConnection.get(key(conn));
            dropped = statements == null ? null : statements.remove(text);
        }
        if (dropped != null) {
            dropped.onSuccess(ps -> ps.close().onFailure(e -> LOG.debug("closing a dropped statement failed", e)));
        }
    }

    private synchronized void forget(SqlConnection conn, String text, Future<PreparedStatement> failed) {
        Map<String, Future<PreparedStatement>> statements = byConnection.get(key(conn));
        if (statements != null) {
            statements.remove(text, failed);
        }
    }

    /** How many connections have statements kept (for tests). */
    synchronized int connections() {
        return byConnection.size();
    }

    private static long key(SqlConnection conn) {
        PgConnection pg = PgConnection.cast(conn);
        return ((long) pg.processId() << 32) | (pg.secretKey() & 0xffffffffL);
    }
}
