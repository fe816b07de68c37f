package dev.hyperterse.mcp;

import io.vertx.core.Vertx;

/**
 * Something that serves MCP tools, prompts, resources and completions besides the project's own,
 * such as the conformance suite's fixtures ({@code start --conformance-fixtures}). It registers
 * them once, when the MCP endpoint is made; the methods then serve them as they serve the
 * project's, whichever generation asks. An extension touches no project and no snapshot: what it
 * adds survives reloads unchanged.
 */
@FunctionalInterface
public interface McpExtension {
    /** No extension: the project's definitions only. */
    McpExtension NONE = (registry, host) -> {
    };

    /** Adds this extension's definitions to {@code registry}. */
    void register(McpExtensions.Builder registry, Host host);

    /** What the server lends its extensions. */
    interface Host {
        Vertx vertx();

        /**
         * Tells the {@code subscriptions/listen} streams (2026-07-28) that asked for it that the
         * tool list changed, as a reload does; returns how many were told. An extension that calls
         * it also declares {@link McpExtensions.Builder#announcesToolListChanges()}.
         */
        int toolsListChanged();
    }
}
