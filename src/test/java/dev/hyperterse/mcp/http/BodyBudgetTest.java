package dev.hyperterse.mcp.http;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shares of the body budget: large bodies per client and in all, and the room kept for small ones. */
class BodyBudgetTest {
    private static final long MIB = 1 << 20;

    @Test
    void oneClientsLargeBodiesTakeAQuarterAndOthersStillFit() {
        BodyBudget budget = new BodyBudget(64 * MIB, 4 * MIB);
        for (int i = 0; i < 4; i++) {
            assertTrue(budget.claim("10.0.0.1").grow(4 * MIB));
        }
        assertFalse(budget.claim("10.0.0.1").grow(4 * MIB), "a fifth 4 MiB body of one client is past its quarter");
        assertTrue(budget.claim("10.0.0.2").grow(4 * MIB), "another client has its own share");
        assertEquals(20 * MIB, budget.held());
    }

    @Test
    void largeBodiesLeaveAnEighthForSmallOnes() {
        BodyBudget budget = new BodyBudget(8 * MIB, MIB);
        for (int i = 0; i < 7; i++) {
            assertTrue(budget.claim("10.0.0." + i).grow(MIB));
        }
        assertFalse(budget.claim("10.0.0.9").grow(MIB), "large bodies hold seven eighths at most");
        BodyBudget.Claim small = budget.claim("10.0.0.9");
        assertTrue(small.grow(1000));
        // a body that grows from small to large counts as large with all its bytes
        assertFalse(small.grow(BodyBudget.LARGE));
        assertEquals(1000, small.bytes());
        small.release();
        small.release();
        assertEquals(7 * MIB, budget.held());
    }

    @Test
    void releasingGivesEveryByteBack() {
        BodyBudget budget = new BodyBudget(4 * MIB, MIB);
        BodyBudget.Claim a = budget.claim("a");
        assertTrue(a.grow(10));
        assertTrue(a.grow(BodyBudget.LARGE));
        assertTrue(a.grow(500_000));
        a.release();
        assertEquals(0, budget.held());
        // the client's large share is whole again
        assertTrue(budget.claim("a").grow(MIB));
        assertFalse(a.grow(1), "a released claim takes nothing more");
    }
}
