package dev.hyperterse.pipeline;

import dev.hyperterse.cache.CacheKey;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedLoadsTest {
    private static final CacheKey KEY = new CacheKey("t", "SELECT 1", List.of(1), null);

    @Test
    void aLoadIsCancelledOnlyWhenItsLastCallerCancels() {
        SharedLoads loads = new SharedLoads();
        SharedLoads.Place a = loads.join(KEY);
        SharedLoads.Place b = loads.join(KEY);
        a.leave(true);
        a.leave(true);
        assertFalse(b.cancellation().isComplete(), "b still waits (a leaving twice counts once)");
        assertEquals(1, loads.size());
        b.leave(true);
        assertTrue(b.cancellation().isComplete());
        assertEquals(0, loads.size());
        SharedLoads.Place c = loads.join(KEY);
        assertNotSame(b.cancellation(), c.cancellation(), "a later call starts afresh");
        c.leave(false);
        assertFalse(c.cancellation().isComplete(), "a call that ended, not cancelled, cancels nothing");
        assertEquals(0, loads.size());
    }

    @Test
    void aLoadWhoseLastCallerEndedIsNotCancelledByALateCancel() {
        SharedLoads loads = new SharedLoads();
        SharedLoads.Place a = loads.join(KEY);
        SharedLoads.Place b = loads.join(KEY);
        a.leave(false);
        b.leave(true);
        assertTrue(b.cancellation().isComplete(), "the last one waiting cancelled");
        SharedLoads.Place c = loads.join(KEY);
        c.leave(false);
        c.leave(true);
        assertFalse(c.cancellation().isComplete(), "left once, when it ended");
    }
}
