package dev.hyperterse.connector.sql;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The time limits of running statements, without a timer set and cancelled per statement (a Vert.x
 * timer set from a verticle's context costs a scheduled task, a timer entry and a close hook on
 * that context, each undone again a millisecond later for a point select).
 *
 * <p>A statement's limit is only noted ({@link #watch}); one periodic sweep per connector looks at
 * the statements still running and, for each whose limit falls within the next two sweeps, sets
 * the exact timer then, on the statement's own context. So a limit still acts at its time and on
 * the same thread as before, and only a statement that runs close to its limit costs a timer. A
 * limit no longer than two sweeps gets its timer at once.
 */
final class StatementDeadlines {
    /** How often running statements are looked at. */
    static final long SWEEP_MILLIS = 100;
    private static final long NEAR_NANOS = 2 * SWEEP_MILLIS * 1_000_000L;
    /** A sweeper silent for this long was stopped (its context closed): the next statement starts another. */
    private static final long SWEEPER_LOST_NANOS = 5 * SWEEP_MILLIS * 1_000_000L;

    private final Vertx vertx;
    private final Set<Deadline> watched = ConcurrentHashMap.newKeySet();
    /** The periodic sweep's timer; -1 when none runs. Guarded by this. */
    private long sweeper = -1;
    private volatile boolean closed;
    /** When the sweep last ran ({@link System#nanoTime()}). */
    private volatile long lastSweep;

    StatementDeadlines(Vertx vertx) {
        this.vertx = vertx;
        // so the first statement with a far limit starts the sweep
        this.lastSweep = System.nanoTime() - SWEEPER_LOST_NANOS - 1;
    }

    /**
     * Runs {@code expired} on the calling context once {@code limit} has passed, unless the
     * returned deadline is {@linkplain Deadline#done() done} first.
     */
    Deadline watch(Duration limit, Runnable expired) {
        long now = System.nanoTime();
        long limitNanos = limit.toNanos();
        Deadline deadline = new Deadline(Vertx.currentContext(), now + limitNanos, expired);
        if (limitNanos <= NEAR_NANOS) {
            deadline.arm(now);
            return deadline;
        }
        watched.add(deadline);
        if (now - lastSweep > SWEEPER_LOST_NANOS) {
            ensureSweeping(now);
        }
        if (closed && watched.remove(deadline)) {
            // no sweep will come (close arms those it finds; this one it may have missed)
            deadline.arm(now);
        }
        return deadline;
    }

    private synchronized void ensureSweeping(long now) {
        if (closed || now - lastSweep <= SWEEPER_LOST_NANOS) {
            return;
        }
        if (sweeper >= 0) {
            // silent too long: its context was closed under it (or it starves); one more does no harm
            vertx.cancelTimer(sweeper);
        }
        lastSweep = now;
        sweeper = vertx.setPeriodic(SWEEP_MILLIS, id -> sweep(System.nanoTime()));
    }

    /** Sets the timer of each statement whose limit is near at {@code now}. */
    void sweep(long now) {
        lastSweep = now;
        for (Deadline deadline : watched) {
            if (deadline.due - now <= NEAR_NANOS && watched.remove(deadline)) {
                deadline.armOnItsContext();
            }
        }
    }

    /** Ends the sweep; statements still running keep their limits, each by a timer of its own. */
    void close() {
        synchronized (this) {
            closed = true;
            if (sweeper >= 0) {
                vertx.cancelTimer(sweeper);
                sweeper = -1;
            }
        }
        for (Deadline deadline : watched) {
            if (watched.remove(deadline)) {
                deadline.armOnItsContext();
            }
        }
    }

    /** How many statements are watched without a timer (for tests). */
    int watching() {
        return watched.size();
    }

    /** One statement's limit. */
    final class Deadline {
        private final Context context;
        private final long due;
        private final Runnable expired;
        /** The timer once set; -1 before. Guarded by this. */
        private long timer = -1;
        private boolean done;

        private Deadline(Context context, long due, Runnable expired) {
            this.context = context;
            this.due = due;
            this.expired = expired;
        }

        /** The statement has finished: its limit no longer acts. */
        void done() {
            long set;
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
                set = timer;
            }
            if (set >= 0) {
                vertx.cancelTimer(set);
            } else {
                watched.remove(this);
            }
        }

        private void armOnItsContext() {
            if (context == null) {
                arm(System.nanoTime());
            } else {
                context.runOnContext(v -> arm(System.nanoTime()));
            }
        }

        /** Sets the exact timer, from the current thread's context. */
        private void arm(long now) {
            synchronized (this) {
                if (done) {
                    return;
                }
                long millis = Math.max(1, (due - now + 999_999) / 1_000_000);
                timer = vertx.setTimer(millis, id -> fire());
            }
        }

        private void fire() {
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
            }
            expired.run();
        }
    }
}
