package dev.hyperterse.model;

import java.nio.file.Path;
import java.util.List;

/**
 * The root {@code .hyperterse} after defaults were applied, grouped by concern. A new setting is a
 * component of the group it belongs to.
 *
 * @param name          {@code name}
 * @param version       {@code version}, or null when unset
 * @param location      the root config file, for messages about the project as a whole
 * @param folders       where the project's files are
 * @param tools         what every tool inherits, and how clients find and reach the tools
 * @param scripts       how handler and mapper scripts run
 * @param server        the {@code server:} block
 * @param observability the {@code observability:} block: tracing, metrics and log format
 */
public record ProjectConfig(String name, String version, SourceLocation location, Folders folders, Tools tools,
                            Scripts scripts, ServerSettings server, ObservabilitySettings observability) {

    /** Hits returned by {@code search} ({@code tools.search.limit}). */
    public int searchLimit() {
        return tools.search().limit();
    }

    /** How {@code search} orders tools ({@code tools.search.ranking}). */
    public SearchRanking searchRanking() {
        return tools.search().ranking();
    }

    /** Whether {@code search} shows a caller only the tools it may execute ({@code tools.search.filter_by_auth}). */
    public boolean searchFiltersByAuth() {
        return tools.search().filterByAuth();
    }

    /** {@code tools.exposure}. */
    public ToolExposure exposure() {
        return tools.access().exposure();
    }

    /**
     * Where the project's files are.
     *
     * @param projectDir   the folder holding {@code .hyperterse}
     * @param rootDir      {@code root} resolved against the project folder (default {@code app})
     * @param toolsDir     {@code tools.directory} resolved against the root (default {@code tools})
     * @param adaptersDir  {@code adapters.directory} resolved against the root (default {@code adapters})
     * @param promptsDir   {@code prompts.directory} resolved against the root (default {@code prompts});
     *                     null when absent
     * @param resourcesDir {@code resources.directory} resolved against the root (default
     *                     {@code resources}); null when absent
     */
    public record Folders(Path projectDir, Path rootDir, Path toolsDir, Path adaptersDir, Path promptsDir,
                          Path resourcesDir) {
    }

    /**
     * The {@code tools:} block: what every tool inherits, and how clients find and reach the tools.
     *
     * @param search              {@code tools.search}: how {@code search} finds tools and what its hits show
     * @param access              {@code tools.exposure} and {@code tools.confirm_without_elicitation}: how
     *                            clients reach the tools (default {@code meta}, unconfirmable calls refused)
     * @param cache               {@code tools.cache} (default off, ttl 120 s)
     * @param cacheMaxBytes       {@code tools.cache.max_size}: the most memory cached results may hold
     * @param limits              row limit and timeouts every tool inherits
     * @param defaultAuth         the root {@code auth:} block tools without their own inherit, or null
     * @param strictHandlerInputs {@code tools.strict_handler_inputs}: handler tools' inputs are checked as
     *                            strictly as database tools' (default false: Hyperterse passes them through)
     * @param exposeScriptErrors  {@code tools.expose_script_errors}: callers see the message of any
     *                            exception a script throws (default true, as Hyperterse); false shows only
     *                            a {@code ToolError}'s message and masks others behind an error id in the log
     */
    public record Tools(SearchSettings search, ToolAccess access, CachePolicy cache, long cacheMaxBytes,
                        Limits limits, AuthDef defaultAuth, boolean strictHandlerInputs,
                        boolean exposeScriptErrors) {
    }

    /**
     * How handler and mapper scripts run.
     *
     * @param workers         threads that run them ({@code tools.script_workers}, default 4)
     * @param fetchAllowHosts {@code tools.fetch.allow_hosts}: the only hosts scripts may {@code fetch}
     *                        from; empty (the default) allows any host but this server itself
     */
    public record Scripts(int workers, List<HostPattern> fetchAllowHosts) {
        public static final Scripts DEFAULTS = new Scripts(4, List.of());

        public Scripts {
            fetchAllowHosts = List.copyOf(fetchAllowHosts);
        }
    }
}
