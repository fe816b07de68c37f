package dev.hyperterse.model;

import java.nio.file.Path;

/**
 * The root {@code .hyperterse} after defaults were applied.
 *
 * @param projectDir  the folder holding {@code .hyperterse}
 * @param rootDir     {@code root} resolved against the project folder (default {@code app})
 * @param toolsDir    {@code tools.directory} resolved against the root (default {@code tools})
 * @param adaptersDir {@code adapters.directory} resolved against the root (default {@code adapters})
 * @param search      {@code tools.search}: how {@code search} finds tools and what its hits show
 * @param cache       {@code tools.cache} (default off, ttl 120 s)
 * @param cacheMaxBytes {@code tools.cache.max_size}: the most memory cached results may hold
 * @param limits      row limit and timeouts every tool inherits
 * @param defaultAuth the root {@code auth:} block tools without their own inherit, or null
 * @param observability the {@code observability:} block: tracing, metrics and log format
 * @param scriptWorkers threads that run handler and mapper scripts ({@code tools.script_workers}, default 4)
 * @param fetchAllowHosts {@code tools.fetch.allow_hosts}: the only hosts scripts may {@code fetch}
 *                    from; empty (the default) allows any host but this server itself
 * @param strictHandlerInputs {@code tools.strict_handler_inputs}: handler tools' inputs are checked as
 *                    strictly as database tools' (default false: Hyperterse passes them through)
 * @param exposeScriptErrors {@code tools.expose_script_errors}: callers see the message of any
 *                    exception a script throws (default true, as Hyperterse); false shows only a
 *                    {@code ToolError}'s message and masks others behind an error id in the log
 * @param promptsDir  {@code prompts.directory} resolved against the root (default {@code prompts}); null when absent
 * @param resourcesDir {@code resources.directory} resolved against the root (default {@code resources}); null when absent
 * @param access      {@code tools.exposure} and {@code tools.confirm_without_elicitation}: how clients
 *                    reach the tools (default {@code meta}, unconfirmable calls refused)
 */
public record ProjectConfig(String name, String version, Path projectDir, Path rootDir, Path toolsDir,
                            Path adaptersDir, SearchSettings search, CachePolicy cache,
                            long cacheMaxBytes, Limits limits, int scriptWorkers, ServerSettings server,
                            AuthDef defaultAuth, SourceLocation location, ObservabilitySettings observability,
                            java.util.List<HostPattern> fetchAllowHosts, boolean strictHandlerInputs,
                            Path promptsDir, Path resourcesDir, boolean exposeScriptErrors,
                            ToolAccess access) {
    public ProjectConfig {
        fetchAllowHosts = java.util.List.copyOf(fetchAllowHosts);
    }

    /** Hits returned by {@code search} ({@code tools.search.limit}). */
    public int searchLimit() {
        return search.limit();
    }

    /** How {@code search} orders tools ({@code tools.search.ranking}). */
    public SearchRanking searchRanking() {
        return search.ranking();
    }

    /** Whether {@code search} shows a caller only the tools it may execute ({@code tools.search.filter_by_auth}). */
    public boolean searchFiltersByAuth() {
        return search.filterByAuth();
    }

    /** {@code tools.exposure}. */
    public ToolExposure exposure() {
        return access.exposure();
    }
}
