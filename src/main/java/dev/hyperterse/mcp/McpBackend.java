package dev.hyperterse.mcp;

import dev.hyperterse.pipeline.Pipeline;
import dev.hyperterse.search.SearchIndex;

/**
 * What the endpoint serves from one project snapshot: the server's identity, the pipeline that
 * runs tools and the search index over them. Replaced as a whole on reload.
 *
 * @param searchFiltersByAuth whether {@code search} shows a caller only the tools it may execute
 */
public record McpBackend(String serverName, String serverVersion, Pipeline pipeline, SearchIndex searchIndex,
                         boolean searchFiltersByAuth) {
}
