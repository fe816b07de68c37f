package dev.hyperterse.search;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IndexBuildTest {

    @Test
    void nothingIsBuiltUntilStartedOrAskedFor() {
        AtomicInteger builds = new AtomicInteger();
        IndexBuild build = new IndexBuild(() -> {
            builds.incrementAndGet();
            return Future.succeededFuture(new SearchIndex(List.of(), 5));
        });
        assertFalse(build.started());
        assertEquals(0, builds.get());
        build.start();
        build.start();
        build.get();
        assertTrue(build.started());
        assertEquals(1, builds.get(), "built once");
    }

    @Test
    void aSearchBeforeTheIndexIsReadyWaitsForIt() {
        Promise<SearchIndex> building = Promise.promise();
        AtomicInteger builds = new AtomicInteger();
        IndexBuild build = new IndexBuild(() -> {
            builds.incrementAndGet();
            return building.future();
        });
        Future<SearchIndex> asked = build.get(); // a search first: it starts the build
        assertEquals(1, builds.get());
        assertFalse(asked.isComplete(), "no index, not an empty one, before the build is done");
        build.start(); // the server's own start finds it started
        assertEquals(1, builds.get());
        SearchIndex index = new SearchIndex(List.of(), 5);
        building.complete(index);
        assertSame(index, asked.result());
        assertSame(index, build.get().result());
    }

    @Test
    void aFailedBuildFailsTheSearchesWithItsReason() {
        IndexBuild build = new IndexBuild(() -> {
            throw new IllegalStateException("no analyzer");
        });
        Future<SearchIndex> asked = build.get();
        assertTrue(asked.failed());
        assertEquals("no analyzer", asked.cause().getMessage());
    }

    @Test
    void aReadyIndexIsServedAsItIs() {
        SearchIndex index = new SearchIndex(List.of(), 5);
        IndexBuild build = IndexBuild.of(index);
        assertTrue(build.started());
        assertSame(index, build.get().result());
    }
}
