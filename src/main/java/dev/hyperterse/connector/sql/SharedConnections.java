package dev.hyperterse.connector.sql;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.QueryResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Connections that the statements of fast reads share: each is sent behind the others on one
 * connection without waiting for their answers (pipelining), and the database answers them in
 * turn. A busy server then keeps a few connections working steadily instead of waking many in
 * turn, which on a small machine costs the database and this server a third of a point select's
 * CPU (bench/RESULTS.md).
 *
 * <p>What may share, and when:
 * <ul>
 * <li>A statement the flavor calls {@linkplain SqlFlavor#shareable shareable} (PostgreSQL: a read in
 * no transaction whose result one fetch held), once its last {@value #FAST_RUNS} runs in a row each
 * took under {@link #FAST_NANOS}. A run that fails, needs more than one fetch, or (shared) takes
 * longer than {@link #SLOW_NANOS} sends its statement back to connections of its own until it is
 * fast again. Writes, transactions, slow and new statements always run alone.</li>
 * <li>A statement joins the first shared connection with room (fewer than {@code depth} statements
 * unanswered), taken from the pool no more than {@link #TERM_NANOS} ago, whose oldest statement was
 * sent less than {@link #STALLED_NANOS} ago. Otherwise, when another call of the connector is
 * under way, it takes a connection from the pool for later statements to join; when none is, it
 * runs alone, as every statement did before. A shared connection is made read-only
 * ({@link SqlFlavor#share}) while it is shared, and goes back to the pool once none of its
 * statements has been unanswered for {@link #IDLE_MILLIS}.</li>
 * </ul>
 *
 * <p>A statement stuck at the head (a lock, a plan gone bad) holds up those sent behind it. So a
 * connection whose oldest statement has gone unanswered for {@link #STUCK_MILLIS} is given up:
 * a cancel request (it stops whichever statement runs, and nothing else runs on that connection
 * any more), then the connection is ended, and every call on it still waiting runs its statement
 * again on a connection of its own, that stuck one included (its own time limit still applies).
 * The connection was read-only, so a statement run again had changed no table or sequence the
 * first time. A call given up (its time limit, its caller) is answered at once; its
 * connection takes no more statements, and the rule above stops its statement if it is stuck.
 */
final class SharedConnections {
    /** Runs in a row under {@link #FAST_NANOS} before a statement may share. */
    static final int FAST_RUNS = 8;
    static final long FAST_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** A shared run (waiting behind others included) slower than this makes its statement run alone again. */
    static final long SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** A connection whose oldest unanswered statement was sent this long ago takes no more. */
    static final long STALLED_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** A connection whose oldest unanswered statement was sent this long ago is given up. */
    static final long STUCK_MILLIS = 1000;
    /** A connection takes statements for this long after it left the pool, then goes back once answered. */
    static final long TERM_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long a shared connection no statement waits on stays out of the pool for the next ones. */
    static final long IDLE_MILLIS = 5;

    private final Vertx vertx;
    private final Pool pool;
    private final SqlFlavor flavor;
    private final int depth;
    /** Runs a call's statement on a connection of its own. */
    private final Consumer<ReactiveSqlConnector.Call> alone;
    /** Returns a connection to the pool. */
    private final Consumer<SqlConnection> giveBack;
    /** Statement text → its runs in a row under {@link #FAST_NANOS}. */
    private final Map<String, AtomicInteger> fastRuns = new ConcurrentHashMap<>();
    /** The shared connections, taken from the pool or being taken. Guarded by this. */
    private final List<Shared> open = new ArrayList<>();
    /** The most statements one connection has had unanswered at once. Guarded by this. */
    private int deepest;

    SharedConnections(Vertx vertx, Pool pool, SqlFlavor flavor, int depth, Consumer<ReactiveSqlConnector.Call> alone,
                      Consumer<SqlConnection> giveBack) {
        this.vertx = vertx;
        this.pool = pool;
        this.flavor = flavor;
        this.depth = depth;
        this.alone = alone;
        this.giveBack = giveBack;
    }

    /** Whether the statement may share a connection. */
    boolean eligible(CompiledStatement statement) {
        AtomicInteger fast = fastRuns.get(statement.text());
        return fast != null && fast.get() >= FAST_RUNS && flavor.shareable(statement);
    }

    /** A run of the statement ended after {@code nanos}, on a shared connection or one of its own. */
    void ran(CompiledStatement statement, long nanos, boolean wasShared, boolean succeeded) {
        boolean fast = succeeded && nanos < (wasShared ? SLOW_NANOS : FAST_NANOS);
        AtomicInteger runs = fastRuns.get(statement.text());
        if (runs == null) {
            if (!fast) {
                return;
            }
            runs = fastRuns.computeIfAbsent(statement.text(), t -> new AtomicInteger());
        }
        if (!fast) {
            runs.set(0);
        } else if (runs.get() < FAST_RUNS) {
            runs.incrementAndGet();
        }
    }

    /**
     * Sends the call's (eligible) statement on a shared connection.
     *
     * @param contended whether another call of the connector is under way
     * @return false when it was not taken: no connection has room and none is worth taking for it
     */
    boolean run(ReactiveSqlConnector.Call call, boolean contended) {
        long now = System.nanoTime();
        Shared on;
        Promise<SqlConnection> taking = null;
        synchronized (this) {
            on = joinable(now);
            if (on == null) {
                if (!contended) {
                    return false;
                }
                taking = Promise.promise();
                on = new Shared(taking.future(), now);
                open.add(on);
            }
            on.calls.add(call);
            deepest = Math.max(deepest, on.calls.size());
        }
        if (taking != null) {
            Shared fresh = on;
            pool.getConnection()
                    .compose(conn -> flavor.share(conn).transform(made -> {
                        if (made.succeeded()) {
                            return Future.succeededFuture(conn);
                        }
                        // not read-only: no statement may share it
                        endAndGiveBack(conn);
                        return Future.failedFuture(new SqlFlavor.OwnConnectionNeeded());
                    }))
                    .onComplete(taking)
                    .onSuccess(conn -> watch(fresh, STUCK_MILLIS));
        }
        if (!call.runsOn(on)) {
            leave(on, call);
            return true;
        }
        // each call goes on on its own context (its request's), wherever the connection came from
        ContextInternal context = ContextInternal.current();
        Shared shared = on;
        on.connection.onComplete(taken -> {
            if (context == null) {
                send(shared, call, taken, null);
            } else if (context.inThread()) {
                context.emit(taken, t -> send(shared, call, t, context));
            } else {
                context.runOnContext(v -> send(shared, call, taken, context));
            }
        });
        return true;
    }

    private void send(Shared on, ReactiveSqlConnector.Call call, io.vertx.core.AsyncResult<SqlConnection> taken,
                      ContextInternal context) {
        if (taken.failed()) {
            synchronized (this) {
                released(on);
            }
            leave(on, call);
            if (taken.cause() instanceof SqlFlavor.OwnConnectionNeeded) {
                if (!call.over()) {
                    alone.accept(call);
                }
            } else {
                call.done(Future.failedFuture(taken.cause()));
            }
            return;
        }
        if (call.over()) {
            leave(on, call);
            return;
        }
        long started = System.nanoTime();
        call.sent = started;
        Future<QueryResult> running;
        try {
            running = flavor.executeShared(taken.result(), call.statement, call.values, call.options.budget());
        } catch (RuntimeException e) {
            running = Future.failedFuture(e);
        }
        if (context != null) {
            // answered on the call's own context, whichever context took the connection
            io.vertx.core.internal.PromiseInternal<QueryResult> answered = context.promise();
            running.onComplete(answered);
            running = answered.future();
        }
        running.onComplete(done -> {
            boolean givenUp = abandoned(on);
            leave(on, call);
            // a statement of a connection given up may have met its cancel request or its end
            boolean again = done.failed() && (givenUp || done.cause() instanceof SqlFlavor.OwnConnectionNeeded
                    || Failures.connectionLost(done.cause()));
            ran(call.statement, System.nanoTime() - started, true, done.succeeded());
            if (again) {
                if (!call.over()) {
                    alone.accept(call);
                }
                return;
            }
            call.done(done);
        });
    }

    /** The first connection that may take one more statement, or null. */
    private Shared joinable(long now) {
        for (Shared s : open) {
            if (!s.closing && s.ending == null && !s.connection.failed() && s.calls.size() < depth
                    && now - s.taken < TERM_NANOS
                    && (s.calls.isEmpty() || s.calls.get(0).sent == 0 || now - s.calls.get(0).sent < STALLED_NANOS)) {
                return s;
            }
        }
        return null;
    }

    /**
     * The call's statement is answered (or will not be sent). A connection none of whose
     * statements waits goes back to the pool once it has been idle {@link #IDLE_MILLIS} (a busy
     * server's next statements are usually there by then, and making a connection read-only
     * and back costs two statements), at once when its term is over or it was given up.
     */
    private void leave(Shared connection, ReactiveSqlConnector.Call call) {
        boolean later = false;
        synchronized (this) {
            if (!connection.calls.remove(call) || !connection.calls.isEmpty() || connection.released) {
                return;
            }
            if (connection.ending == null && System.nanoTime() - connection.taken < TERM_NANOS) {
                if (connection.idleCheck) {
                    // a look is already set: it decides, and the connection stays open until then
                    return;
                }
                connection.idleCheck = true;
                later = true;
            } else {
                released(connection);
            }
        }
        if (later) {
            vertx.setTimer(IDLE_MILLIS, id -> {
                synchronized (this) {
                    connection.idleCheck = false;
                    if (!connection.calls.isEmpty() || connection.released) {
                        return;
                    }
                    released(connection);
                }
                release(connection);
            });
            return;
        }
        release(connection);
    }

    /** Gives a shared connection no statement waits on back to the pool. */
    private void release(Shared connection) {
        Future<Void> ending;
        synchronized (this) {
            ending = connection.ending;
        }
        connection.connection.onSuccess(conn -> {
            if (ending != null) {
                // once it has ended, so that the pool discards it rather than lending it again
                ending.onComplete(ended -> giveBack.accept(conn));
                return;
            }
            flavor.unshare(conn).onComplete(undone -> {
                if (undone.succeeded()) {
                    giveBack.accept(conn);
                } else {
                    // still read-only: it must not serve anyone else
                    endAndGiveBack(conn);
                }
            });
        });
    }

    /** Marks a connection as going back to the pool: it takes no more statements. Called holding this. */
    private void released(Shared connection) {
        connection.released = true;
        connection.closing = true;
        open.remove(connection);
    }

    /** Ends a connection that must serve no one else, and gives it back once ended (the pool discards it). */
    private void endAndGiveBack(SqlConnection conn) {
        flavor.abandon(conn).onComplete(x -> giveBack.accept(conn));
    }

    /** The call was answered by its time limit or its caller: its connection takes no more statements. */
    void givenUp(Shared connection) {
        synchronized (this) {
            connection.closing = true;
        }
    }

    /** Looks at the connection's oldest unanswered statement in {@code millis}; gives it up if stuck. */
    private void watch(Shared connection, long millis) {
        vertx.setTimer(Math.max(1, millis), id -> {
            long now = System.nanoTime();
            long next;
            Promise<Void> ending = null;
            synchronized (this) {
                if (connection.released || connection.ending != null) {
                    return;
                }
                long sent = 0;
                for (ReactiveSqlConnector.Call c : connection.calls) {
                    long at = c.sent;
                    if (at != 0 && (sent == 0 || at - sent < 0)) {
                        sent = at;
                    }
                }
                long waited = sent == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(now - sent);
                if (waited >= STUCK_MILLIS) {
                    ending = Promise.promise();
                    connection.ending = ending.future();
                    connection.closing = true;
                }
                next = STUCK_MILLIS - waited;
            }
            if (ending == null) {
                watch(connection, next);
                return;
            }
            // the statements on it fail as the connection ends, and the calls still waiting run again alone
            flavor.abandon(connection.connection.result()).onComplete(ending);
        });
    }

    /** Whether the connection was given up (its statements fail as it ends). */
    private synchronized boolean abandoned(Shared connection) {
        return connection.ending != null;
    }

    /** The most statements one connection has had unanswered at once. */
    synchronized int deepest() {
        return deepest;
    }

    /** One connection the statements of several calls are sent on. */
    static final class Shared {
        final Future<SqlConnection> connection;
        /** When it was asked of the pool ({@link System#nanoTime()}). */
        final long taken;
        /** The calls whose statements were sent on it (or will be) and are not answered, oldest first. */
        final List<ReactiveSqlConnector.Call> calls = new ArrayList<>();
        /** Takes no more statements. */
        boolean closing;
        /** Once given up: completes when the connection has ended. */
        Future<Void> ending;
        /** Gone back to the pool (or going). */
        boolean released;
        /** A look in {@link #IDLE_MILLIS} whether it is still idle is set. */
        boolean idleCheck;

        Shared(Future<SqlConnection> connection, long taken) {
            this.connection = connection;
            this.taken = taken;
        }
    }
}
