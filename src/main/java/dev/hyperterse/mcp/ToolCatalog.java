package dev.hyperterse.mcp;

import dev.hyperterse.model.CallerText;
import dev.hyperterse.pipeline.CallContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The tools {@code tools/list} offers and {@code tools/call} reaches: the meta-tools, and the
 * conformance fixtures when they are switched on. Lists are paged; a cursor is opaque to
 * clients and names the list it came from, so a cursor from another list is refused (-32602).
 */
final class ToolCatalog {
    private static final String CURSOR_PREFIX = "tools:";

    private final MetaTools metaTools;
    private final ConformanceFixtures fixtures;
    private final JsonArray definitions;
    private final int pageSize;
    private final String fingerprint;

    /**
     * @param fixtures the conformance fixtures, or null when they are off
     * @param pageSize the most tools in one page
     */
    ToolCatalog(MetaTools metaTools, ConformanceFixtures fixtures, int pageSize) {
        this.metaTools = metaTools;
        this.fixtures = fixtures;
        this.pageSize = pageSize;
        JsonArray all = metaTools.definitions().copy();
        if (fixtures != null) {
            fixtures.definitions().forEach(all::add);
        }
        this.definitions = all;
        StringBuilder names = new StringBuilder();
        all.forEach(t -> names.append(((JsonObject) t).getString("name")).append('\n'));
        this.fingerprint = Integer.toHexString(names.toString().hashCode());
    }

    /** One page of {@code tools/list}. */
    JsonObject list(JsonObject params) {
        Object cursor = params.getValue("cursor");
        int from = cursor == null ? 0 : offset(cursor);
        int to = Math.min(definitions.size(), from + pageSize);
        JsonArray page = new JsonArray();
        for (int i = from; i < to; i++) {
            page.add(definitions.getJsonObject(i).copy());
        }
        JsonObject result = new JsonObject().put("tools", page);
        if (to < definitions.size()) {
            result.put("nextCursor", cursorFor(to));
        }
        return result;
    }

    Future<JsonObject> call(McpBackend backend, String name, JsonObject arguments, CallContext context, CallScope scope) {
        if (metaTools.has(name)) {
            return metaTools.call(backend, name, arguments, context, scope);
        }
        if (fixtures != null && fixtures.has(name)) {
            return fixtures.call(name, arguments, scope);
        }
        throw new McpException(JsonRpc.INVALID_PARAMS, "Unknown tool: " + CallerText.cut(name)
                + " (this server offers 'search' and 'execute')");
    }

    private String cursorFor(int offset) {
        String plain = CURSOR_PREFIX + fingerprint + ":" + offset;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    private int offset(Object cursor) {
        McpException invalid = new McpException(JsonRpc.INVALID_PARAMS, "tools/list: invalid cursor");
        if (!(cursor instanceof String)) {
            throw invalid;
        }
        String plain;
        try {
            plain = new String(Base64.getUrlDecoder().decode((String) cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw invalid;
        }
        String expected = CURSOR_PREFIX + fingerprint + ":";
        if (!plain.startsWith(expected)) {
            throw invalid;
        }
        try {
            int offset = Integer.parseInt(plain.substring(expected.length()));
            if (offset <= 0 || offset >= definitions.size()) {
                throw invalid;
            }
            return offset;
        } catch (NumberFormatException e) {
            throw invalid;
        }
    }
}
