package dev.hyperterse.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The steps a stopping process takes (drain the server, close Vert.x, flush spans, close the
 * script engine), run in order on a thread of their own under one deadline. A step can wait
 * without end: closing a GraalJS context ({@code Context.close(true)}) waits for the thread in
 * it to leave, and a thread stuck in host code (a log call, a native read) never polls for the
 * cancel. The process must stop anyway, so when the deadline passes the steps left are abandoned
 * and the process halts ({@link Runtime#halt}: from a shutdown hook, exit would wait for itself).
 */
final class BoundedShutdown {
    private static final Logger LOG = LoggerFactory.getLogger(BoundedShutdown.class);
    /** Exit status of a process that had to be halted. */
    static final int HALTED = 1;
    /** How long the log may take to say why the process halts. */
    private static final Duration LAST_WORD = Duration.ofSeconds(1);

    /** One step and its name, for the log. */
    record Step(String name, Runnable action) {
    }

    private final Duration deadline;
    private final IntConsumer halt;

    /**
     * @param deadline how long all steps together may take
     * @param halt     stops the process at once with a status ({@code Runtime.getRuntime()::halt});
     *                 called only when the deadline passed
     */
    BoundedShutdown(Duration deadline, IntConsumer halt) {
        this.deadline = deadline;
        this.halt = halt;
    }

    /** Runs the steps; returns true when all finished in time, else halts (and returns false if halting returned). */
    boolean run(List<Step> steps) {
        CountDownLatch done = new CountDownLatch(1);
        String[] current = {"starting"};
        Thread worker = new Thread(() -> {
            try {
                for (Step step : steps) {
                    synchronized (current) {
                        current[0] = step.name();
                    }
                    try {
                        step.action().run();
                    } catch (RuntimeException e) {
                        LOG.warn("shutdown: {} failed: {}", step.name(), e.toString());
                    }
                }
            } finally {
                done.countDown();
            }
        }, "hyperterse-shutdown-steps");
        // a daemon: a step stuck for good must not keep the JVM alive after the halt either
        worker.setDaemon(true);
        worker.start();
        boolean finished;
        try {
            finished = done.await(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        if (finished) {
            return true;
        }
        String stuck;
        synchronized (current) {
            stuck = current[0];
        }
        // the last word goes through the log from a thread of its own: a log call may be what is stuck
        Thread lastWord = new Thread(() -> LOG.error("shutdown did not finish within {} ms (stuck in: {}): "
                + "stopping the process now", deadline.toMillis(), stuck), "hyperterse-shutdown-log");
        lastWord.setDaemon(true);
        lastWord.start();
        try {
            lastWord.join(LAST_WORD.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        halt.accept(HALTED);
        return false;
    }
}
