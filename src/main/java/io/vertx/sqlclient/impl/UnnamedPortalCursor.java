package io.vertx.sqlclient.impl;

import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.sqlclient.Cursor;
import io.vertx.sqlclient.PreparedStatement;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.internal.TupleInternal;

/**
 * A cursor read once, through the unnamed portal: Bind, Execute with a row limit, Sync, as the
 * client's own cursor does, but without naming the portal. The client names each cursor's portal
 * with {@code UUID.randomUUID()} (the JDK's {@code SecureRandom}, a lock the event loops share),
 * which cost a PostgreSQL point select a few percent of its CPU; a portal that is read once needs
 * no name. {@link Cursor#hasMore()} tells, as for any cursor, whether the statement had rows past
 * the fetch.
 *
 * <p>Only for a fetch outside a transaction, the one read such a portal allows (PostgreSQL drops
 * the portal with the implicit transaction the Sync ends, named or not); a second read fails. It
 * lives in the client's package because the read it makes ({@code PreparedStatementBase.readCursor}
 * with no portal name) is the client's own, not public API: a client upgrade that changes it
 * breaks the build, not a call. Where the statement, cursor or arguments are not the client's own
 * implementations, or no Vert.x context is current, it is the client's cursor, unchanged.
 */
public final class UnnamedPortalCursor {
    private UnnamedPortalCursor() {
    }

    /** A cursor over {@code ps} with {@code args} whose one read uses the unnamed portal. */
    public static Cursor readOnce(PreparedStatement ps, Tuple args) {
        Cursor cursor = ps.cursor(args);
        if (!(ps instanceof PreparedStatementBase) || !(cursor instanceof CursorImpl)
                || !(args instanceof TupleInternal)) {
            return cursor;
        }
        return new Once((PreparedStatementBase) ps, (CursorImpl) cursor, (TupleInternal) args);
    }

    private static final class Once implements Cursor {
        private final PreparedStatementBase ps;
        private final CursorImpl cursor;
        private final TupleInternal args;
        private boolean read;

        Once(PreparedStatementBase ps, CursorImpl cursor, TupleInternal args) {
            this.ps = ps;
            this.cursor = cursor;
            this.args = args;
        }

        @Override
        public Future<RowSet<Row>> read(int count) {
            if (read) {
                return Future.failedFuture(new IllegalStateException(
                        "a cursor over the unnamed portal is read once: PostgreSQL dropped its portal after the first fetch"));
            }
            read = true;
            ContextInternal context = ContextInternal.current();
            if (context == null) {
                return cursor.read(count);
            }
            PromiseInternal<RowSet<Row>> promise = context.promise();
            ps.readCursor(cursor, null, false, args, count, promise);
            return promise.future();
        }

        @Override
        public boolean hasMore() {
            return cursor.hasMore();
        }

        @Override
        public Future<Void> close() {
            // no portal name: nothing to close on the server, the client's cursor just ends
            return cursor.close();
        }

        @Override
        public boolean isClosed() {
            return cursor.isClosed();
        }
    }
}
