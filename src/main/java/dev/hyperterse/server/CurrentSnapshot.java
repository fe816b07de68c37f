package dev.hyperterse.server;

import dev.hyperterse.mcp.BackendSource;
import dev.hyperterse.mcp.McpBackend;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The snapshot being served, swapped as a whole on reload. Requests lease it: a lease counts as a
 * call in flight on that snapshot, so a snapshot that was swapped out is closed only after its
 * leases are released.
 */
final class CurrentSnapshot implements BackendSource {
    private final AtomicReference<Snapshot> current;

    CurrentSnapshot(Snapshot first) {
        this.current = new AtomicReference<>(first);
    }

    /** The snapshot now, without a lease: only for what needs no connection (names, counts). */
    Snapshot peek() {
        return current.get();
    }

    /**
     * The current snapshot, counted as in use until {@link #release}. A swap between reading the
     * reference and counting is caught by reading it again: the count then goes back and the
     * lease is retried on the new snapshot, so a retired snapshot never gains a call once it has
     * been seen idle.
     */
    Snapshot lease() {
        while (true) {
            Snapshot s = current.get();
            s.calls().enter();
            if (current.get() == s) {
                return s;
            }
            s.calls().leave();
        }
    }

    void release(Snapshot snapshot) {
        snapshot.calls().leave();
    }

    /** Serves {@code next} from now on; returns the snapshot it replaced. */
    Snapshot swap(Snapshot next) {
        return current.getAndSet(next);
    }

    @Override
    public Lease acquire() {
        Snapshot s = lease();
        return new Lease() {
            private boolean released;

            @Override
            public McpBackend backend() {
                return s.backend();
            }

            @Override
            public synchronized void release() {
                if (!released) {
                    released = true;
                    CurrentSnapshot.this.release(s);
                }
            }
        };
    }
}
