package dev.hyperterse.auth;

import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiKeyPluginTest {
    final ApiKeyPlugin plugin = new ApiKeyPlugin();

    static String denial(Future<Caller> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().handle((c, e) -> e == null ? null : e.getMessage())
                .get(5, TimeUnit.SECONDS);
    }

    static RequestHeaders key(String value) {
        return name -> name.equalsIgnoreCase("X-API-Key") ? value : null;
    }

    @Test
    void acceptsTheKeyAndRejectsOthersWithoutRevealingIt() throws Exception {
        AuthCheck check = plugin.create(Map.of("value", "s3cret-key"), Map.of());
        assertEquals(null, denial(check.authenticate(key("s3cret-key"))));
        String wrong = denial(check.authenticate(key("s3cret-kez")));
        assertEquals("invalid API key", wrong);
        assertFalse(wrong.contains("s3cret"));
        assertEquals("missing X-API-Key header", denial(check.authenticate(name -> null)));
        assertEquals("missing X-API-Key header", denial(check.authenticate(key(""))));
    }

    @Test
    void severalKeys() throws Exception {
        AuthCheck check = plugin.create(Map.of("value", List.of("key-one", "key-two")), Map.of());
        assertEquals(null, denial(check.authenticate(key("key-one"))));
        assertEquals(null, denial(check.authenticate(key("key-two"))));
        assertEquals("invalid API key", denial(check.authenticate(key("key-three"))));
    }

    @Test
    void fallsBackToTheEnvironmentVariable() throws Exception {
        AuthCheck check = plugin.create(Map.of(), Map.of("HYPERTERSE_API_KEY", "from-env"));
        assertEquals(null, denial(check.authenticate(key("from-env"))));
        AuthPolicyException none = assertThrows(AuthPolicyException.class, () -> plugin.create(Map.of(), Map.of()));
        assertTrue(none.getMessage().contains("HYPERTERSE_API_KEY"));
    }

    @Test
    void badPoliciesAreStartUpErrors() {
        assertThrows(AuthPolicyException.class, () -> plugin.create(Map.of("valeu", "x"), Map.of()));
        assertThrows(AuthPolicyException.class, () -> plugin.create(Map.of("value", " "), Map.of()));
        assertThrows(AuthPolicyException.class, () -> new AllowAllPlugin().create(Map.of("x", 1), Map.of()));
    }
}
