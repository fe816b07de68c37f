package dev.hyperterse.mcp;

import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.model.ToolExposure;
import dev.hyperterse.pipeline.OutputShape;
import dev.hyperterse.pipeline.Pipeline;
import dev.hyperterse.search.InputSchema;
import dev.hyperterse.search.SearchHit;
import dev.hyperterse.pipeline.CallContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools {@code tools/list} offers and {@code tools/call} reaches: the meta-tools and/or the
 * project's own tools (as {@code tools.exposure} says; a project tool is listed only to callers
 * who may run it), and the tools the server's extensions add. Lists are paged; a
 * cursor is opaque to clients and names the list it came from, so a cursor from another list is
 * refused (-32602).
 */
final class ToolCatalog {
    private static final String CURSOR_PREFIX = "tools:";

    private final MetaTools metaTools;
    private final McpExtensions extensions;
    /**
     * The meta-tools (and added tools) as listed to a caller without outputSchema, with it, and with
     * it and {@code x-mcp-header} declarations (2026-07-28).
     */
    private final JsonArray definitions;
    private final JsonArray structuredDefinitions;
    private final JsonArray mirroredDefinitions;
    /** The arguments each of those (by name) mirrors into headers in 2026-07-28; absent when none. */
    private final Map<String, List<MirroredParam>> mirroredParams;
    private final int pageSize;
    private final String fingerprint;

    /**
     * @param extensions the tools added next to the project's
     * @param pageSize   the most tools in one page
     */
    ToolCatalog(MetaTools metaTools, McpExtensions extensions, int pageSize) {
        this.metaTools = metaTools;
        this.extensions = extensions;
        this.pageSize = pageSize;
        this.definitions = listed(metaTools, extensions, false, false);
        this.structuredDefinitions = listed(metaTools, extensions, true, false);
        this.mirroredDefinitions = listed(metaTools, extensions, true, true);
        Map<String, List<MirroredParam>> params = new HashMap<>();
        mirroredDefinitions.forEach(t -> {
            List<MirroredParam> declared = MirroredParam.declaredIn(((JsonObject) t).getJsonObject("inputSchema"));
            if (!declared.isEmpty()) {
                params.put(((JsonObject) t).getString("name"), declared);
            }
        });
        this.mirroredParams = Map.copyOf(params);
        StringBuilder names = new StringBuilder();
        definitions.forEach(t -> names.append(((JsonObject) t).getString("name")).append('\n'));
        this.fingerprint = Integer.toHexString(names.toString().hashCode());
    }

    private static JsonArray listed(MetaTools metaTools, McpExtensions extensions, boolean structured,
                                    boolean mirrored) {
        JsonArray all = metaTools.definitions(structured, mirrored);
        extensions.toolDefinitions().forEach(all::add);
        return all;
    }

    /**
     * One page of {@code tools/list} when only the meta-tools (and added tools) are listed.
     *
     * @param structured whether the caller's protocol version has {@code outputSchema}
     * @param mirrored   whether it has {@code x-mcp-header} (2026-07-28; implies structured)
     */
    JsonObject list(JsonObject params, boolean structured, boolean mirrored) {
        JsonArray definitions = mirrored ? mirroredDefinitions : structured ? structuredDefinitions : this.definitions;
        Object cursor = params.getValue("cursor");
        int from = cursor == null ? 0 : offset(cursor, fingerprint, definitions.size());
        int to = Math.min(definitions.size(), from + pageSize);
        JsonArray page = new JsonArray();
        for (int i = from; i < to; i++) {
            page.add(definitions.getJsonObject(i).copy());
        }
        JsonObject result = new JsonObject().put("tools", page);
        if (to < definitions.size()) {
            result.put("nextCursor", cursorFor(fingerprint, to));
        }
        return result;
    }

    /**
     * One page of {@code tools/list} for this backend and caller: the meta-tools, the project's
     * tools the caller may run (by name) (when {@code tools.exposure} is {@code direct} or {@code both}), then
     * the added tools. A page may hold fewer entries than the page size when per-tool auth rules hide
     * some of its tools.
     */
    Future<JsonObject> list(McpBackend backend, JsonObject params, CallContext context, boolean structured,
                            boolean headers) {
        // execute's tool is declared a header parameter only where the operator asked for it
        boolean mirrored = headers && backend.access().executeToolHeader();
        if (backend.exposure().listsMetaTools()) {
            // a client shown search is likely to search next: the index (left unbuilt until a
            // client lists or searches, so a server no one searches never holds it) starts now,
            // once, on a worker
            backend.searchIndex().start();
        }
        if (!backend.exposure().listsProjectTools()) {
            return Future.succeededFuture(list(params, structured, mirrored));
        }
        Pipeline pipeline = backend.pipeline();
        return pipeline.visibleTo(context).compose(visible -> {
            List<Object> entries = new ArrayList<>();
            if (backend.exposure().listsMetaTools()) {
                metaTools.definitions(structured || headers, mirrored).forEach(entries::add);
            }
            // the pipeline keeps them by name: a stable order, so cursors stay valid across calls and nodes
            for (ToolDef tool : pipeline.tools().values()) {
                if (visible.test(tool) && !(backend.exposure().listsMetaTools() && metaTools.has(tool.name()))) {
                    entries.add(tool);
                }
            }
            extensions.toolDefinitions().forEach(entries::add);
            String listed = fingerprintOf(entries);
            Object cursor = params.getValue("cursor");
            int from = cursor == null ? 0 : offset(cursor, listed, entries.size());
            int to = Math.min(entries.size(), from + pageSize);
            List<Future<Boolean>> allowed = new ArrayList<>();
            for (int i = from; i < to; i++) {
                Object entry = entries.get(i);
                allowed.add(entry instanceof ToolDef && pipeline.decidedPerTool((ToolDef) entry)
                        ? pipeline.mayExecute((ToolDef) entry, context) : Future.succeededFuture(true));
            }
            return Future.all(allowed).map(x -> {
                JsonArray page = new JsonArray();
                for (int i = from; i < to; i++) {
                    if (allowed.get(i - from).result()) {
                        Object entry = entries.get(i);
                        page.add(entry instanceof ToolDef
                                ? definition((ToolDef) entry, structured || mirrored ? pipeline.outputShape(((ToolDef) entry).name())
                                        : null)
                                : ((JsonObject) entry).copy());
                    }
                }
                JsonObject result = new JsonObject().put("tools", page);
                if (to < entries.size()) {
                    result.put("nextCursor", cursorFor(listed, to));
                }
                return result;
            });
        });
    }

    /**
     * A project tool as MCP lists it: its inputs as JSON Schema, its output's when it has one
     * (null: none, or a client whose protocol version has no outputSchema), and its hints.
     */
    static JsonObject definition(ToolDef tool, OutputShape output) {
        JsonObject out = new JsonObject().put("name", tool.name());
        if (tool.title() != null && !tool.title().isEmpty()) {
            out.put("title", tool.title());
        }
        out.put("description", tool.description() == null ? "" : tool.description())
                .put("inputSchema", InputSchema.of(tool));
        if (output != null) {
            out.put("outputSchema", output.schema());
        }
        if (!tool.annotations().isEmpty()) {
            out.put("annotations", SearchHit.annotations(tool.annotations()));
        }
        return out;
    }

    /**
     * The arguments that the tool {@code call} would reach by this name mirrors into headers for
     * 2026-07-28 clients, as its {@code tools/list} entry declares them (a project's own tools
     * declare none); empty when none.
     */
    List<MirroredParam> mirroredParams(McpBackend backend, String name) {
        ToolExposure exposure = backend.exposure();
        if (exposure.listsMetaTools() && metaTools.has(name)) {
            return backend.access().executeToolHeader() ? mirroredParams.getOrDefault(name, List.of()) : List.of();
        }
        if (extensions.tool(name) != null) {
            return mirroredParams.getOrDefault(name, List.of());
        }
        return List.of();
    }

    /** @param structured whether the caller's protocol version has {@code outputSchema} and {@code structuredContent} */
    Future<JsonObject> call(McpBackend backend, String name, JsonObject arguments, CallContext context, CallScope scope,
                            boolean structured) {
        ToolExposure exposure = backend.exposure();
        if (exposure.listsMetaTools() && metaTools.has(name)) {
            return metaTools.call(backend, name, arguments, context, scope, structured);
        }
        McpExtensions.Tool added = extensions.tool(name);
        if (added != null) {
            return added.call().call(arguments, scope);
        }
        ToolDef tool = exposure.listsProjectTools() ? backend.pipeline().tools().get(name) : null;
        if (tool == null) {
            throw unknown(name, exposure);
        }
        // a tool the caller may not run is answered as one that does not exist: names do not leak
        return backend.pipeline().mayExecute(tool, context)
                .compose(may -> may ? metaTools.run(backend, name, arguments, context, scope,
                                structured ? MetaTools.Output.LISTED : MetaTools.Output.TEXT, () -> unknown(name, exposure))
                        : Future.failedFuture(unknown(name, exposure)));
    }

    /**
     * The answer for a {@code tools/call} name this caller cannot reach: a JSON-RPC error whatever
     * {@code server.tool_errors} says, as MCP 2025-11-25 lists an unknown tool among protocol
     * errors (-32602, "Unknown tool: …"). Unlike an unknown {@code execute} target, it means the
     * client called a tool that {@code tools/list} never showed it, not that a model misnamed one.
     */
    private static McpException unknown(String name, ToolExposure exposure) {
        return new McpException(JsonRpc.INVALID_PARAMS, "Unknown tool: " + CallerText.cut(name)
                + (exposure == ToolExposure.META ? " (this server offers 'search' and 'execute')"
                        : " (tools/list shows the tools you may call)"));
    }

    private static String fingerprintOf(List<Object> entries) {
        StringBuilder names = new StringBuilder();
        for (Object entry : entries) {
            names.append(entry instanceof ToolDef ? ((ToolDef) entry).name() : ((JsonObject) entry).getString("name"))
                    .append('\n');
        }
        return Integer.toHexString(names.toString().hashCode());
    }

    private static String cursorFor(String fingerprint, int offset) {
        String plain = CURSOR_PREFIX + fingerprint + ":" + offset;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    private static int offset(Object cursor, String fingerprint, int size) {
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
            if (offset <= 0 || offset >= size) {
                throw invalid;
            }
            return offset;
        } catch (NumberFormatException e) {
            throw invalid;
        }
    }
}
