package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stop always ends: steps run in order, a failing step does not stop the others, and a step
 * that never returns (as closing a script context whose worker is stuck in host code) makes the
 * process halt at the deadline instead of waiting for it.
 */
class BoundedShutdownTest {

    @Test
    void stepsRunInOrderAndAFailingOneDoesNotStopTheRest() {
        List<String> ran = new ArrayList<>();
        AtomicInteger halted = new AtomicInteger(-1);
        boolean finished = new BoundedShutdown(Duration.ofSeconds(10), halted::set).run(List.of(
                new BoundedShutdown.Step("a", () -> ran.add("a")),
                new BoundedShutdown.Step("b", () -> {
                    throw new IllegalStateException("boom");
                }),
                new BoundedShutdown.Step("c", () -> ran.add("c"))));
        assertTrue(finished);
        assertEquals(List.of("a", "c"), ran);
        assertEquals(-1, halted.get(), "not halted");
    }

    @Test
    void aStepThatNeverReturnsHaltsTheProcessAtTheDeadline() {
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger halted = new AtomicInteger(-1);
        List<String> ran = new ArrayList<>();
        long started = System.nanoTime();
        boolean finished = new BoundedShutdown(Duration.ofMillis(300), halted::set).run(List.of(
                new BoundedShutdown.Step("draining", () -> ran.add("draining")),
                new BoundedShutdown.Step("closing the script engine", () -> {
                    try {
                        // stands for Context.close(true) waiting on a worker that never polls for the cancel
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }),
                new BoundedShutdown.Step("after", () -> ran.add("after"))));
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertFalse(finished);
        assertEquals(BoundedShutdown.HALTED, halted.get(), "halted with its status");
        assertEquals(List.of("draining"), ran);
        // the deadline plus at most the second the log may take to say why
        assertTrue(tookMs >= 300 && tookMs < 10_000, "halted at the deadline (" + tookMs + " ms)");
    }
}
