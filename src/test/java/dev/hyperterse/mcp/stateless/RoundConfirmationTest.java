package dev.hyperterse.mcp.stateless;

import dev.hyperterse.pipeline.CallContext;
import dev.hyperterse.testing.MutableClock;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A confirmation state covers one call by one caller, once. */
class RoundConfirmationTest {
    private static CallContext caller(Map<String, String> headers) {
        return new CallContext(headers, null, null);
    }

    @Test
    void theDigestBindsTheToolTheInputsAndTheCallersCredentials() {
        JsonObject inputs = new JsonObject().put("b", 2).put("a", 1);
        String alice = RoundConfirmation.digest("t", inputs, caller(Map.of("X-API-Key", "alice")));
        assertEquals(alice, RoundConfirmation.digest("t", new JsonObject().put("a", 1).put("b", 2),
                caller(Map.of("x-api-key", "alice"))), "key order and header case do not matter");
        assertNotEquals(alice, RoundConfirmation.digest("t", inputs, caller(Map.of("X-API-Key", "mallory"))));
        assertNotEquals(alice, RoundConfirmation.digest("t", inputs, caller(Map.of())));
        assertNotEquals(RoundConfirmation.digest("t", inputs, caller(Map.of("Authorization", "Bearer a"))),
                RoundConfirmation.digest("t", inputs, caller(Map.of("Authorization", "Bearer b"))));
        assertNotEquals(alice, RoundConfirmation.digest("u", inputs, caller(Map.of("X-API-Key", "alice"))));
    }

    @Test
    void aStateIsSpentOnceAndForgottenWhenItExpires() {
        MutableClock clock = new MutableClock();
        SpentStates spent = new SpentStates(clock, null);
        String nonce = SpentStates.nonce();
        long until = spent.expiry();
        assertTrue(spent.spend(nonce, until));
        assertFalse(spent.spend(nonce, until));
        assertFalse(spent.spend(null, until));
        assertTrue(spent.spend(SpentStates.nonce(), spent.expiry()));
        // past its expiry the seal refuses the state anyway: the nonce need not be kept
        clock.advance(java.time.Duration.ofMillis(RequestStateSeal.LIFETIME_MILLIS + 1));
        assertTrue(spent.spend(nonce, until));
    }
}
