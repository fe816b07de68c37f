package dev.hyperterse.mcp;

import java.util.function.Supplier;

/**
 * Where a request gets the backend (one project snapshot) it runs on. A request holds its lease
 * until it completes, so a reload that swaps in a new snapshot closes the old one only after the
 * requests that started on it are done.
 */
public interface BackendSource {

    /** Leases the current backend; the caller must {@link Lease#release()} it exactly once. */
    Lease acquire();

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
