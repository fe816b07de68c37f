package dev.hyperterse.mcp;

import dev.hyperterse.model.PromptDef;
import dev.hyperterse.model.ResourceDef;
import dev.hyperterse.model.SearchSettings;
import dev.hyperterse.model.ToolAccess;
import dev.hyperterse.model.ToolExposure;
import dev.hyperterse.pipeline.Pipeline;
import dev.hyperterse.search.IndexBuild;

import java.util.List;
import java.util.Map;

/**
 * What the endpoint serves from one project snapshot: the server's identity, the pipeline that
 * runs tools and the search index over them (built once the server serves, see
 * {@link IndexBuild}), and the project's prompts and resources. Replaced as a whole on reload.
 *
 * @param search              {@code tools.search}: whether {@code search} shows a caller only the tools it
 *                            may execute, and whether its hits carry statements
 * @param access              whether {@code tools/list} offers the meta-tools, the project's tools, or
 *                            both, and whether a tool marked {@code confirm} runs for a client that cannot be asked
 * @param batchAnswerBytes    the most bytes of JSON the answers of one 2025-03-26 batch hold together:
 *                            the project's {@code tools.result_max_bytes}
 */
public record McpBackend(String serverName, String serverVersion, Pipeline pipeline, IndexBuild searchIndex,
                         SearchSettings search, Map<String, PromptDef> prompts, List<ResourceDef> resources,
                         ToolAccess access, long batchAnswerBytes) {
    public McpBackend {
        prompts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(prompts));
        resources = List.copyOf(resources);
    }

    /** Whether {@code search} shows a caller only the tools it may execute. */
    public boolean searchFiltersByAuth() {
        return search.filterByAuth();
    }

    public ToolExposure exposure() {
        return access.exposure();
    }
}
