package dev.hyperterse.connector.sql;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Failures;
import dev.hyperterse.connector.QueryResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
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
 * sent and not answered), taken from the pool no more than {@link #TERM_NANOS} ago, whose oldest
 * statement has waited less than {@link #STALLED_NANOS}; else it takes a connection from the pool,
 * which later statements join. A connection goes back to the pool as soon as none of its
 * statements is waiting, so under a light load each statement has one to itself, as before.</li>
 * <li>A statement stuck at the head holds up those sent behind it (up to {@code depth − 1}); the
 * history above and the stall rule keep that to a statement that was fast until then.</li>
 * </ul>
 *
 * <p>A cancel request stops whichever statement a connection runs, so a shared statement is never
 * stopped that way while others are queued behind it. A call given up (its time limit, its
 * caller) is answered at once and its connection takes no more statements; if its statement has
 * still not come back {@link #GIVE_UP_MILLIS} later, the connection is given up with it: a cancel
 * request, then the connection is ended, so nothing queued on it runs, and every other call on it
 * still waiting runs its statement again on a connection of its own. A statement that has to run
 * again alone for another reason (more rows than one fetch, a row too large for some statement on
 * the connection, the connection lost) does so too. Such a second run is of a read that did not
 * answer; a read whose statement changes something (a function that writes) could then have run
 * twice, which is why only a connection's loss or an oversized row leads there.
 */
final class SharedConnections {
    /** Runs in a row under {@link #FAST_NANOS} before a statement may share. */
    static final int FAST_RUNS = 8;
    static final long FAST_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** A shared run (waiting behind others included) slower than this makes its statement run alone again. */
    static final long SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** A connection whose oldest unanswered statement was sent this long ago takes no more. */
    static final long STALLED_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** A connection takes statements for this long after it left the pool, then goes back once answered. */
    static final long TERM_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long a given-up call's statement may still take before its shared connection is given up. */
    static final long GIVE_UP_MILLIS = 1000;

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

    /** Whether the statement may share a connection now. */
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

    /** Sends the call's statement on a shared connection. */
    void run(ReactiveSqlConnector.Call call) {
        long now = System.nanoTime();
        Shared connection;
        Promise<SqlConnection> taking = null;
        synchronized (this) {
            connection = joinable(now);
            if (connection == null) {
                taking = Promise.promise();
                connection = new Shared(taking.future(), now);
                open.add(connection);
            }
            call.joined = now;
            connection.calls.add(call);
            deepest = Math.max(deepest, connection.calls.size());
        }
        if (taking != null) {
            pool.getConnection().onComplete(taking);
        }
        Shared on = connection;
        if (!call.runsOn(on)) {
            leave(on, call);
            return;
        }
        on.connection.onComplete(taken -> {
            if (taken.failed()) {
                synchronized (this) {
                    open.remove(on);
                }
                leave(on, call);
                call.done(Future.failedFuture(taken.cause()));
                return;
            }
            if (call.over()) {
                leave(on, call);
                return;
            }
            long started = System.nanoTime();
            Future<QueryResult> running;
            try {
                running = flavor.executeShared(taken.result(), call.statement, call.values, call.options.budget());
            } catch (RuntimeException e) {
                running = Future.failedFuture(e);
            }
            running.onComplete(done -> {
                boolean givenUp = givenUp(on);
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
        });
    }

    /** The first connection that may take one more statement, or null. */
    private Shared joinable(long now) {
        for (Shared s : open) {
            if (!s.closing && s.calls.size() < depth && now - s.taken < TERM_NANOS
                    && (s.calls.isEmpty() || now - s.calls.get(0).joined < STALLED_NANOS)) {
                return s;
            }
        }
        return null;
    }

    /** The call's statement is answered (or will not be sent): the connection goes back once none waits. */
    private void leave(Shared connection, ReactiveSqlConnector.Call call) {
        Future<Void> ending;
        synchronized (this) {
            if (!connection.calls.remove(call) || !connection.calls.isEmpty()) {
                return;
            }
            // no statement waits: none may join any more, so the pool gets it back
            connection.closing = true;
            open.remove(connection);
            ending = connection.ending;
        }
        if (ending == null) {
            connection.connection.onSuccess(giveBack::accept);
        } else {
            // once it has ended, so that the pool discards it rather than lending it again
            ending.onComplete(ended -> giveBack.accept(connection.connection.result()));
        }
    }

    /**
     * The call was answered by its time limit or its caller: its connection takes no more
     * statements, and is given up should the call's statement not come back in time.
     */
    void givenUp(Shared connection, ReactiveSqlConnector.Call call) {
        synchronized (this) {
            connection.closing = true;
        }
        vertx.setTimer(GIVE_UP_MILLIS, id -> {
            synchronized (this) {
                // not taken yet: nothing was sent, and the call leaves as the connection comes
                if (!connection.connection.succeeded() || !connection.calls.contains(call) || connection.ending != null) {
                    return;
                }
                // the statements on it fail as the connection ends, and those of calls still waiting run again alone
                connection.ending = flavor.abandon(connection.connection.result());
            }
        });
    }

    /** The most statements one connection has had unanswered at once. */
    synchronized int deepest() {
        return deepest;
    }

    private synchronized boolean givenUp(Shared connection) {
        return connection.ending != null;
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

        Shared(Future<SqlConnection> connection, long taken) {
            this.connection = connection;
            this.taken = taken;
        }
    }
}
