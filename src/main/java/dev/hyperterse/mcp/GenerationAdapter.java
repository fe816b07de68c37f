package dev.hyperterse.mcp;

import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Telemetry;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.function.IntSupplier;

/**
 * A protocol generation served beside the session generation on the same endpoint: the
 * session endpoint routes a POST to it by the version the request speaks, and tells it of list
 * changes, resource updates and shutdown. The 2026-07-28 adapter ({@code mcp.stateless}) is one;
 * it stands on the methods and parts both generations share ({@link Shared}) and on nothing of
 * the session generation's, and the endpoint knows it only through this interface, so neither
 * generation's package imports the other's.
 */
public interface GenerationAdapter {

    /** The protocol version this generation serves. */
    String version();

    /**
     * Whether a POST with this {@code MCP-Protocol-Version} header and body belongs to this
     * generation (checked before any session is looked up).
     */
    boolean speaks(String versionHeader, Object message);

    /** Whether the header names this generation's version (GET and DELETE are refused then). */
    default boolean named(String versionHeader) {
        return versionHeader != null && version().equals(versionHeader.trim());
    }

    /** Answers one POST whose body was parsed to {@code message}. */
    void post(RoutingContext rc, Object message);

    /** Tells this generation's listeners that a list changed; returns how many were told. */
    int listChanged(String method);

    /** Tells this generation's listeners watching {@code uri} that it changed; returns how many were told. */
    int resourceUpdated(String uri);

    /** Ends what this generation holds open on this node (streams), at shutdown or drain. */
    void closeAll();

    /**
     * What both generations share, made once per endpoint ({@link #of}): the methods and their
     * table, the resources, the extensions, the server's settings and telemetry, the stream
     * keep-alive.
     */
    record Shared(Vertx vertx, ToolMethods toolMethods, ResourceMethods resources,
                  MethodTable table, McpExtensions extensions, ServerSettings settings, Metrics metrics,
                  Tracing tracing, SseKeepAlive keepAlive, Clock clock) {

        /**
         * @param listChanged      declare {@code tools.listChanged} (the server tells clients when a
         *                         reload changed the project's tools)
         * @param toolsListChanged what an extension's {@link McpExtension.Host#toolsListChanged} does:
         *                         tells whoever listens, returns how many were told
         */
        public static Shared of(Vertx vertx, BackendSource backends, ServerSettings settings, McpExtension extension,
                                boolean listChanged, Clock clock, Telemetry telemetry, IntSupplier toolsListChanged) {
            McpExtensions extensions = McpExtensions.of(extension, new McpExtension.Host() {
                @Override
                public Vertx vertx() {
                    return vertx;
                }

                @Override
                public int toolsListChanged() {
                    return toolsListChanged.getAsInt();
                }
            });
            ServerSettings.RequestLimits limits = settings.limits();
            ResourceMethods resources = new ResourceMethods(vertx, extensions);
            MetaTools metaTools = new MetaTools(vertx, settings.toolErrors(), settings.searchOutputSchema(),
                    settings.timeouts().progressInterval(), resources);
            ToolMethods toolMethods = new ToolMethods(backends, new ToolCatalog(metaTools, extensions, limits.pageSize()),
                    listChanged);
            MethodTable table = new MethodTable(backends, toolMethods, extensions, new PromptMethods(extensions),
                    resources, new CompletionMethods(extensions));
            SseKeepAlive keepAlive = new SseKeepAlive(vertx, Math.max(1, limits.http().sseKeepAlive().toMillis()));
            return new Shared(vertx, toolMethods, resources, table, extensions, settings,
                    telemetry.metrics(), telemetry.tracing(), keepAlive, clock);
        }
    }

    /** Makes the adapter once the shared parts exist. */
    @FunctionalInterface
    interface Factory {
        GenerationAdapter create(Shared shared);
    }

}
