package dev.hyperterse.project;

import dev.hyperterse.model.AdapterDef;
import dev.hyperterse.model.AuthDef;
import dev.hyperterse.model.CachePolicy;
import dev.hyperterse.model.InputDef;
import dev.hyperterse.model.InputType;
import dev.hyperterse.model.Limits;
import dev.hyperterse.model.ProjectConfig;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.model.ServerSettings;
import dev.hyperterse.model.ToolDef;
import dev.hyperterse.model.ToolErrorMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.project.ProjectFixture.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A complete valid project: every compiled field. Error rules are in {@link ProjectCompilerErrorsTest}. */
class ProjectCompilerTest {
    @TempDir
    Path dir;
    ProjectFixture p;

    @BeforeEach
    void writeProject() {
        p = new ProjectFixture(dir);
        p.write(".hyperterse", String.join("\n",
                "name: shop",
                "version: 1.10",
                "toolz: {}",
                "tools:",
                "  search:",
                "    limit: 5",
                "  cache:",
                "    enabled: true",
                "    ttl: 60",
                "  row_limit: 500",
                "  result_max_bytes: 2mb",
                "  statement_timeout: 20s",
                "  script_timeout: 3s",
                "  script_workers: 6",
                "  fetch:",
                "    allow_hosts: [api.example.com, '*.weather.example:8443', '[::1]:9000']",
                "server:",
                "  port: \"{{ env.SHOP_PORT }}\"",
                "  host: 0.0.0.0",
                "  log_level: 4",
                "  cors_origins: [https://a.example]",
                "  allowed_origins: [https://b.example]",
                "  allowed_hosts: [shop.internal]",
                "  max_body_size: 1mb",
                "  tool_errors: RPC",
                "  sessions:",
                "    idle_timeout: 10m",
                "    max: 50",
                "  page_size: 7",
                "  progress_interval: 250ms",
                "  search_output_schema: yes",
                "build:",
                "  out: dist",
                "auth:",
                "  plugin: API_KEY",
                "  policy:",
                "    value: '{{ env.API_KEY }}'",
                "    roles: [admin, 7]",
                "    strict: true",
                ""));
        p.write(".env.local", "# picked first\nexport SHOP_PORT=9000\nDB_FILE=\"data/shop.db\"\nAPI_KEY=from-file\nSCHEMA=main\n");
        p.write(".env", "ONLY_IN_DOTENV=ignored\nSHOP_PORT=1\n");

        p.write("app/adapters/main.terse", String.join("\n",
                "connector: SQLite",
                "connection_string: \"jdbc:sqlite:{{ env.DB_FILE }}\"",
                "options:",
                "  row_limit: 200",
                "  statement_timeout: 10s",
                "  ssl: true",
                "  pool: 4",
                "  ratio: 1.50",
                "  secret: '{{ env.API_KEY }}'",
                ""));
        p.write("app/adapters/nested/cache.terse", "name: kv\nconnector: redis\nconnection_string: redis://localhost:6379\n");

        p.write("app/tools/users/Get User!/config.terse", String.join("\n",
                "description: Find users",
                "use: main",
                "statement: |",
                "  SELECT * FROM {{ env.SCHEMA }}.users",
                "  WHERE id = {{inputs.id}} AND since > {{ inputs.since }} AND active = {{ inputs.active }}",
                "    AND ratio < {{ inputs.ratio }} AND name = '{{ inputs.name }}' AND note = {{ inputs.note }}",
                "  LIMIT {{ inputs.limit }}",
                "inputs:",
                "  id:",
                "    type: int",
                "    description: Primary key",
                "    default: \"42\"",
                "  limit:",
                "    type: INT",
                "    optional: true",
                "    default: 10",
                "  since:",
                "    type: datetime",
                "    default: 2024-01-02",
                "  active:",
                "    type: boolean",
                "    default: true",
                "  ratio:",
                "    type: float",
                "    default: 1",
                "  name:",
                "    type: string",
                "    default: 1.50",
                "  note:",
                "    type: string",
                "    optional: yes",
                "    default: \"\"",
                "  unused_one:",
                "    type: string",
                "cache:",
                "  ttl: 30",
                "row_limit: 50",
                "result_max_bytes: 512kb",
                ""));

        p.write("app/tools/orders/config.terse", String.join("\n",
                "name: list-orders",
                "use: main",
                "statement: SELECT * FROM orders",
                "timeout: 2s",
                "auth:",
                "  plugin: allow_all",
                "cache:",
                "  enabled: false",
                "invalidates:",
                "  - users-get-user",
                ""));
        // a database tool never gets a handler by convention, but mappers are found
        p.write("app/tools/orders/handler.ts", "export default () => 1;\n");
        p.write("app/tools/orders/input.ts", "export default (p) => p.inputs;\n");
        p.write("app/tools/orders/output.ts", "export default (p) => p.results;\n");

        p.write("app/tools/weather/config.terse",
                "description: Weather\ninputs:\n  city:\n    type: string\ntimeout: 7s\nenv: [API_KEY, SCHEMA, API_KEY]\n");
        p.write("app/tools/weather/weather-handler.ts", "export default () => 1;\n");
        p.write("app/tools/weather/x-handler.ts", "export default () => 2;\n"); // later in name order: not chosen
        p.write("app/tools/weather/zz-input-validator.ts", "export default (p) => p.inputs;\n");
        p.write("app/tools/weather/data-mapper.ts", "export default (p) => p.results;\n");
        p.write("app/tools/weather/input-only.ts", "export default 1;\n"); // "input" without "validator"
        p.write("app/tools/weather/notes.txt", "not a script\n");

        p.write("app/tools/explicit/config.terse", String.join("\n",
                "handler: 'lib/shared.ts#run'",
                "mappers:",
                "  input: local.ts#pre",
                "  output: ../weather/data-mapper.ts",
                ""));
        p.write("app/tools/explicit/handler.ts", "export default () => 1;\n"); // explicit handler wins
        p.write("app/tools/explicit/local.ts", "export const pre = (p) => p.inputs;\n");
        p.write("local.ts", "export const pre = 0;\n"); // the tool folder's copy wins for a bare path
        p.write("lib/shared.ts", "export const run = () => 1;\n");

        p.write("app/tools/config.terse", "description: At the top\n");
        p.write("app/tools/handler.ts", "export default () => 1;\n");
    }

    private Project compile() throws ProjectException {
        return p.compile(Map.of("API_KEY", "from-process", "PATH", "/bin"));
    }

    @Test
    void rootConfigHasProjectValuesOverDefaults() throws Exception {
        ProjectConfig config = compile().config();
        assertEquals("shop", config.name());
        assertEquals("1.10", config.version(), "version keeps its text");
        assertEquals(dir.toAbsolutePath().normalize(), config.folders().projectDir());
        assertEquals(dir.resolve("app").toAbsolutePath().normalize(), config.folders().rootDir());
        assertEquals(dir.resolve("app/tools").toAbsolutePath().normalize(), config.folders().toolsDir());
        assertEquals(dir.resolve("app/adapters").toAbsolutePath().normalize(), config.folders().adaptersDir());
        assertEquals(5, config.searchLimit());
        assertEquals(new CachePolicy(true, 60), config.tools().cache());
        assertEquals(new Limits(500, 2L << 20, Duration.ofSeconds(20), Duration.ofSeconds(3)), config.tools().limits());
        assertEquals(6, config.scripts().workers());
        assertEquals(java.util.List.of(new dev.hyperterse.model.HostPattern("api.example.com", false, -1),
                new dev.hyperterse.model.HostPattern("weather.example", true, 8443),
                new dev.hyperterse.model.HostPattern("::1", false, 9000)), config.scripts().fetchAllowHosts());
        assertTrue(ProjectFixture.samePath(config.location().file(), dir.resolve(".hyperterse")));

        ServerSettings server = config.server();
        assertEquals(9000, server.network().port(), "from .env.local; .env is not read once .env.local exists");
        assertEquals("0.0.0.0", server.network().host());
        assertEquals(4, server.logLevel());
        assertEquals(List.of("https://a.example"), server.network().corsOrigins());
        assertEquals(List.of("https://b.example"), server.network().allowedOrigins());
        assertEquals(List.of("shop.internal"), server.network().allowedHosts());
        assertEquals(1024 * 1024, server.limits().maxBodyBytes());
        assertEquals(ToolErrorMode.RPC, server.toolErrors());
        assertEquals(Duration.ofMinutes(10), server.sessions().idleTimeout());
        assertEquals(50, server.sessions().max());
        assertEquals(7, server.limits().pageSize());
        assertEquals(Duration.ofMillis(250), server.timeouts().progressInterval());
        assertTrue(server.searchOutputSchema());
    }

    @Test
    void environmentIsTheFirstEnvFileUnderTheRealEnvironment() throws Exception {
        Map<String, String> env = compile().environment();
        assertEquals("from-process", env.get("API_KEY"), "real variables win over the env file");
        assertEquals("9000", env.get("SHOP_PORT"));
        assertEquals("data/shop.db", env.get("DB_FILE"));
        assertEquals("/bin", env.get("PATH"));
        assertFalse(env.containsKey("ONLY_IN_DOTENV"), "only the first env file found is loaded");
    }

    @Test
    void unknownRootKeyIsAWarningWithASuggestion() throws Exception {
        compile();
        assertProblem(p.warnings, p.file(".hyperterse"), 3, "unknown key 'toolz' is ignored", "did you mean 'tools'?");
    }

    @Test
    void adaptersInFileOrderWithEnvResolvedAndOptionsAsText() throws Exception {
        Map<String, AdapterDef> adapters = compile().adapters();
        assertEquals(List.of("main", "kv"), List.copyOf(adapters.keySet()));

        AdapterDef main = adapters.get("main");
        assertEquals("sqlite", main.connector(), "connector keywords are stored lower-case");
        assertEquals("jdbc:sqlite:data/shop.db", main.connectionString());
        assertEquals(Map.of("row_limit", "200", "statement_timeout", "10s", "ssl", "true", "pool", "4",
                "ratio", "1.5", "secret", "from-process"), main.options());
        assertTrue(ProjectFixture.samePath(main.location().file(), p.file("app/adapters/main.terse")));

        AdapterDef kv = adapters.get("kv");
        assertEquals("redis", kv.connector());
        assertEquals("redis://localhost:6379", kv.connectionString());
        assertEquals(Map.of(), kv.options());
    }

    @Test
    void toolsInFileOrderWithDerivedNamesAndPaths() throws Exception {
        Map<String, ToolDef> tools = compile().tools();
        assertEquals(List.of("index", "explicit", "list-orders", "users-get-user", "weather"), List.copyOf(tools.keySet()));
        assertEquals("index", tools.get("index").path());
        assertEquals("explicit", tools.get("explicit").path());
        assertEquals("orders", tools.get("list-orders").path());
        assertEquals("users/Get User!", tools.get("users-get-user").path());
        assertEquals("Tool generated from app tool: explicit", tools.get("explicit").description());
        assertEquals("Find users", tools.get("users-get-user").description());
        assertTrue(ProjectFixture.samePath(tools.get("weather").location().file(), p.file("app/tools/weather/config.terse")));
        assertEquals(List.of("API_KEY", "SCHEMA"), tools.get("weather").scriptEnv(), "names only, once each");
        assertEquals(List.of(), tools.get("list-orders").scriptEnv());
    }

    @Test
    void databaseToolKeepsStatementAndInputsInOrderWithCoercedDefaults() throws Exception {
        ToolDef tool = compile().tools().get("users-get-user");
        assertTrue(tool.isDatabaseTool());
        assertEquals("main", tool.use());
        assertTrue(tool.statement().startsWith("SELECT * FROM {{ env.SCHEMA }}.users\n"), "env stays textual");
        assertNull(tool.handler());

        List<InputDef> inputs = tool.inputs();
        assertEquals(List.of("id", "limit", "since", "active", "ratio", "name", "note", "unused_one"),
                inputs.stream().map(InputDef::name).toList());
        InputDef id = inputs.get(0);
        assertEquals(InputType.INT, id.type());
        assertEquals("Primary key", id.description());
        assertFalse(id.optional());
        assertTrue(id.hasDefault());
        assertEquals(42L, id.defaultValue());
        assertEquals(ProjectFixture.lineOf(p.file("app/tools/users/Get User!/config.terse"), "  id:"), id.location().line());

        assertEquals(InputType.INT, inputs.get(1).type());
        assertTrue(inputs.get(1).optional());
        assertEquals(10L, inputs.get(1).defaultValue());
        assertEquals("2024-01-02", inputs.get(2).defaultValue());
        assertEquals(Boolean.TRUE, inputs.get(3).defaultValue());
        assertEquals(1.0, inputs.get(4).defaultValue());
        assertEquals("1.50", inputs.get(5).defaultValue(), "a string default keeps the text as written");
        InputDef note = inputs.get(6);
        assertTrue(note.optional(), "yes is accepted for a boolean key, as yaml.v3 does");
        assertFalse(note.hasDefault(), "default \"\" means no default");
        assertNull(note.description());
    }

    @Test
    void declaredButUnusedInputIsAWarning() throws Exception {
        compile();
        Path file = p.file("app/tools/users/Get User!/config.terse");
        assertProblem(p.warnings, file, ProjectFixture.lineOf(file, "unused_one:"), "input 'unused_one'", "never used");
        assertEquals(2, p.warnings.size(), "the root key warning and this one: " + p.warnings);
    }

    @Test
    void cacheOverridesTheRootFieldByField() throws Exception {
        Map<String, ToolDef> tools = compile().tools();
        assertEquals(new CachePolicy(true, 30), tools.get("users-get-user").cache());
        assertEquals(new CachePolicy(false, 60), tools.get("list-orders").cache());
        // a handler tool is cached only when its own block says so: handlers may have side effects
        assertEquals(new CachePolicy(false, 60), tools.get("weather").cache());
    }

    @Test
    void aHandlerToolTurnsItsCacheOnItself() throws Exception {
        p.write("app/tools/weather/config.terse",
                "description: Weather\ninputs:\n  city:\n    type: string\ncache:\n  enabled: true\n");
        assertEquals(new CachePolicy(true, 60), compile().tools().get("weather").cache());
    }

    @Test
    void limitsToolOverAdapterOverRoot() throws Exception {
        Map<String, ToolDef> tools = compile().tools();
        assertEquals(new Limits(50, 512L << 10, Duration.ofSeconds(10), Duration.ofSeconds(3)), tools.get("users-get-user").limits());
        assertEquals(new Limits(200, 2L << 20, Duration.ofSeconds(2), Duration.ofSeconds(3)), tools.get("list-orders").limits());
        assertEquals(new Limits(500, 2L << 20, Duration.ofSeconds(20), Duration.ofSeconds(7)), tools.get("weather").limits(),
                "a handler tool's timeout is its script timeout");
        assertEquals(new Limits(500, 2L << 20, Duration.ofSeconds(20), Duration.ofSeconds(3)), tools.get("index").limits());
    }

    @Test
    void authIsInheritedFromTheRootUnlessTheToolHasItsOwn() throws Exception {
        Map<String, ToolDef> tools = compile().tools();
        AuthDef inherited = tools.get("weather").auth();
        assertEquals("api_key", inherited.plugin());
        assertEquals(Map.of("value", "from-process", "roles", List.of("admin", 7L), "strict", true), inherited.policy());
        assertEquals(inherited, tools.get("users-get-user").auth());
        AuthDef own = tools.get("list-orders").auth();
        assertEquals("allow_all", own.plugin());
        assertEquals(Map.of(), own.policy());
    }

    @Test
    void conventionDiscoveryFillsOnlyOpenSlotsInFileNameOrder() throws Exception {
        Map<String, ToolDef> tools = compile().tools();
        Path weather = dir.resolve("app/tools/weather").toAbsolutePath().normalize();
        ToolDef w = tools.get("weather");
        assertFalse(w.isDatabaseTool());
        assertEquals(new ScriptRef(weather.resolve("weather-handler.ts"), "default", w.handler().declaredAt()), w.handler());
        assertEquals(weather.resolve("zz-input-validator.ts"), w.inputMapper().file());
        assertEquals(weather.resolve("data-mapper.ts"), w.outputMapper().file());

        ToolDef orders = tools.get("list-orders");
        Path ordersDir = dir.resolve("app/tools/orders").toAbsolutePath().normalize();
        assertNull(orders.handler(), "no handler for a tool with 'use'");
        assertEquals(ordersDir.resolve("input.ts"), orders.inputMapper().file());
        assertEquals(ordersDir.resolve("output.ts"), orders.outputMapper().file());
        assertEquals(List.of("users-get-user"), orders.invalidates());

        ToolDef index = tools.get("index");
        assertEquals(dir.resolve("app/tools/handler.ts").toAbsolutePath().normalize(), index.handler().file());
        assertNull(index.inputMapper());
    }

    @Test
    void explicitScriptPathsResolveAsHyperterseDoes() throws Exception {
        ToolDef tool = compile().tools().get("explicit");
        Path config = p.file("app/tools/explicit/config.terse");
        Path root = dir.toAbsolutePath().normalize();

        assertEquals(root.resolve("lib/shared.ts"), tool.handler().file(), "a bare path not in the tool folder");
        assertEquals("run", tool.handler().exportName());
        assertEquals(1, tool.handler().declaredAt().line());
        assertTrue(ProjectFixture.samePath(tool.handler().declaredAt().file(), config));

        assertEquals(root.resolve("app/tools/explicit/local.ts"), tool.inputMapper().file(), "the tool folder first");
        assertEquals("pre", tool.inputMapper().exportName());
        assertEquals(root.resolve("app/tools/weather/data-mapper.ts"), tool.outputMapper().file());
        assertEquals("default", tool.outputMapper().exportName());
        assertEquals(4, tool.outputMapper().declaredAt().line());
    }

    @Test
    void absoluteScriptPathIsUsedAsIs(@TempDir Path elsewhere) throws Exception {
        ProjectFixture other = new ProjectFixture(elsewhere);
        Path script = other.write("scripts/abs.ts", "export default () => 1;\n");
        p.write("app/tools/absolute/config.terse", "handler: '" + script.toAbsolutePath() + "#go'\n");
        ToolDef tool = compile().tools().get("absolute");
        assertEquals(script.toAbsolutePath().normalize(), tool.handler().file());
        assertEquals("go", tool.handler().exportName());
    }

    @Test
    void theRootFileItselfMayBeGiven() throws Exception {
        Project fromFolder = compile();
        Project fromFile = ProjectFixture.compiler(Map.of("API_KEY", "from-process", "PATH", "/bin"))
                .compile(dir.resolve(".hyperterse"));
        assertEquals(fromFolder, fromFile);
    }
}
