package dev.hyperterse.mcp;

import dev.hyperterse.mcp.core.Capability;
import dev.hyperterse.mcp.core.Generation;
import dev.hyperterse.mcp.core.McpMethod;
import dev.hyperterse.mcp.core.MethodRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Set;

import static dev.hyperterse.mcp.core.Generation.SESSION;
import static dev.hyperterse.mcp.core.Generation.STATELESS;
import static dev.hyperterse.mcp.core.MethodRegistry.EVERY_GENERATION;

/**
 * The MCP methods this server answers, each once: name, handler, the capability it declares and
 * the generations that offer it ({@link MethodRegistry}). Both generations' adapters look methods
 * up here; where a generation answers in its own form, the handler asks the request's {@link Wire}.
 */
public final class MethodTable {
    private static final Set<Generation> SESSIONS = Set.of(SESSION);
    private static final Set<Generation> STATELESS_ONLY = Set.of(STATELESS);

    private final BackendSource backends;
    private final ResourceMethods resources;
    private final MethodRegistry<MethodCall, McpBackend> registry;

    MethodTable(BackendSource backends, ToolMethods tools, McpExtensions extensions, PromptMethods prompts,
                ResourceMethods resources, CompletionMethods completions) {
        this.backends = backends;
        this.resources = resources;
        boolean listChanged = tools.listChanged();
        this.registry = MethodRegistry.<MethodCall, McpBackend>builder()
                .add("initialize", SESSIONS, c -> c.wire().initialize(c))
                .add("ping", SESSIONS, c -> Future.succeededFuture(new JsonObject()))
                .add("server/discover", STATELESS_ONLY, c -> c.wire().discover(c))
                // 2026-07-28 also announces the tool-list changes an extension sends
                .add("tools/list", EVERY_GENERATION, Capability.of("tools", (g, b) -> new JsonObject().put("listChanged",
                                g == STATELESS ? listChanged || extensions.announcesToolListChanges() : listChanged)),
                        c -> c.wire().listTools(c))
                .add("tools/call", EVERY_GENERATION, c -> c.wire().callTool(c))
                // log messages reach clients in both generations; only a session keeps a level
                .add("logging/setLevel", SESSIONS, new Capability<>("logging", EVERY_GENERATION,
                        (g, b) -> new JsonObject()), c -> c.wire().setLevel(c))
                // prompts, resources and completions are declared only when the project (or an extension) has them
                .add("prompts/list", EVERY_GENERATION, Capability.of("prompts",
                                (g, b) -> prompts.offered(b) ? new JsonObject().put("listChanged", listChanged) : null),
                        c -> c.wire().listing(backends.onBackend(b -> prompts.list(b, c.context()))))
                .add("prompts/get", EVERY_GENERATION, c -> c.wire().getPrompt(c,
                        () -> backends.onBackend(b -> prompts.get(b, c.params(), c.context()))))
                .add("resources/list", EVERY_GENERATION, Capability.of("resources",
                                (g, b) -> resources.offered(b) ? new JsonObject().put("listChanged", listChanged) : null),
                        c -> c.wire().listing(backends.onBackend(b -> resources.list(b, c.context(), false))))
                .add("resources/templates/list", EVERY_GENERATION,
                        c -> c.wire().listing(backends.onBackend(b -> resources.list(b, c.context(), true))))
                .add("resources/read", EVERY_GENERATION,
                        c -> c.wire().listing(backends.onBackend(b -> resources.read(b, c.params(), c.context()))))
                .add("resources/subscribe", SESSIONS, Capability.of("resources",
                                (g, b) -> resources.offered(b) ? new JsonObject().put("subscribe", true) : null),
                        c -> c.wire().subscribe(c, true))
                .add("resources/unsubscribe", SESSIONS, c -> c.wire().subscribe(c, false))
                .add("completion/complete", EVERY_GENERATION, Capability.of("completions",
                                (g, b) -> completions.offered(b) ? new JsonObject() : null),
                        c -> backends.onBackend(b -> completions.complete(b, c.params(), c.context())))
                .add("subscriptions/listen", STATELESS_ONLY, c -> c.wire().listen(c))
                .build();
    }

    /** The method by this name if the generation offers it, else null. */
    public McpMethod<MethodCall, McpBackend> find(String name, Generation generation) {
        return registry.find(name, generation);
    }

    /** How metrics and spans name a request's method in a generation ({@code other} for one it does not offer). */
    public String label(String name, Generation generation) {
        return registry.label(name, generation);
    }

    /** The capabilities a generation announces, read from one state of the current snapshot. */
    public JsonObject capabilities(Generation generation) {
        return backends.read(b -> registry.capabilities(generation, b));
    }

    /** Of these resource URIs, those a listen stream of this caller may watch (see {@link ResourceMethods#watchable}). */
    public Future<java.util.List<String>> watchable(java.util.List<String> uris, dev.hyperterse.pipeline.CallContext context) {
        return backends.onBackend(b -> resources.watchable(b, uris, context));
    }

    public MethodRegistry<MethodCall, McpBackend> registry() {
        return registry;
    }
}
