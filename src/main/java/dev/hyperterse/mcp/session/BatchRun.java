package dev.hyperterse.mcp.session;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The entries of one 2025-03-26 batch, taken in order: requests are started a few at a time, so
 * that a batch holds no more than that many calls' results in the making (a hundred calls started
 * at once built a hundred results of up to {@code result_max_bytes} each, some 400 MB, before the
 * first was answered). Once the answers so far reach the batch's budget
 * ({@link PostExchange#spent()}), a request not yet started is answered with the error that says
 * so, without running. Other entries (notifications, answers known without running anything)
 * take their turn in order and no slot. The exchange is sealed once every entry has had its turn.
 */
final class BatchRun {
    private final PostExchange exchange;
    private final int concurrency;
    /** Guarded by this. */
    private final Deque<Entry> pending = new ArrayDeque<>();
    private int running;
    /** Whether a thread is taking entries (a request that answers at once re-enters {@link #next}). */
    private boolean taking;
    private boolean sealed;

    /** @param concurrency the most requests of the batch running at once */
    BatchRun(PostExchange exchange, int concurrency) {
        this.exchange = exchange;
        this.concurrency = concurrency;
        exchange.onFinished(this::finished);
    }

    /** A request, started by {@code start} (which opens it on the exchange) when its turn comes. */
    synchronized void request(Object id, Runnable start) {
        pending.add(new Entry(true, id, start));
    }

    /** An entry that runs nothing long: a notification, or a response known at once. */
    synchronized void other(Runnable step) {
        pending.add(new Entry(false, null, step));
    }

    /** Starts taking entries; call once, after the last entry was added. */
    void start() {
        next();
    }

    private void finished() {
        synchronized (this) {
            running--;
        }
        next();
    }

    /**
     * Takes entries in order while the head may go: a request needs a free slot, unless the budget
     * is spent and it is refused. One thread takes at a time; another that comes here meanwhile
     * (a request that finished, on this thread or another) leaves the work to it, which sees what
     * changed, as the decision to stop and the end of taking are made under one lock.
     */
    private void next() {
        synchronized (this) {
            if (taking) {
                return;
            }
            taking = true;
        }
        while (true) {
            Entry entry;
            boolean refused;
            synchronized (this) {
                Entry head = pending.peekFirst();
                if (head == null) {
                    taking = false;
                    if (sealed) {
                        return;
                    }
                    sealed = true;
                    entry = null;
                    refused = false;
                } else if (head.request && running >= concurrency && !exchange.spent()) {
                    taking = false;
                    return;
                } else {
                    entry = pending.pollFirst();
                    refused = entry.request && exchange.spent();
                    if (entry.request && !refused) {
                        running++;
                    }
                }
            }
            if (entry == null) {
                exchange.seal();
                return;
            }
            try {
                if (refused) {
                    exchange.respondDirectly(exchange.pastBudget(entry.id));
                } else {
                    entry.start.run();
                }
            } catch (RuntimeException | Error e) {
                synchronized (this) {
                    taking = false;
                }
                throw e;
            }
        }
    }

    private record Entry(boolean request, Object id, Runnable start) {
    }
}
