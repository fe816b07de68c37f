package dev.hyperterse.server;

import dev.hyperterse.connector.CompiledStatement;
import dev.hyperterse.connector.Connector;
import dev.hyperterse.connector.ConnectorFactory;
import dev.hyperterse.connector.QueryOptions;
import dev.hyperterse.connector.QueryResult;
import dev.hyperterse.connector.ResultColumns;
import dev.hyperterse.connector.StatementDialect;
import dev.hyperterse.model.AdapterDef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An adapter split into one pool per event loop of the server's listeners. A request runs its
 * statement on the pool of the loop it arrived on, which was opened in that loop's context and
 * whose connections are made from the loop and so live on it: the statement's I/O and its answer
 * never change threads. (With one pool shared by several loops, a call takes whichever connection
 * comes free, often one on another loop, and pays a hand-off there and one back per statement.)
 *
 * <p>The adapter's {@code max_connections} is split between the pools, never multiplied: 10 over
 * 4 loops is 3, 3, 2 and 2. With fewer connections than loops there are as many pools as
 * connections, and the remaining loops share them. Work started off the listeners' loops (a
 * worker thread, start-up) goes to the pools in turn.
 */
final class LoopLocalConnector implements Connector {
    private final Loop[] loops;
    /** By loop: the pool that loop uses (loop i has pool i while there are enough of them). */
    private final Connector[] byLoop;
    private final List<Connector> pools;
    private final AtomicInteger next = new AtomicInteger();

    private LoopLocalConnector(List<Loop> loops, List<Connector> pools) {
        this.loops = loops.toArray(new Loop[0]);
        this.pools = List.copyOf(pools);
        this.byLoop = new Connector[loops.size()];
        for (int i = 0; i < byLoop.length; i++) {
            byLoop[i] = pools.get(i % pools.size());
        }
    }

    /**
     * Opens the adapter: one pool per loop, each opened in its own loop's context
     * ({@link Loop#open}), when the connector can split its connections and there is more than one
     * loop; else one pool as the connector opens it (in the first loop's context when it can be
     * split, so its connections live there).
     *
     * @param loops the distinct event loops of the listeners (may be empty)
     */
    static Future<Connector> connect(Vertx vertx, ConnectorFactory factory, AdapterDef adapter, Path projectDir,
                                     List<Loop> loops) {
        int total = loops.isEmpty() ? 0 : factory.splittableConnections(adapter);
        if (total <= 0) {
            return factory.connect(vertx, adapter, projectDir);
        }
        if (loops.size() == 1) {
            return loops.get(0).open(() -> factory.connect(vertx, adapter, projectDir));
        }
        int count = Math.min(loops.size(), total);
        // the first pool opens alone, so what a connector sets up once (a SQLite database file
        // created and initialised) is there when the others open
        int firstShare = shareOf(total, count, 0);
        return loops.get(0).open(() -> factory.connect(vertx, adapter, projectDir, firstShare))
                .compose(first -> openRest(vertx, factory, adapter, projectDir, loops, total, count, first));
    }

    private static Future<Connector> openRest(Vertx vertx, ConnectorFactory factory, AdapterDef adapter,
                                              Path projectDir, List<Loop> loops, int total, int count, Connector first) {
        List<Future<Connector>> opening = new ArrayList<>(count);
        opening.add(Future.succeededFuture(first));
        for (int i = 1; i < count; i++) {
            int share = shareOf(total, count, i);
            opening.add(loops.get(i).open(() -> factory.connect(vertx, adapter, projectDir, share)));
        }
        return Future.join(opening).transform(ar -> {
            List<Connector> open = new ArrayList<>();
            Throwable failure = null;
            for (Future<Connector> f : opening) {
                if (f.succeeded()) {
                    open.add(f.result());
                } else if (failure == null) {
                    failure = f.cause();
                }
            }
            if (failure != null) {
                Throwable cause = failure;
                return Future.join(open.stream().map(Connector::close).toList())
                        .transform(x -> Future.<Connector>failedFuture(cause));
            }
            return Future.succeededFuture(new LoopLocalConnector(loops, open));
        });
    }

    /** Pool {@code index}'s part of {@code total} connections split over {@code pools} pools. */
    static int shareOf(int total, int pools, int index) {
        return total / pools + (index < total % pools ? 1 : 0);
    }

    /** The pools, one per loop (or fewer, see above). */
    List<Connector> pools() {
        return pools;
    }

    /** The index of the calling thread's loop, or -1 off the listeners' loops. */
    private int current() {
        Thread thread = Thread.currentThread();
        for (int i = 0; i < loops.length; i++) {
            if (loops[i].thread() == thread) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String adapterName() {
        return pools.get(0).adapterName();
    }

    @Override
    public StatementDialect dialect() {
        return pools.get(0).dialect();
    }

    /** Statements are described once per pool, on first use; start-up checks them on the first. */
    @Override
    public Future<Void> check(CompiledStatement statement) {
        return loops[0].call(() -> pools.get(0).check(statement));
    }

    /** Described (and checked) on the first pool, as {@link #check} is: every pool reaches the same database. */
    @Override
    public Future<ResultColumns> describe(CompiledStatement statement) {
        return loops[0].call(() -> pools.get(0).describe(statement));
    }

    @Override
    public Future<QueryResult> execute(CompiledStatement statement, List<Object> values, QueryOptions options) {
        int loop = current();
        if (loop >= 0) {
            return byLoop[loop].execute(statement, values, options);
        }
        int pool = Math.floorMod(next.getAndIncrement(), pools.size());
        return loops[pool].call(() -> pools.get(pool).execute(statement, values, options));
    }

    /** The pool of the caller's loop answers (for /ready, that of the listener asked). */
    @Override
    public Future<Void> ping() {
        int loop = current();
        return loop >= 0 ? byLoop[loop].ping() : loops[0].call(() -> pools.get(0).ping());
    }

    @Override
    public Future<Void> close() {
        return Future.join(pools.stream().map(Connector::close).toList()).mapEmpty();
    }
}
