package dev.hyperterse.testing;

import io.vertx.core.Future;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Waits for Vert.x futures from a test thread, failing the test with the reason when the outcome is not the expected one. */
public final class Futures {
    /** How long {@link #await(Future)} and {@link #failure(Future)} wait. */
    public static final Duration LIMIT = Duration.ofSeconds(30);

    private Futures() {
    }

    /** The future's result; an AssertionError carrying the failure when it fails or does not finish. */
    public static <T> T await(Future<T> future) {
        return await(future, LIMIT);
    }

    public static <T> T await(Future<T> future, Duration limit) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("expected success, got: " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** What the future fails with; an AssertionError when it succeeds or does not finish. */
    public static Throwable failure(Future<?> future) {
        return failure(future, LIMIT);
    }

    public static Throwable failure(Future<?> future, Duration limit) {
        try {
            Object value = future.toCompletionStage().toCompletableFuture().get(limit.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected failure, got: " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
