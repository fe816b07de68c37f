package dev.hyperterse.project;

import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.CallerText;
import dev.hyperterse.model.CachePolicy;
import dev.hyperterse.model.HostPattern;
import dev.hyperterse.model.HttpLimits;
import dev.hyperterse.model.ToolAccess;
import dev.hyperterse.model.Limits;
import dev.hyperterse.model.ObservabilitySettings;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.SearchRanking;
import dev.hyperterse.model.SearchSettings;
import dev.hyperterse.search.TextEmbedder;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.model.SourceLocation;
import dev.hyperterse.model.ToolErrorMode;
import dev.hyperterse.model.ToolExposure;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Reads the root {@code .hyperterse} after it was merged over the packaged defaults. Unknown keys
 * are ignored with a warning, as Hyperterse ignores them; wrong values are errors.
 */
final class RootConfigReader {
    static final List<String> ROOT_KEYS =
            List.of("name", "version", "root", "tools", "adapters", "server", "build", "auth", "observability",
                    "prompts", "resources");
    /** Hyperterse features this server does not serve: named in a warning, never ignored silently. */
    static final List<String> UNSERVED_FEATURES = List.of("agents");
    private static final List<String> TOOLS_KEYS =
            List.of("directory", "search", "cache", "row_limit", "result_max_bytes", "statement_timeout",
            "script_timeout", "script_workers", "fetch", "strict_handler_inputs",
            "expose_script_errors", "exposure", "confirm_without_elicitation", "execute_tool_header",
            "parse_json_strings");
    private static final List<String> FETCH_KEYS = List.of("allow_hosts");
    private static final List<String> SEARCH_KEYS = List.of("limit", "ranking", "filter_by_auth", "statements");
    private static final List<String> CACHE_KEYS = List.of("enabled", "ttl", "max_size");
    private static final List<String> ADAPTERS_KEYS = List.of("directory");
    private static final List<String> SERVER_KEYS = List.of("port", "host", "log_level", "cors_origins",
            "allowed_origins", "allowed_hosts", "max_body_size", "tool_errors", "sessions", "page_size",
            "progress_interval", "search_output_schema", "shutdown_timeout", "drain_period", "http", "metrics",
            "instances", "console");
    private static final List<String> SESSIONS_KEYS = List.of("idle_timeout", "max", "per_client");
    private static final List<String> HTTP_KEYS = List.of("idle_timeout", "header_timeout", "body_timeout",
            "bodies_in_flight");
    private static final List<String> SERVER_METRICS_KEYS = List.of("token");
    /**
     * Hyperterse's build settings (its parser reads {@code out}, its alias {@code out_dir}, and
     * {@code clean_dir}): for {@code hyperterse build}, which writes the compiled project to a
     * folder. This server compiles at start and writes nothing, so they are known and unused.
     */
    private static final List<String> BUILD_KEYS = List.of("out", "out_dir", "clean_dir");
    private static final List<String> OBSERVABILITY_KEYS = List.of("tracing", "metrics", "logs");
    private static final List<String> TRACING_KEYS = List.of("enabled", "include_inputs");
    private static final List<String> METRICS_KEYS = List.of("enabled", "path");
    private static final List<String> LOGS_KEYS = List.of("format");

    // the MCP endpoint's path, which metrics may not take over
    private static final String HTTP_MCP_PATH = "/mcp";

    // Stand-ins for a value that was wrong: it was reported, so compile() throws and these are
    // never seen; they only let reading go on to find further problems.
    private static final int BAD_INT = 1;
    // each listener holds an event loop and a share of every pool: more than this is a typing error
    private static final int MAX_INSTANCES = 256;
    private static final Duration BAD_DURATION = Duration.ofSeconds(1);
    // each worker may hold one JavaScript context per script: more threads than this only costs memory
    private static final int MAX_SCRIPT_WORKERS = 256;

    /**
     * @param defaultAuth       the root {@code auth:} block that tools without their own inherit, or null
     * @param defaultAuthBroken true when a root {@code auth:} block was written but is wrong (reported)
     */
    record RootConfig(ProjectConfig config, AuthDef defaultAuth, boolean defaultAuthBroken, Folders folders) {
    }

    /**
     * Where tools, prompts and resources are looked for, whether or not the folders exist (the
     * config holds only those that do): for a message about a project that defines none.
     */
    record Folders(Path tools, Path prompts, Path resources) {
    }

    private final EnvSubstitution env;
    private final AuthBlocks authBlocks;
    private final DisplayPaths paths;
    private final Problems problems;

    RootConfigReader(EnvSubstitution env, AuthBlocks authBlocks, DisplayPaths paths, Problems problems) {
        this.env = env;
        this.authBlocks = authBlocks;
        this.paths = paths;
        this.problems = problems;
    }

    /**
     * @param merged     the project's {@code .hyperterse} merged over the packaged defaults
     * @param rootShown  the {@code .hyperterse} file as messages show it
     * @return the config; its folders are null when they could not be read (reported)
     */
    RootConfig read(YamlNode merged, Path projectDir, Path rootShown) {
        ConfigMap top = ConfigMap.top(merged, rootShown, problems);
        List<String> readOrNamed = new java.util.ArrayList<>(ROOT_KEYS);
        readOrNamed.addAll(UNSERVED_FEATURES);
        top.warnUnknownKeys(readOrNamed);
        for (String feature : UNSERVED_FEATURES) {
            if (top.has(feature)) {
                problems.warn(rootShown, top.entry(feature).keyLine(), "'" + feature + "' (Hyperterse " + feature + ") is not served by "
                        + "this server: the project's " + feature + " are ignored");
            }
        }

        String name = top.requiredString("name", " (the project's name)");
        if (name != null && name.isBlank()) {
            top.error("name", "'name' must not be empty");
        }
        String version = top.string("version");

        ConfigMap tools = section(top, "tools", TOOLS_KEYS);
        ConfigMap adapters = section(top, "adapters", ADAPTERS_KEYS);
        ConfigMap server = section(top, "server", SERVER_KEYS);
        ConfigMap prompts = section(top, "prompts", ADAPTERS_KEYS);
        ConfigMap resources = section(top, "resources", ADAPTERS_KEYS);
        ConfigMap build = top.map("build");
        if (build != null) {
            build.warnUnknownKeys(BUILD_KEYS);
            for (String key : BUILD_KEYS) {
                // a note, not an unknown-key warning: the setting is right for Hyperterse
                if (build.has(key)) {
                    build.note(key, "'build." + key + "' is a Hyperterse build setting (for 'hyperterse build',"
                            + " which writes the compiled project to a folder); this server compiles the project"
                            + " when it starts and writes no build output, so it is not used");
                }
            }
        }

        Path rootDir = folder(top, "root", projectDir);
        if (rootDir != null && !Files.isDirectory(rootDir)) {
            SourceLocation at = userLocation(top, "root", rootShown);
            if (at.line() > 0 || Files.exists(rootDir)) {
                problems.error(at.file(), at.line(), "root folder " + paths.show(rootDir) + missingFolder(rootDir));
                rootDir = null;
            }
        }
        Path toolsDir = rootDir == null || tools == null ? null : folder(tools, "directory", rootDir);
        Path adaptersDir = rootDir == null || adapters == null ? null : folder(adapters, "directory", rootDir);
        Path toolsLookedIn = toolsDir;
        if (toolsDir != null && !Files.isDirectory(toolsDir)) {
            // as in Hyperterse 2.3+, a project without tools is one of prompts or resources (that it
            // defines something is checked once everything is read); a folder the project names
            // must exist, and a file where the folder belongs is a mistake either way
            SourceLocation at = userLocation(tools, "directory", rootShown);
            if (at.line() > 0 || Files.exists(toolsDir)) {
                problems.error(at.file(), at.line(), "tools folder " + paths.show(toolsDir) + missingFolder(toolsDir));
            }
            toolsDir = null;
        }

        if (rootDir != null) {
            for (String feature : UNSERVED_FEATURES) {
                Path folder = rootDir.resolve(feature);
                if (Files.isDirectory(folder) && !top.has(feature)) {
                    problems.warn(paths.show(folder), 0, "the " + feature + " folder (Hyperterse " + feature
                            + ") is not served by this server: its files are ignored");
                }
            }
        }
        Path promptsLookedIn = rootDir == null || prompts == null ? null : folder(prompts, "directory", rootDir);
        Path resourcesLookedIn = rootDir == null || resources == null ? null : folder(resources, "directory", rootDir);
        Path promptsDir = promptsLookedIn == null ? null
                : optionalFolder(prompts, "directory", promptsLookedIn, rootShown, "prompts");
        Path resourcesDir = resourcesLookedIn == null ? null
                : optionalFolder(resources, "directory", resourcesLookedIn, rootShown, "resources");

        ConfigMap search = tools == null ? null : section(tools, "search", SEARCH_KEYS);
        int searchLimit = search == null ? BAD_INT : orBad(search.positiveInt(required(search, "limit")));
        SearchRanking ranking = search == null ? null : searchRanking(search);
        Boolean filterByAuth = search == null ? null : search.bool(required(search, "filter_by_auth"));
        Boolean searchStatements = search == null ? null : search.bool(required(search, "statements"));
        ConfigMap cacheSection = tools == null ? null : section(tools, "cache", CACHE_KEYS);
        CachePolicy cache = cachePolicy(cacheSection);
        Long cacheSize = cacheSection == null ? null : cacheSection.byteSize(required(cacheSection, "max_size"));
        long cacheMaxBytes = cacheSize == null ? BAD_INT : cacheSize;
        Long resultBytes = tools == null ? null : tools.byteSize(required(tools, "result_max_bytes"));
        Limits limits = tools == null ? new Limits(BAD_INT, BAD_INT, BAD_DURATION, BAD_DURATION) : new Limits(
                orBad(tools.positiveInt(required(tools, "row_limit"))),
                resultBytes == null ? BAD_INT : resultBytes,
                orBad(tools.duration(required(tools, "statement_timeout"))),
                orBad(tools.duration(required(tools, "script_timeout"))));

        int scriptWorkers = tools == null ? BAD_INT : orBad(tools.integer(required(tools, "script_workers"), 1,
                MAX_SCRIPT_WORKERS, "a number of threads from 1 to " + MAX_SCRIPT_WORKERS));

        ConfigMap fetch = tools == null ? null : section(tools, "fetch", FETCH_KEYS);
        List<HostPattern> allowHosts = fetch == null ? List.of() : allowHosts(fetch);
        Boolean strictHandlerInputs = tools == null ? null : tools.bool(required(tools, "strict_handler_inputs"));
        Boolean exposeScriptErrors = tools == null ? null : tools.bool(required(tools, "expose_script_errors"));
        Boolean executeToolHeader = tools == null ? null : tools.bool(required(tools, "execute_tool_header"));
        Boolean parseJsonStrings = tools == null ? null : tools.bool(required(tools, "parse_json_strings"));

        AuthDef defaultAuth = null;
        boolean authBroken = false;
        ConfigMap auth = top.map("auth");
        if (auth != null) {
            defaultAuth = authBlocks.read(auth, "the root auth block", projectDir);
            authBroken = defaultAuth == null;
        } else if (top.has("auth")) {
            authBroken = true;
        }

        ServerSettings settings = server == null ? null : serverSettings(server);
        ConfigMap observability = section(top, "observability", OBSERVABILITY_KEYS);
        // read before tools.exposure and tools.confirm_without_elicitation, so errors keep their order
        ObservabilitySettings observed =
                observability == null ? ObservabilitySettings.DEFAULTS : observability(observability);
        ToolAccess access = new ToolAccess(exposure(tools), runUnconfirmed(tools),
                executeToolHeader != null && executeToolHeader, parseJsonStrings != null && parseJsonStrings);
        ProjectConfig config = new ProjectConfig(name, version, SourceLocation.of(rootShown),
                new ProjectConfig.Folders(projectDir, rootDir, toolsDir, adaptersDir, promptsDir, resourcesDir),
                new ProjectConfig.Tools(
                        new SearchSettings(searchLimit, ranking == null ? defaultRanking() : ranking, ranking != null,
                                filterByAuth == null || filterByAuth, searchStatements == null || searchStatements),
                        access, cache, cacheMaxBytes, limits, defaultAuth,
                        strictHandlerInputs != null && strictHandlerInputs,
                        exposeScriptErrors == null || exposeScriptErrors),
                new ProjectConfig.Scripts(scriptWorkers, allowHosts), settings, observed);
        return new RootConfig(config, defaultAuth, authBroken,
                new Folders(toolsLookedIn, promptsLookedIn, resourcesLookedIn));
    }

    /** {@code tools.fetch.allow_hosts}: each entry a host, {@code *.domain} or either with {@code :port}. */
    private static List<HostPattern> allowHosts(ConfigMap fetch) {
        List<String> written = fetch.stringList(required(fetch, "allow_hosts"));
        List<HostPattern> patterns = new java.util.ArrayList<>();
        if (written == null) {
            return patterns;
        }
        for (String entry : written) {
            try {
                patterns.add(HostPattern.parse(entry));
            } catch (IllegalArgumentException e) {
                fetch.error("allow_hosts", "'tools.fetch.allow_hosts': " + e.getMessage());
            }
        }
        return patterns;
    }

    private CachePolicy cachePolicy(ConfigMap cache) {
        if (cache == null) {
            return CachePolicy.OFF;
        }
        Boolean enabled = cache.bool(required(cache, "enabled"));
        Long ttl = cache.integer(required(cache, "ttl"), 0, Integer.MAX_VALUE, "a number of seconds (0 or more)");
        return new CachePolicy(enabled != null && enabled, ttl == null ? 0 : ttl);
    }

    private ServerSettings serverSettings(ConfigMap server) {
        Integer port = port(server);
        String host = server.string(required(server, "host"));
        if (host != null && host.isBlank()) {
            server.error("host", "'server.host' must not be empty");
        }
        Long logLevel = server.integer(required(server, "log_level"), 1, 4,
                "an integer from 1 (errors only) to 4 (debug)");
        List<String> cors = server.stringList(required(server, "cors_origins"));
        List<String> origins = server.stringList(required(server, "allowed_origins"));
        List<String> hosts = server.stringList(required(server, "allowed_hosts"));
        Long maxBody = server.byteSize(required(server, "max_body_size"));
        ToolErrorMode toolErrors = toolErrors(server);
        ConfigMap sessions = section(server, "sessions", SESSIONS_KEYS);
        Duration idle = sessions == null ? null : sessions.duration(required(sessions, "idle_timeout"));
        Integer maxSessions = sessions == null ? null : sessions.positiveInt(required(sessions, "max"));
        Integer perClient = sessions == null || maxSessions == null ? null : perClient(sessions, maxSessions);
        ConfigMap http = section(server, "http", HTTP_KEYS);
        HttpLimits timeouts = http == null ? null : new HttpLimits(
                orBad(http.duration(required(http, "idle_timeout"))),
                orBad(http.duration(required(http, "header_timeout"))),
                orBad(http.duration(required(http, "body_timeout"))), bodiesInFlight(http));
        ConfigMap metrics = section(server, "metrics", SERVER_METRICS_KEYS);
        String metricsToken = metrics == null ? null : metricsToken(metrics);
        Integer pageSize = server.positiveInt(required(server, "page_size"));
        Duration progressInterval = server.duration(required(server, "progress_interval"));
        Boolean searchOutputSchema = server.bool(required(server, "search_output_schema"));
        Duration shutdownTimeout = server.duration(required(server, "shutdown_timeout"));
        Duration drainPeriod = server.durationOrZero(required(server, "drain_period"));
        Integer instances = instances(server);
        Boolean console = server.bool(required(server, "console"));
        return new ServerSettings(
                new ServerSettings.Network(port, host == null ? "" : host, cors == null ? List.of() : cors,
                        origins == null ? List.of() : origins, hosts == null ? List.of() : hosts, orBad(instances)),
                new ServerSettings.Sessions(orBad(idle), orBad(maxSessions), orBad(perClient)),
                new ServerSettings.RequestLimits(maxBody == null ? BAD_INT : maxBody,
                        timeouts == null ? HttpLimits.DEFAULTS : timeouts, orBad(pageSize)),
                new ServerSettings.Timeouts(orBad(progressInterval), orBad(shutdownTimeout), orBad(drainPeriod)),
                logLevel == null ? BAD_INT : logLevel.intValue(),
                toolErrors == null ? ToolErrorMode.RESULT : toolErrors,
                searchOutputSchema != null && searchOutputSchema, metricsToken, console != null && console);
    }

    /** {@code server.http.bodies_in_flight}: a size, or {@code auto} (a quarter of the heap). */
    private static long bodiesInFlight(ConfigMap http) {
        String key = required(http, "bodies_in_flight");
        YamlNode node = http.node(key);
        if (node instanceof YamlNode.Scalar && "auto".equals(String.valueOf(((YamlNode.Scalar) node).value()).strip())) {
            return HttpLimits.AUTO_BODIES_IN_FLIGHT;
        }
        Long bytes = http.byteSize(key);
        return bytes == null ? BAD_INT : bytes;
    }

    /** {@code server.instances}: a positive number of listeners, or {@code auto} (0: one per CPU core). */
    private static Integer instances(ConfigMap server) {
        YamlNode node = server.node(required(server, "instances"));
        Object value = node instanceof YamlNode.Scalar ? ((YamlNode.Scalar) node).value() : null;
        if (value instanceof Integer && (Integer) value > 0 && (Integer) value <= MAX_INSTANCES) {
            return (Integer) value;
        }
        if (value instanceof String && ((String) value).strip().equals("auto")) {
            return 0;
        }
        server.error("instances", "'server.instances' must be auto (one per CPU core) or a number of listeners from 1 to "
                + MAX_INSTANCES + ", got " + YamlNode.describe(node));
        return null;
    }

    /**
     * {@code server.sessions.per_client}: a number of sessions, or a percentage of
     * {@code server.sessions.max} ({@code "10%"}); at least one session either way.
     */
    private static Integer perClient(ConfigMap sessions, int maxSessions) {
        YamlNode node = sessions.node(required(sessions, "per_client"));
        Object value = node instanceof YamlNode.Scalar ? ((YamlNode.Scalar) node).value() : null;
        if (value instanceof Integer && (Integer) value > 0) {
            return Math.min((Integer) value, maxSessions);
        }
        if (value instanceof String) {
            String text = ((String) value).strip();
            if (text.matches("\\d{1,3}(\\.\\d+)?%")) {
                double percent = Double.parseDouble(text.substring(0, text.length() - 1));
                if (percent > 0 && percent <= 100) {
                    return (int) Math.max(1, Math.floor(maxSessions * percent / 100));
                }
            }
        }
        sessions.error("per_client", "'server.sessions.per_client' must be a positive number of sessions or a "
                + "percentage of server.sessions.max such as \"10%\", got " + YamlNode.describe(node));
        return null;
    }

    /**
     * {@code server.metrics.token}: empty for none, else the bearer token (text such as
     * {@code "{{ env.METRICS_TOKEN }}"} is resolved). A token that resolves to nothing is an error,
     * not an open metrics path.
     */
    private String metricsToken(ConfigMap metrics) {
        String written = metrics.string(required(metrics, "token"));
        if (written == null || written.isEmpty()) {
            return null;
        }
        boolean[] missing = {false};
        String token = env.resolve(written, variable -> {
            missing[0] = true;
            metrics.missingVariable("token", variable, "server.metrics.token: environment variable '" + variable
                    + "' is not set");
        });
        if (missing[0]) {
            return null;
        }
        if (token.isBlank()) {
            metrics.error("token", "'server.metrics.token' is empty after substitution; remove it to serve "
                    + "metrics without a token");
            return null;
        }
        return token.strip();
    }

    private static ObservabilitySettings observability(ConfigMap block) {
        ConfigMap tracing = section(block, "tracing", TRACING_KEYS);
        ConfigMap metrics = section(block, "metrics", METRICS_KEYS);
        ConfigMap logs = section(block, "logs", LOGS_KEYS);
        Boolean tracingOn = tracing == null ? null : tracing.bool(required(tracing, "enabled"));
        Boolean inputs = tracing == null ? null : tracing.bool(required(tracing, "include_inputs"));
        Boolean metricsOn = metrics == null ? null : metrics.bool(required(metrics, "enabled"));
        String path = metrics == null ? null : metrics.string(required(metrics, "path"));
        if (path != null && (!path.startsWith("/") || path.length() < 2 || path.contains(" ")
                || path.equals(HTTP_MCP_PATH) || path.equals("/heartbeat") || path.equals("/ready"))) {
            metrics.error("path", "'observability.metrics.path' must be a path such as /metrics, other than "
                    + HTTP_MCP_PATH + ", /heartbeat and /ready, got \"" + path + "\"");
            path = null;
        }
        String format = logs == null ? null : logs.string(required(logs, "format"));
        if (format != null && !format.strip().equalsIgnoreCase("text") && !format.strip().equalsIgnoreCase("json")) {
            logs.error("format", "'observability.logs.format' must be 'text' or 'json', got \"" + format + "\"");
            format = null;
        }
        ObservabilitySettings d = ObservabilitySettings.DEFAULTS;
        return new ObservabilitySettings(tracingOn != null && tracingOn, inputs != null && inputs,
                metricsOn == null ? d.metricsEnabled() : metricsOn, path == null ? d.metricsPath() : path,
                format == null ? d.logFormat() : format.strip().toLowerCase(Locale.ROOT));
    }

    /** {@code server.port}: a number, or text such as {@code "{{ env.PORT }}"} that resolves to one. */
    private Integer port(ConfigMap server) {
        YamlNode node = server.node("port");
        if (node == null) {
            return null;
        }
        String expected = "'server.port' must be a port number from 0 to 65535 or \"{{ env.NAME }}\", got ";
        if (!(node instanceof YamlNode.Scalar)) {
            server.error("port", expected + YamlNode.describe(node));
            return null;
        }
        YamlNode.Scalar scalar = (YamlNode.Scalar) node;
        String text = scalar.text();
        boolean[] missing = {false};
        if (scalar.value() instanceof String) {
            text = env.resolve(text, variable -> {
                missing[0] = true;
                server.missingVariable("port", variable, "server.port: environment variable '" + variable + "' is not set");
            });
            if (missing[0]) {
                return null;
            }
        }
        try {
            int port = Integer.parseInt(text.strip());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        server.error("port", expected + (text.equals(scalar.text()) ? YamlNode.describe(node)
                : YamlNode.describe(node) + " (\"" + text + "\" after substitution)"));
        return null;
    }

    /** {@code tools.confirm_without_elicitation}: {@code refuse} (the default) or {@code run}. */
    private static boolean runUnconfirmed(ConfigMap tools) {
        String written = tools == null ? null : tools.string(required(tools, "confirm_without_elicitation"));
        if (written == null) {
            return false;
        }
        String value = written.strip().toLowerCase(Locale.ROOT);
        if (!value.equals("refuse") && !value.equals("run")) {
            tools.error("confirm_without_elicitation", "'tools.confirm_without_elicitation' must be 'refuse' or 'run', got \""
                    + CallerText.cut(written) + "\"");
            return false;
        }
        return value.equals("run");
    }

    private static ToolExposure exposure(ConfigMap tools) {
        String written = tools == null ? null : tools.string(required(tools, "exposure"));
        if (written == null) {
            return ToolExposure.META;
        }
        ToolExposure exposure = ToolExposure.of(written.strip().toLowerCase(Locale.ROOT));
        if (exposure == null) {
            tools.error("exposure", "'tools.exposure' must be 'meta', 'direct' or 'both', got \"" + written + "\"");
            return ToolExposure.META;
        }
        return exposure;
    }

    /** The ranking written, or null when none is (the packaged defaults leave it to the build). */
    private static SearchRanking searchRanking(ConfigMap search) {
        String written = search.entry("ranking") == null ? null : search.string("ranking");
        if (written == null) {
            return null;
        }
        SearchRanking ranking = SearchRanking.of(written.strip().toLowerCase(Locale.ROOT));
        if (ranking == null) {
            search.error("ranking", "'tools.search.ranking' must be 'static', 'hybrid', 'hyperterse' or 'semantic', got \""
                    + written + "\"");
        } else if (ranking == SearchRanking.SEMANTIC && TextEmbedder.bundled().isEmpty()) {
            search.error("ranking", "'tools.search.ranking: semantic' needs " + TextEmbedder.bundledMissing()
                    + ", or use 'static'");
        }
        return ranking;
    }

    /** {@code semantic} where the server has its models (the add-on beside its jar), {@code static} otherwise. */
    static SearchRanking defaultRanking() {
        return TextEmbedder.bundled().isPresent() ? SearchRanking.SEMANTIC : SearchRanking.STATIC;
    }

    private static ToolErrorMode toolErrors(ConfigMap server) {
        String written = server.string(required(server, "tool_errors"));
        if (written == null) {
            return null;
        }
        switch (written.strip().toLowerCase(Locale.ROOT)) {
            case "result":
                return ToolErrorMode.RESULT;
            case "rpc":
            // the name of rpc while it was the default: configurations written then keep working
            case "protocol":
                return ToolErrorMode.RPC;
            default:
                server.error("tool_errors", "'server.tool_errors' must be 'result' or 'rpc' ('protocol' is read as"
                        + " 'rpc'), got \"" + written + "\"");
                return null;
        }
    }

    private Path folder(ConfigMap map, String key, Path base) {
        String written = map.string(required(map, key));
        if (written == null) {
            return null;
        }
        if (written.isBlank()) {
            map.error(key, "'" + map.name(key) + "' must not be empty");
            return null;
        }
        try {
            return base.resolve(written.strip()).normalize();
        } catch (InvalidPathException e) {
            map.error(key, "'" + map.name(key) + "' is not a valid path: " + e.getReason());
            return null;
        }
    }

    /**
     * A prompts or resources folder: absent is fine when the project did not name it (a project
     * without prompts), an error when it did.
     */
    private Path optionalFolder(ConfigMap map, String key, Path dir, Path rootShown, String what) {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        SourceLocation at = userLocation(map, key, rootShown);
        if (at.line() > 0) {
            problems.error(at.file(), at.line(), what + " folder " + paths.show(dir) + missingFolder(dir));
        }
        return null;
    }

    private static String missingFolder(Path dir) {
        return Files.exists(dir) ? " is a file, not a folder" : " does not exist";
    }

    /** A nested section whose unknown keys are warned about; null when it is not a mapping (reported). */
    private static ConfigMap section(ConfigMap parent, String key, List<String> known) {
        ConfigMap section = parent.map(required(parent, key));
        if (section != null) {
            section.warnUnknownKeys(known);
        }
        return section;
    }

    /** The location of a value when the project's file sets it, else the file itself (line 0). */
    private static SourceLocation userLocation(ConfigMap map, String key, Path rootShown) {
        SourceLocation at = map.location(key);
        return at.file().equals(rootShown) ? at : SourceLocation.of(rootShown);
    }

    /**
     * Every key read through here has a default in the packaged defaults, so it is always present
     * after the merge; its absence means the jar was built with a broken defaults file.
     */
    private static String required(ConfigMap map, String key) {
        if (map.entry(key) == null) {
            throw new IllegalStateException("internal error: " + PackagedDefaults.RESOURCE
                    + " has no default for '" + map.name(key) + "'");
        }
        return key;
    }

    private static int orBad(Long value) {
        return value == null ? BAD_INT : value.intValue();
    }

    private static int orBad(Integer value) {
        return value == null ? BAD_INT : value;
    }

    private static Duration orBad(Duration value) {
        return value == null ? BAD_DURATION : value;
    }
}
