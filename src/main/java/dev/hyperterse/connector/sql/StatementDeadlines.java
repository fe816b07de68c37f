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
 * limit no longer than two sweeps gets its timer at once. The sweep stops itself once no statement
 * has been watched for {@link #IDLE_SWEEPS} sweeps in a row (an idle server sets no timer), and the
 * next statement with a far limit starts it again.
 */
final class StatementDeadlines {
    /** How often running statements are looked at. */
    static final long SWEEP_MILLIS = 100;
    private static final long NEAR_NANOS = 2 * SWEEP_MILLIS * 1_000_000L;
    /** A sweeper silent for this long was stopped (its context closed): the next statement starts another. */
    private static final long SWEEPER_LOST_NANOS = 5 * SWEEP_MILLIS * 1_000_000L;
    /** Sweeps in a row that found nothing to watch before the sweep stops (a second). */
    static final int IDLE_SWEEPS = 10;

    private final Vertx vertx;
    private final Set<Deadline> watched = ConcurrentHashMap.newKeySet();
    /** The periodic sweep's timer; -1 when none runs. Guarded by this. */
    private long sweeper = -1;
    private volatile boolean closed;
    /** When the sweep last ran ({@link System#nanoTime()}). */
    private volatile long lastSweep;
    /** Sweeps in a row that found no statement watched; only the sweep touches it. */
    private int idleSweeps;

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
        idleSweeps = 0;
        sweeper = vertx.setPeriodic(SWEEP_MILLIS, this::periodicSweep);
    }

    /** One run of the periodic sweep whose timer is {@code id}. */
    private void periodicSweep(long id) {
        synchronized (this) {
            if (sweeper != id) {
                // replaced by a newer sweep (this one had gone silent) or stopped: only one sweeps
                vertx.cancelTimer(id);
                return;
            }
        }
        sweep(System.nanoTime());
    }

    /**
     * Stops the sweep after {@link #IDLE_SWEEPS} idle ones. A statement watched meanwhile either
     * sees the sweep as lost (and starts one) or is found by the check after the stop.
     */
    private void stopWhenIdle(long now) {
        if (!watched.isEmpty()) {
            idleSweeps = 0;
            return;
        }
        if (++idleSweeps < IDLE_SWEEPS) {
            return;
        }
        synchronized (this) {
            if (sweeper >= 0) {
                vertx.cancelTimer(sweeper);
                sweeper = -1;
            }
            // so the next far limit starts a sweep at once
            lastSweep = now - SWEEPER_LOST_NANOS - 1;
        }
        if (!watched.isEmpty()) {
            ensureSweeping(System.nanoTime());
        }
    }

    /** Whether the periodic sweep runs (for tests). */
    synchronized boolean sweeping() {
        return sweeper >= 0;
    }

    /** Sets the timer of each statement whose limit is near at {@code now}. */
    void sweep(long now) {
        lastSweep = now;
        for (Deadline deadline : watched) {
            if (deadline.due - now <= NEAR_NANOS && watched.remove(deadline)) {
                deadline.armOnItsContext();
            }
        }
        stopWhenIdle(now);
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
