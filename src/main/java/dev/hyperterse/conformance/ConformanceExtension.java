package dev.hyperterse.conformance;

import dev.hyperterse.mcp.McpExtension;
import dev.hyperterse.mcp.McpExtensions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The official MCP conformance suite's fixtures ({@code start --conformance-fixtures}), served
 * besides the project's definitions through the MCP layer's extension registry: the tools, prompts
 * and resources of the suite's scenarios for both generations ({@link ConformanceFixtures}), and
 * the 2026-07-28 input-round tools and prompt ({@link StatelessFixtures}). Test scaffolding only:
 * nothing in the server knows of it; the command line passes it in.
 */
public final class ConformanceExtension implements McpExtension {
    private static final Logger LOG = LoggerFactory.getLogger(ConformanceExtension.class);

    @Override
    public void register(McpExtensions.Builder registry, Host host) {
        LOG.warn("serving the MCP conformance fixture tools (--conformance-fixtures): for testing only");
        new ConformanceFixtures(host.vertx()).register(registry);
        new StatelessFixtures(host::toolsListChanged).register(registry);
    }
}
