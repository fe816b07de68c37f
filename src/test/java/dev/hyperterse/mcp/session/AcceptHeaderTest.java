package dev.hyperterse.mcp.session;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How POST and GET read Accept and Content-Type (RFC 9110 media ranges, any case, with parameters). */
class AcceptHeaderTest {

    @Test
    void postNeedsJsonAndAnEventStreamInAnyFormClientsWriteThem() {
        assertTrue(McpEndpoint.accepts(List.of("application/json, text/event-stream"), true));
        assertTrue(McpEndpoint.accepts(List.of("text/event-stream;q=0.9 ,APPLICATION/JSON; charset=utf-8"), true));
        assertTrue(McpEndpoint.accepts(List.of("application/json", "text/event-stream"), true), "two headers");
        assertTrue(McpEndpoint.accepts(List.of("*/*"), true));
        assertTrue(McpEndpoint.accepts(List.of("application/*, text/*"), true));
        assertTrue(McpEndpoint.accepts(List.of(), true), "no Accept means anything");
        assertTrue(McpEndpoint.accepts(List.of(" , application/json,,text/event-stream , "), true), "empty ranges");
        assertFalse(McpEndpoint.accepts(List.of("application/json"), true));
        assertFalse(McpEndpoint.accepts(List.of("text/event-stream"), true));
        assertFalse(McpEndpoint.accepts(List.of("application/jsonx, text/event-stream"), true));
        assertFalse(McpEndpoint.accepts(List.of("application/json, text/event-streams"), true));
        assertFalse(McpEndpoint.accepts(List.of("text/html"), true));
        assertFalse(McpEndpoint.accepts(List.of(""), true));
    }

    @Test
    void getNeedsOnlyAnEventStream() {
        assertTrue(McpEndpoint.accepts(List.of("text/event-stream"), false));
        assertTrue(McpEndpoint.accepts(List.of("Text/Event-Stream; charset=utf-8"), false));
        assertFalse(McpEndpoint.accepts(List.of("application/json"), false));
    }

    @Test
    void contentTypeMustBeJson() {
        assertTrue(McpEndpoint.isJson("application/json"));
        assertTrue(McpEndpoint.isJson("  Application/JSON; charset=utf-8"));
        assertFalse(McpEndpoint.isJson(null));
        assertFalse(McpEndpoint.isJson("text/plain"));
        assertFalse(McpEndpoint.isJson("application/jso"));
        assertFalse(McpEndpoint.isJson("application/jsonx"));
        assertFalse(McpEndpoint.isJson("application/json-seq"));
        assertTrue(McpEndpoint.isJson("application/json ; charset=utf-8"));
        assertTrue(McpEndpoint.isJson("application/json;charset=utf-8"));
    }
}
