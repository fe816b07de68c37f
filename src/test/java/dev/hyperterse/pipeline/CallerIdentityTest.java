package dev.hyperterse.pipeline;

import dev.hyperterse.auth.Caller;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Per-caller cache entries are keyed by who called: callers that differ never share a key. */
class CallerIdentityTest {

    @Test
    void callersThatDifferNeverShareAnIdentity() {
        Map<String, Object> claims = Map.of("role", "admin");
        assertNotEquals(Pipeline.identity(new Caller(null, claims)), Pipeline.identity(new Caller("null", claims)));
        // a subject holding what reads like claims is still only a subject
        assertNotEquals(Pipeline.identity(new Caller("x {\"role\":\"admin\"}", Map.of())),
                Pipeline.identity(new Caller("x", claims)));
        assertNotEquals(Pipeline.identity(new Caller("a b", Map.of())), Pipeline.identity(new Caller("a", Map.of("b", 1))));
    }

    @Test
    void theSameCallerWithAnotherTokenKeepsItsIdentity() {
        assertEquals(Pipeline.identity(new Caller("ada", Map.of("role", "admin", "exp", 1, "iat", 2, "jti", "a"))),
                Pipeline.identity(new Caller("ada", Map.of("jti", "b", "exp", 9, "role", "admin"))));
    }
}
