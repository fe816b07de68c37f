package dev.hyperterse.search;

import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A snapshot's search index, built once, when first asked for or when {@link #start()} is called
 * (the server does so at a client's first {@code tools/list}, and after a reload when the version
 * before was searched): loading the ranking's libraries and indexing the tools takes a noticeable
 * part of a start and memory a server no one searches need not hold, and nothing but {@code search} needs the index. A search that comes
 * before the index is ready waits for it, so it answers exactly as a later one would.
 */
public final class IndexBuild {
    private final Supplier<Future<SearchIndex>> build;
    private final AtomicBoolean started = new AtomicBoolean();
    private final Promise<SearchIndex> index = Promise.promise();

    /** @param build starts building the index (on a worker), once */
    public IndexBuild(Supplier<Future<SearchIndex>> build) {
        this.build = build;
    }

    /** An index built already. */
    public static IndexBuild of(SearchIndex ready) {
        IndexBuild b = new IndexBuild(() -> Future.succeededFuture(ready));
        b.start();
        return b;
    }

    /** Starts the build unless it has started; the future completes when the index is ready. */
    public Future<SearchIndex> start() {
        if (started.compareAndSet(false, true)) {
            Future<SearchIndex> building;
            try {
                building = build.get();
            } catch (RuntimeException e) {
                building = Future.failedFuture(e);
            }
            building.onComplete(index);
        }
        return index.future();
    }

    /** The index, once ready (starting the build if nothing has). */
    public Future<SearchIndex> get() {
        return start();
    }

    /** Whether the build has been started (by {@link #start()} or a search). */
    public boolean started() {
        return started.get();
    }
}
