package dev.hyperterse.mcp;

import io.vertx.core.Future;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where a request gets the backend (one project snapshot) it runs on. A request holds its lease
 * until it completes, so a reload that swaps in a new snapshot closes the old one only after the
 * requests that started on it are done.
 */
public interface BackendSource {

    /** Leases the current backend; the caller must {@link Lease#release()} it exactly once. */
    Lease acquire();

    /**
     * Runs a method on the current backend, leased until the method's future completes; a method
     * that throws fails the future (and releases the lease).
     */
    default <T> Future<T> onBackend(Function<McpBackend, Future<T>> method) {
        Lease lease = acquire();
        Future<T> result;
        try {
            result = method.apply(lease.backend());
        } catch (RuntimeException e) {
            lease.release();
            return Future.failedFuture(e);
        }
        return result.andThen(done -> lease.release());
    }

    /** Reads something of the current backend at once (the lease is released before this returns). */
    default <T> T read(Function<McpBackend, T> reader) {
        Lease lease = acquire();
        try {
            return reader.apply(lease.backend());
        } finally {
            lease.release();
        }
    }

    /** A backend held by one request. */
    interface Lease {
        McpBackend backend();

        void release();
    }

    /** A source without leases, for a backend that never changes underneath. */
    static BackendSource of(Supplier<McpBackend> backend) {
        return () -> {
            McpBackend b = backend.get();
            return new Lease() {
                @Override
                public McpBackend backend() {
                    return b;
                }

                @Override
                public void release() {
                    // nothing is held
                }
            };
        };
    }
}
