package dev.hyperterse.mcp;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an extension registers is found by name or URI, listed in registration order, and kept apart from later changes. */
class McpExtensionsTest {

    private static McpExtensions registered(McpExtension extension) {
        return McpExtensions.of(extension, null);
    }

    @Test
    void nothingRegisteredOffersNothing() {
        McpExtensions none = registered(McpExtension.NONE);
        assertTrue(none.toolDefinitions().isEmpty());
        assertFalse(none.hasPrompts());
        assertFalse(none.hasResources());
        assertFalse(none.hasCompletions());
        assertFalse(none.announcesToolListChanges());
        assertNull(none.tool("search"));
        assertNull(none.resource("test://anything"));
        assertNull(none.completer("ref/prompt", "p"));
        assertTrue(none.roundToolDefinitions().isEmpty());
    }

    @Test
    void registrationsAreFoundAndListedInOrder() {
        JsonObject b = new JsonObject().put("name", "b");
        McpExtensions extensions = registered((registry, host) -> registry
                .tool(b, (arguments, scope) -> Future.succeededFuture(new JsonObject()))
                .tool(new JsonObject().put("name", "a"), (arguments, scope) -> Future.succeededFuture(new JsonObject()))
                .prompt(new JsonObject().put("name", "p"), arguments -> Future.succeededFuture(new JsonObject()))
                .resource(new JsonObject().put("uri", "x://one"), uri -> Future.succeededFuture(new JsonObject()))
                .resourceTemplate(new JsonObject().put("uriTemplate", "x://items/{id}"), Pattern.compile("x://items/[^/]+"),
                        uri -> Future.succeededFuture(new JsonObject().put("uri", uri)))
                .completion("ref/resource", "x://items/{id}", (argument, prefix) -> List.of(prefix + "1")));
        b.put("name", "changed after registering");
        assertEquals(List.of("b", "a"), extensions.toolDefinitions().stream()
                .map(t -> ((JsonObject) t).getString("name")).toList());
        assertNotNull(extensions.tool("a"));
        assertEquals(1, extensions.resourceDefinitions(false).size());
        assertEquals(1, extensions.resourceDefinitions(true).size());
        assertEquals("x://items/{id}", extensions.resource("x://items/7").address());
        assertNull(extensions.resource("x://items/7/more"));
        assertTrue(extensions.hasCompletions());
        assertEquals(List.of("71"), extensions.completer("ref/resource", "x://items/{id}").complete("id", "7"));
        // an added prompt without a completer completes to nothing; an unknown one is not found
        assertSame(McpExtensions.Completer.NONE, extensions.completer("ref/prompt", "p"));
        assertNull(extensions.completer("ref/prompt", "q"));
        assertNull(extensions.completer("ref/resource", "x://one"));
    }

    @Test
    void aNameRegisteredTwiceIsRefused() {
        JsonObject tool = new JsonObject().put("name", "t");
        assertThrows(IllegalArgumentException.class, () -> registered((registry, host) -> registry
                .tool(tool, (arguments, scope) -> Future.succeededFuture(new JsonObject()))
                .tool(tool, (arguments, scope) -> Future.succeededFuture(new JsonObject()))));
    }
}
