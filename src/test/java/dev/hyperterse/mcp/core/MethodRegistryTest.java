package dev.hyperterse.mcp.core;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MethodRegistryTest {
    private static final McpMethod.Handler<String> ECHO = call -> Future.succeededFuture(new JsonObject().put("call", call));

    /** A registry shaped like the server's: the state says whether resources exist. */
    private static MethodRegistry<String, Boolean> registry() {
        return MethodRegistry.<String, Boolean>builder()
                .add("initialize", Set.of(Generation.SESSION), ECHO)
                .add("server/discover", Set.of(Generation.STATELESS), ECHO)
                .add("tools/list", MethodRegistry.EVERY_GENERATION,
                        Capability.of("tools", (g, s) -> new JsonObject().put("listChanged", g == Generation.STATELESS)),
                        ECHO)
                .add("logging/setLevel", Set.of(Generation.SESSION),
                        new Capability<>("logging", MethodRegistry.EVERY_GENERATION, (g, s) -> new JsonObject()), ECHO)
                .add("resources/list", MethodRegistry.EVERY_GENERATION,
                        Capability.of("resources", (g, s) -> s ? new JsonObject().put("listChanged", false) : null), ECHO)
                .add("resources/subscribe", Set.of(Generation.SESSION),
                        Capability.of("resources", (g, s) -> s ? new JsonObject().put("subscribe", true) : null), ECHO)
                .build();
    }

    @Test
    void aMethodIsFoundOnlyInTheGenerationsThatOfferIt() {
        MethodRegistry<String, Boolean> methods = registry();
        assertNotNull(methods.find("initialize", Generation.SESSION));
        assertNull(methods.find("initialize", Generation.STATELESS));
        assertNull(methods.find("server/discover", Generation.SESSION));
        assertEquals("x", methods.find("tools/list", Generation.STATELESS).handler().handle("x").result().getString("call"));
        assertNull(methods.find("no/such", Generation.SESSION));
        assertNull(methods.find(null, Generation.SESSION));
    }

    @Test
    void metricsNameOnlyOfferedMethodsAndOneLabelForTheRest() {
        MethodRegistry<String, Boolean> methods = registry();
        assertEquals("tools/list", methods.label("tools/list", Generation.SESSION));
        assertEquals("other", methods.label("made/up", Generation.SESSION));
        assertEquals("other", methods.label("server/discover", Generation.SESSION));
        assertEquals("other", methods.label("initialize", Generation.STATELESS));
        assertEquals("other", methods.label(null, Generation.STATELESS));
    }

    @Test
    void capabilitiesComeFromTheMethodsEachGenerationOffersInOrder() {
        MethodRegistry<String, Boolean> methods = registry();
        assertEquals("{\"tools\":{\"listChanged\":false},\"logging\":{},\"resources\":{\"listChanged\":false,\"subscribe\":true}}",
                methods.capabilities(Generation.SESSION, true).encode());
        assertEquals("{\"tools\":{\"listChanged\":true},\"logging\":{},\"resources\":{\"listChanged\":false}}",
                methods.capabilities(Generation.STATELESS, true).encode());
        assertEquals("{\"tools\":{\"listChanged\":false},\"logging\":{}}",
                methods.capabilities(Generation.SESSION, false).encode());
    }

    @Test
    void aNameIsRegisteredOnce() {
        MethodRegistry.Builder<String, Boolean> builder = MethodRegistry.<String, Boolean>builder()
                .add("ping", Set.of(Generation.SESSION), ECHO);
        assertThrows(IllegalArgumentException.class, () -> builder.add("ping", Set.of(Generation.STATELESS), ECHO));
    }
}
