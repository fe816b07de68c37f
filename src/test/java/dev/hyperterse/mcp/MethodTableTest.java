package dev.hyperterse.mcp;

import dev.hyperterse.mcp.core.Generation;
import dev.hyperterse.mcp.core.McpMethod;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which methods each generation offers, as the adapters' switches offered them before the table. */
class MethodTableTest {
    private final MethodTable table = new MethodTable(null, new ToolMethods(null, null, false), null, null, null, null);

    private Set<String> offeredIn(Generation generation) {
        return table.registry().methods().stream().filter(m -> m.offeredIn(generation)).map(McpMethod::name)
                .collect(Collectors.toSet());
    }

    @Test
    void sessionsOfferTheirMethods() {
        assertEquals(Set.of("initialize", "ping", "tools/list", "tools/call", "logging/setLevel", "prompts/list",
                "prompts/get", "resources/list", "resources/templates/list", "resources/read",
                "resources/subscribe", "resources/unsubscribe", "completion/complete"), offeredIn(Generation.SESSION));
    }

    @Test
    void theStatelessGenerationOffersItsMethods() {
        // initialize, ping, logging/setLevel and resources/subscribe were removed in 2026-07-28
        assertEquals(Set.of("server/discover", "tools/list", "tools/call", "subscriptions/listen", "prompts/list",
                "prompts/get", "resources/list", "resources/templates/list", "resources/read",
                "completion/complete"), offeredIn(Generation.STATELESS));
    }

    @Test
    void aMethodOfTheOtherGenerationIsNotFoundAndCountedAsOther() {
        assertEquals(null, table.find("initialize", Generation.STATELESS));
        assertEquals(null, table.find("subscriptions/listen", Generation.SESSION));
        assertEquals("other", table.label("server/discover", Generation.SESSION));
        assertEquals("other", table.label("tools/calls", Generation.STATELESS));
        assertEquals("resources/read", table.label("resources/read", Generation.STATELESS));
    }
}
