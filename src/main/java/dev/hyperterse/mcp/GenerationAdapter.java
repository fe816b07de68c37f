package dev.hyperterse.mcp;

import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.telemetry.Metrics;
import dev.hyperterse.telemetry.Tracing;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;

/**
 * A protocol generation served beside the session generation on the same endpoint: the
 * {@link McpEndpoint} routes a POST to it by the version the request speaks, and tells it of list
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
     * What both generations share, made once by the endpoint: the methods and their table, the
     * extensions, the server's settings and telemetry, the stream keep-alive.
     */
    record Shared(Vertx vertx, ToolMethods toolMethods, MethodTable table, McpExtensions extensions,
                  ServerSettings settings, Metrics metrics, Tracing tracing, SseKeepAlive keepAlive, Clock clock) {
    }

    /** Makes the adapter once the shared parts exist. */
    @FunctionalInterface
    interface Factory {
        GenerationAdapter create(Shared shared);
    }

}
