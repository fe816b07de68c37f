package dev.hyperterse.project;

import dev.hyperterse.model.SearchRanking;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static dev.hyperterse.project.ProjectFixture.assertProblem;
import static dev.hyperterse.project.ProjectFixture.assertProblemAt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One test per configuration error rule: the exact file, line and a fragment of the message. */
class ProjectCompilerErrorsTest {
    @TempDir
    Path dir;
    ProjectFixture p;

    @BeforeEach
    void minimalProject() {
        p = ProjectFixture.withSqliteDb(dir);
    }

    private Path tool(String folder, String... lines) {
        return p.tool(folder, lines);
    }

    private Path root(String... lines) {
        return p.write(".hyperterse", String.join("\n", lines) + "\n");
    }

    // ---- tool files are strict ----

    @Test
    void unknownToolKeyWithSuggestion() {
        Path f = tool("t", "use: db", "statment: SELECT 1");
        ProjectException e = p.fails();
        assertProblem(e, f, 2, "unknown key 'statment'", "did you mean 'statement'?");
        assertProblem(e, f, 1, "missing required key 'statement'");
    }

    @Test
    void unknownNestedKeysInInputsMappersAuthCache() {
        Path f = tool("t", "use: db", "statement: SELECT {{ inputs.a }}",
                "inputs:", "  a:", "    type: int", "    optinal: true",
                "mappers:", "  inptu: ./x.ts",
                "auth:", "  plugin: api_key", "  polcy: {}",
                "cache:", "  ttl: 5", "  enable: true");
        ProjectException e = p.fails();
        assertProblemAt(e, f, "optinal", "unknown key 'inputs.a.optinal'", "did you mean 'optional'?");
        assertProblemAt(e, f, "inptu", "unknown key 'mappers.inptu'", "did you mean 'input'?");
        assertProblemAt(e, f, "polcy", "unknown key 'auth.polcy'", "did you mean 'policy'?");
        assertProblemAt(e, f, "enable:", "unknown key 'cache.enable'", "did you mean 'enabled'?");
        assertEquals(4, e.problems().size(), e.getMessage());
    }

    @Test
    void unknownAdapterKeyWithSuggestion() {
        Path f = p.write("app/adapters/db.terse", "connector: sqlite\nconection_string: x\n");
        ProjectException e = p.fails();
        assertProblem(e, f, 2, "unknown key 'conection_string'", "did you mean 'connection_string'?");
        assertProblem(e, f, 1, "missing required key 'connection_string'");
    }

    // ---- names ----

    @Test
    void duplicateToolNamesNameBothFiles() {
        Path first = p.handlerTool("a", "name: same");
        Path second = p.handlerTool("b", "description: x\nname: same");
        ProjectException e = p.fails();
        ConfigProblem problem = assertProblem(e, second, 2, "duplicate tool name 'same'");
        assertTrue(problem.message().contains(first.toString()) && problem.message().contains(second.toString()),
                problem.message());
    }

    @Test
    void duplicateDerivedToolNames() {
        p.handlerTool("Users/Get", "description: one");
        Path second = p.handlerTool("users/get", "description: two"); // sorts after "Users/Get"
        ProjectException e = p.fails();
        assertProblem(e, second, 0, "duplicate tool name 'users-get'");
    }

    @Test
    void duplicateAdapterNamesNameBothFiles() {
        Path first = p.file("app/adapters/db.terse");
        Path second = p.write("app/adapters/more/other.terse", "name: db\nconnector: redis\nconnection_string: x\n");
        ProjectException e = p.fails();
        ConfigProblem problem = assertProblem(e, second, 1, "duplicate adapter name 'db'");
        assertTrue(problem.message().contains(first.toString()) && problem.message().contains(second.toString()),
                problem.message());
    }

    @Test
    void toolNameCharset() {
        Path f = p.handlerTool("t", "name: 'bad name!'");
        Path g = p.handlerTool("u", "name: -starts-with-dash");
        Path h = p.handlerTool("v", "name: " + "x".repeat(129));
        ProjectException e = p.fails();
        assertProblem(e, f, 1, "tool name 'bad name!' is invalid");
        assertProblem(e, g, 1, "tool name '-starts-with-dash' is invalid");
        assertProblem(e, h, 1, "is invalid", "1 to 128");
    }

    @Test
    void inputNameCharset() {
        Path f = p.handlerTool("t", "inputs:\n  ok_name-1:\n    type: int\n  1st:\n    type: int\n  'a b':\n    type: int");
        ProjectException e = p.fails();
        assertProblem(e, f, 4, "input name '1st'", "is invalid");
        assertProblem(e, f, 6, "input name 'a b'", "is invalid");
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    // ---- use / handler / statement ----

    @Test
    void useAndHandlerTogether() {
        p.write("app/tools/t/h.ts", "export default () => 1;\n");
        Path f = tool("t", "use: db", "statement: SELECT 1", "handler: ./h.ts");
        assertProblem(p.fails(), f, 3, "sets both 'use' and 'handler'");
    }

    @Test
    void neitherUseNorHandler() {
        Path f = tool("t", "description: nothing to run");
        assertProblem(p.fails(), f, 1, "tool 't' sets neither 'use'", "nor 'handler'");
    }

    @Test
    void useAsAList() {
        Path f = tool("t", "statement: SELECT 1", "use:", "  - db");
        ProjectException e = p.fails();
        assertProblem(e, f, 3, "'use' must be a string naming one adapter, got a list");
        assertEquals(1, e.problems().size(), e.getMessage());
    }

    @Test
    void unknownAdapterWithSuggestion() {
        Path f = tool("t", "use: dbb", "statement: SELECT 1");
        assertProblem(p.fails(), f, 1, "unknown adapter 'dbb'", "did you mean 'db'?", "known adapters: db");
    }

    /** The names a Hyperterse 1.x migration leaves: a file stem where the adapter keeps its 1.x name, or `_` for `-`. */
    @Test
    void unknownAdapterSuggestionsForRenamedAdapters() {
        p.write("app/adapters/main-db.terse", "name: main_db\nconnector: sqlite\nconnection_string: ':memory:'\n");
        p.write("app/adapters/my-main-db-v2.terse", "connector: sqlite\nconnection_string: ':memory:'\n");
        Path f = tool("by-file", "use: main-db", "statement: SELECT 1");
        Path g = tool("by-separators", "use: My_Main_Db_V2", "statement: SELECT 1");
        Path h = p.write("app/resources/r/config.terse", "uri_template: x://r/{id}\nuse: main-db\nstatement: SELECT 1\n");
        ProjectException e = p.fails();
        assertProblem(e, f, 1, "unknown adapter 'main-db' in 'use' (did you mean 'main_db'? ",
                "app/adapters/main-db.terse names its adapter 'main_db')", "known adapters: db, main_db, my-main-db-v2");
        assertProblem(e, g, 1, "unknown adapter 'My_Main_Db_V2' in 'use' (did you mean 'my-main-db-v2'?)");
        assertProblem(e, h, 2, "unknown adapter 'main-db' in 'use' (did you mean 'main_db'? ");
    }

    @Test
    void statementRequiredWithUseAndRefusedWithHandler() {
        Path f = tool("t", "use: db");
        Path g = p.handlerTool("h", "statement: SELECT 1");
        ProjectException e = p.fails();
        assertProblem(e, f, 1, "missing required key 'statement'");
        assertProblem(e, g, 1, "'statement' is not allowed on a handler tool");
    }

    @Test
    void missingScriptFilesAtTheLineNamingThem() {
        Path f = tool("t", "handler: ./nope.ts#run", "mappers:", "  input: missing.ts", "  output: ../x/out.ts");
        ProjectException e = p.fails();
        assertProblem(e, f, 1, "'handler' script './nope.ts' not found");
        assertProblem(e, f, 3, "'mappers.input' script 'missing.ts' not found", dir.resolve("missing.ts").toString());
        assertProblem(e, f, 4, "'mappers.output' script '../x/out.ts' not found");
        assertEquals(3, e.problems().size(), "an explicit but missing handler still counts as a handler: " + e.getMessage());
    }

    @Test
    void badExportName() {
        p.write("app/tools/t/h.ts", "export default 1;\n");
        Path f = tool("t", "handler: './h.ts#not-a-name'");
        assertProblem(p.fails(), f, 1, "the export after '#' must be a JavaScript name", "not-a-name");
    }

    @Test
    void invalidatesNamingAnUnknownTool() {
        p.handlerTool("a", "description: a");
        Path f = p.handlerTool("b", "invalidates:\n  - a\n  - c\n  - aa");
        ProjectException e = p.fails();
        assertProblem(e, f, 3, "'invalidates' of tool 'b' names unknown tool 'c'");
        assertProblem(e, f, 4, "unknown tool 'aa'", "did you mean 'a'?");
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    // ---- inputs ----

    @Test
    void badInputType() {
        Path f = p.handlerTool("t", "inputs:\n  a:\n    type: integer\n  b:\n    type: strng\n  c:\n    description: no type");
        ProjectException e = p.fails();
        assertProblem(e, f, 3, "'inputs.a.type' must be one of string, int, float, boolean, datetime", "\"integer\"");
        assertProblem(e, f, 5, "did you mean 'string'?");
        assertProblem(e, f, 6, "missing required key 'inputs.c.type'");
    }

    @Test
    void badDefaults() {
        Path f = p.handlerTool("t", String.join("\n", "inputs:",
                "  a:", "    type: int", "    default: abc",
                "  b:", "    type: int", "    default: 1.5",
                "  c:", "    type: boolean", "    default: maybe",
                "  d:", "    type: datetime", "    default: yesterday",
                "  e:", "    type: float", "    default: [1]"));
        ProjectException e = p.fails();
        assertProblem(e, f, 4, "default for input 'a': expected int, got \"abc\"");
        assertProblem(e, f, 7, "default for input 'b'", "fraction");
        assertProblem(e, f, 10, "default for input 'c': expected boolean");
        assertProblem(e, f, 13, "default for input 'd': expected datetime");
        assertProblem(e, f, 16, "default for input 'e' must be a single value, got a list");
    }

    @Test
    void typeErrorsNameTheKeyAndTheExpectedType() {
        Path f = p.handlerTool("t", "description: [1]\ninputs:\n  a:\n    type: int\n    optional: maybe\n    description: {x: 1}");
        Path g = p.handlerTool("u", "inputs: 5\nrow_limit: ten\ninvalidates: one\ncache: []");
        Path h = p.handlerTool("v", "inputs:\n  a: int\nmappers: ./x.ts\nauth: api_key");
        ProjectException e = p.fails();
        assertProblem(e, f, 1, "'description' must be a string, got a list");
        assertProblem(e, f, 5, "'inputs.a.optional' must be true or false, got \"maybe\"");
        assertProblem(e, f, 6, "'inputs.a.description' must be a string, got a mapping");
        assertProblem(e, g, 1, "'inputs' must be a mapping of keys, got 5");
        assertProblem(e, g, 2, "'row_limit' must be a positive integer, got \"ten\"");
        assertProblem(e, g, 3, "'invalidates' must be a list of tool names, got \"one\"");
        assertProblem(e, g, 4, "'cache' must be a mapping of keys, got a list");
        assertProblem(e, h, 2, "'inputs.a' must be a mapping with at least 'type', got \"int\"");
        assertProblem(e, h, 3, "'mappers' must be a mapping of keys");
        assertProblem(e, h, 4, "'auth' must be a mapping of keys");
    }

    @Test
    void topOfAToolFileMustBeAMapping() {
        Path f = tool("t", "- just", "- a list");
        assertProblem(p.fails(), f, 1, "expected a mapping of keys at the top of the file, got a list");
    }

    // ---- statements ----

    @Test
    void undeclaredInputPlaceholderWithSuggestion() {
        Path f = tool("t", "use: db", "statement: SELECT {{ inputs.user_di }}", "inputs:", "  user_id:", "    type: int");
        assertProblem(p.fails(), f, 2, "uses {{ inputs.user_di }}", "declares no input 'user_di'",
                "did you mean 'user_id'?");
    }

    @Test
    void malformedPlaceholders() {
        Path f = tool("t", "use: db", "statement: |", "  SELECT {{ input.x }}, {{ inputs.}}, {{ env }}");
        ProjectException e = p.fails();
        assertProblem(e, f, 3, "malformed placeholder '{{ input.x }}'");
        assertProblem(e, f, 3, "malformed placeholder '{{ inputs.}}'");
        assertProblem(e, f, 3, "malformed placeholder '{{ env }}'");
    }

    @Test
    void placeholdersNeverClosedAreMalformed() {
        // both reached the database as text, and validate said the project was valid
        Path f = tool("t", "use: db", "statement: |", "  SELECT {{ inputs.a }", "  FROM t WHERE b = {{ inputs.b",
                "inputs:", "  a: {type: int}", "  b: {type: int}");
        ProjectException e = p.fails();
        assertProblem(e, f, 3, "malformed placeholder '{{ inputs.a }'");
        assertProblem(e, f, 4, "malformed placeholder '{{ inputs.b'");
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    /**
     * A placeholder's problem is at its own line of a statement of many lines (it was at the
     * block's first line), in a literal block, a folded one and a quoted value alike; the same
     * placeholder text twice is reported once, at its first use.
     */
    @Test
    void aPlaceholderProblemIsAtItsOwnLine() {
        Path literal = tool("a", "use: db", "statement: |", "  SELECT id,", "         name", "  FROM t",
                "  WHERE id = {{ inputs.id }}", "    AND name = {{ inputs.nmae }}", "    AND x = {{ inputs.nmae }}",
                "    AND y = {{ auth.claims.sub }}", "    AND z = {{ inputs.x }", "inputs:", "  id: {type: int}",
                "  name: {type: string}");
        Path folded = tool("b", "use: db", "statement: >", "  SELECT id", "  FROM t", "  WHERE id = {{ inputs.ids }}",
                "inputs:", "  id: {type: int}");
        Path quoted = tool("c", "use: db", "statement: \"SELECT id", "  FROM t", "  WHERE id = {{ inputs.ids }}\"",
                "inputs:", "  id: {type: int}");
        ProjectException e = p.fails();
        assertProblem(e, literal, 7, "declares no input 'nmae'", "did you mean 'name'?");
        assertProblem(e, literal, 9, "{{ auth.claims.sub }}");
        assertProblem(e, literal, 10, "malformed placeholder '{{ inputs.x }'");
        assertProblem(e, folded, 5, "declares no input 'ids'");
        assertProblem(e, quoted, 4, "declares no input 'ids'");
        assertEquals(1, e.problems().stream().filter(x -> x.message().contains("'nmae'")).count(), e.getMessage());
    }

    @Test
    void aTwoDimensionalArrayLiteralIsNoPlaceholder() throws ProjectException {
        // PostgreSQL's '{{1,2},{3,4}}' was refused as a malformed placeholder; the statement
        // template (and Hyperterse) pass it through
        tool("t", "use: db", "statement: SELECT '{{1,2},{3,4}}' AS a, {{ inputs.x }} AS x", "inputs:",
                "  x: {type: int}");
        assertEquals(1, p.compile().tools().size());
    }

    @Test
    void aToolNamedLikeAMetaToolIsWarnedAboutWhenBothAreListed() throws ProjectException {
        // with exposure both, tools/list hid it and tools/call 'search' reached the meta-tool, silently
        root("name: x", "tools:", "  exposure: both");
        Path f = tool("s", "name: search", "use: db", "statement: SELECT 1");
        tool("e", "name: execute", "use: db", "statement: SELECT 1");
        p.compile();
        assertProblem(p.warnings, f, 1, "tool 'search' has a meta-tool's name", "only through execute");
        assertEquals(2, p.warnings.size(), p.warnings.toString());
        root("name: x", "tools:", "  exposure: direct");
        p.compile();
        assertTrue(p.warnings.isEmpty(), p.warnings.toString());
    }

    @Test
    void claimsNeedAClaimsPlugin() {
        Path f = tool("t", "use: db", "statement: SELECT {{ auth.claims.sub }}", "auth:", "  plugin: api_key");
        Path g = tool("u", "use: db", "statement: SELECT {{ auth.claims.sub }}");
        tool("v", "use: db", "statement: SELECT {{ auth.claims.sub }}", "auth:", "  plugin: JWT");
        tool("w", "use: db", "statement: SELECT {{ auth.claims.sub }}", "auth:", "  plugin: script",
                "  policy: {path: ./auth.js}");
        p.write("app/tools/w/auth.js", "export default () => ({ subject: 'x' });\n");
        ProjectException e = p.fails();
        assertProblem(e, f, 2, "{{ auth.claims.sub }}", "needs an auth plugin that provides claims", "uses 'api_key'");
        assertProblem(e, g, 2, "needs an auth plugin that provides claims", "has no auth plugin");
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    @Test
    void claimsAllowedThroughTheRootDefaultAuth() throws Exception {
        root("name: x", "auth:", "  plugin: jwt", "  policy:", "    issuer: me");
        tool("t", "use: db", "statement: SELECT {{ auth.claims.sub }}");
        assertEquals("jwt", p.compile().tools().get("t").auth().plugin());
    }

    // ---- environment ----

    @Test
    void missingEnvInConnectionStringAndOptions() {
        Path f = p.write("app/adapters/db.terse",
                "connector: postgres\nconnection_string: '{{ env.DB_URL }}'\noptions:\n  password: '{{ env.DB_PASS }}'\n");
        ProjectException e = p.fails();
        assertProblem(e, f, 2, "adapter 'db'", "environment variable 'DB_URL' is not set", "connection_string");
        assertProblem(e, f, 4, "adapter 'db'", "environment variable 'DB_PASS' is not set", "options.password");
    }

    @Test
    void missingEnvInPolicyStatementAndPort() {
        Path r = root("name: x", "server:", "  port: '{{ env.MY_PORT }}'", "auth:", "  plugin: api_key",
                "  policy:", "    value: '{{ env.ROOT_KEY }}'");
        Path f = tool("t", "use: db", "statement: SELECT * FROM {{ env.SCHEMA }}.t", "auth:", "  plugin: api_key",
                "  policy:", "    value: '{{ env.TOOL_KEY }}'", "    list: ['{{ env.IN_LIST }}']");
        ProjectException e = p.fails();
        assertProblem(e, r, 3, "server.port: environment variable 'MY_PORT' is not set");
        assertProblem(e, r, 7, "the root auth block", "environment variable 'ROOT_KEY' is not set", "auth.policy.value");
        assertProblem(e, f, 2, "tool 't'", "environment variable 'SCHEMA' is not set", "statement");
        assertProblem(e, f, 6, "tool 't'", "environment variable 'TOOL_KEY' is not set");
        assertProblem(e, f, 7, "environment variable 'IN_LIST' is not set");
        assertEquals(5, e.problems().size(), e.getMessage());
    }

    @Test
    void envFileSatisfiesPlaceholdersAndRealEnvironmentWins() throws Exception {
        p.write(".env", "DB_URL=file-url\nSCHEMA=s\n");
        p.write(".env.development", "DB_URL=dev-url\nSCHEMA=dev\n");
        p.write("app/adapters/db.terse", "connector: postgres\nconnection_string: '{{ env.DB_URL }}'\n");
        tool("t", "use: db", "statement: SELECT * FROM {{ env.SCHEMA }}.t");
        assertEquals("dev-url", p.compile().adapters().get("db").connectionString(), ".env.development before .env");
        assertEquals("real-url", p.compile(Map.of("DB_URL", "real-url")).adapters().get("db").connectionString());
    }

    @Test
    void malformedEnvFileLine() {
        Path env = p.write(".env", "GOOD=1\nthis line has no equals\n");
        assertProblem(p.fails(), env, 2, "expected KEY=VALUE");
    }

    // ---- connectors and auth plugins ----

    @Test
    void unknownConnectorListsTheKnownOnes() {
        Path f = p.write("app/adapters/db.terse", "connector: postgress\nconnection_string: x\n");
        assertProblem(p.fails(), f, 1, "unknown connector 'postgress' in adapter 'db'", "did you mean 'postgres'?",
                "known connectors: mysql, postgres, redis, sqlite");
    }

    @Test
    void missingConnectorAndBadOptions() {
        Path f = p.write("app/adapters/db.terse", "connection_string: x\noptions:\n  nested: {a: 1}\n  row_limit: 0\n"
                + "  statement_timeout: soon\n  empty:\n");
        ProjectException e = p.fails();
        assertProblem(e, f, 1, "missing required key 'connector'", "sqlite");
        assertProblem(e, f, 3, "'options.nested' must be a string, number or boolean, got a mapping");
        assertProblem(e, f, 4, "'options.row_limit' must be a positive integer");
        assertProblem(e, f, 5, "'options.statement_timeout' must be a duration");
        assertProblem(e, f, 6, "'options.empty' must be a string, number or boolean, got nothing");
    }

    @Test
    void unknownAuthPluginInToolAndRoot() {
        Path r = root("name: x", "auth:", "  plugin: apikey");
        Path f = p.handlerTool("t", "auth:\n  plugin: oauth\n  policy: {a: {b: 1}}");
        Path g = p.handlerTool("u", "auth:\n  policy: {}");
        ProjectException e = p.fails();
        assertProblem(e, r, 3, "unknown auth plugin 'apikey'", "did you mean 'api_key'?",
                "known plugins: allow_all, api_key, jwt, script");
        assertProblem(e, f, 2, "unknown auth plugin 'oauth'");
        assertProblem(e, f, 3, "'auth.policy.a' must be a value or a list of values, got a mapping");
        assertProblem(e, g, 1, "missing required key 'auth.plugin'");
    }

    @Test
    void scriptAuthPolicyProblems() {
        Path r = root("name: x", "auth:", "  plugin: script");
        Path f = tool("t", "use: db", "statement: SELECT 1", "auth:", "  plugin: script", "  policy:",
                "    path: ./missing.ts");
        Path g = tool("u", "use: db", "statement: SELECT 1", "auth:", "  plugin: Script", "  policy:",
                "    path: ./gate.js#not-a-name", "    env: [NOT_SET_ANYWHERE]", "    extra: 1");
        Path h = tool("v", "use: db", "statement: SELECT 1", "auth:", "  plugin: script", "  policy:",
                "    env: [HOME_DIR]");
        p.write("app/tools/u/gate.js", "export default () => true;\n");
        ProjectException e = p.fails(Map.of("HOME_DIR", "/home"));
        assertProblem(e, r, 3, "the root auth block: the script auth plugin needs 'policy: {path: ./auth.ts}'");
        assertProblem(e, f, 6, "'auth.policy.path' script './missing.ts' not found", "app/tools/t/missing.ts");
        assertProblem(e, g, 6, "'auth.policy.path' './gate.js#not-a-name': the export after '#' must be a JavaScript name");
        assertProblem(e, g, 7, "tool 'u': environment variable 'NOT_SET_ANYWHERE' is not set (listed in 'policy.env')");
        assertProblem(e, g, 8, "unknown key 'auth.policy.extra'", "allowed keys: path, env");
        assertProblem(e, h, 5, "missing required key 'auth.policy.path'", "./auth.ts");
        assertEquals(6, e.problems().size(), e.getMessage());
    }

    @Test
    void scriptAuthResolvesItsPathLikeAHandler() throws Exception {
        root("name: x", "auth:", "  plugin: script", "  policy:", "    path: gate.ts#check", "    env: [TENANT_KEY]");
        p.write("gate.ts", "export const check = () => true;\n");
        tool("t", "use: db", "statement: SELECT {{ auth.claims.tenant }}");
        var auth = p.compile(Map.of("TENANT_KEY", "k")).tools().get("t").auth();
        assertEquals("script", auth.plugin());
        assertEquals("gate.ts", auth.script().file().getFileName().toString());
        assertEquals("check", auth.script().exportName());
        assertEquals(List.of("TENANT_KEY"), auth.scriptEnv());
    }

    // ---- root config ----

    @Test
    void missingProjectName() {
        Path r = root("version: 1");
        assertProblem(p.fails(), r, 1, "missing required key 'name'");
    }

    @Test
    void emptyRootFileIsMissingItsName() {
        Path r = root("");
        assertProblem(p.fails(), r, 1, "missing required key 'name'");
    }

    @Test
    void badSearchLimit() {
        Path r = root("name: x", "tools:", "  search:", "    limit: 0");
        assertProblem(p.fails(), r, 4, "'tools.search.limit' must be a positive integer, got 0");
        root("name: x", "tools:", "  search:", "    limit: ten");
        assertProblem(p.fails(), r, 4, "'tools.search.limit' must be a positive integer, got \"ten\"");
    }

    @Test
    void envNamesVariablesThatAreSetForToolsWithScripts() {
        Path f = p.handlerTool("h", "env:\n  - API_KEY\n  - MISSING\n  - 'not a name'\n  - [x]\n");
        Path g = tool("d", "use: db", "statement: SELECT 1", "env: [API_KEY]");
        p.write("app/adapters/db.terse", "connector: sqlite\nconnection_string: 'sqlite:x.db'\n");
        ProjectException e = p.fails(Map.of("API_KEY", "k"));
        assertProblem(e, f, 3, "tool 'h': environment variable 'MISSING' is not set (listed in 'env')");
        assertProblem(e, f, 4, "'env' must be a list of environment variable names", "\"not a name\"");
        assertProblem(e, f, 5, "'env' must be a list of environment variable names");
        assertProblem(e, g, 3, "'env' passes environment variables to scripts, but tool 'd' has no handler or mapper");
        Path h = p.handlerTool("h", "env: API_KEY\n");
        assertProblem(p.fails(Map.of("API_KEY", "k")), h, 1, "'env' must be a list of environment variable names");
    }

    @Test
    void scriptWorkersMustBeAThreadCount() {
        Path r = root("name: x", "tools:", "  script_workers: 0");
        assertProblem(p.fails(), r, 3, "'tools.script_workers' must be a number of threads from 1 to 256, got 0");
        r = root("name: x", "tools:", "  script_workers: many");
        assertProblem(p.fails(), r, 3, "'tools.script_workers' must be a number of threads from 1 to 256",
                "\"many\"");
        r = root("name: x", "tools:", "  script_workers: 1000");
        assertProblem(p.fails(), r, 3, "'tools.script_workers' must be a number of threads from 1 to 256, got 1000");
    }

    @Test
    void fetchAllowHostsMustBeHosts() {
        Path r = root("name: x", "tools:", "  fetch:", "    allow_hosts: ['https://api.example.com/v1']");
        assertProblem(p.fails(), r, 4, "'tools.fetch.allow_hosts': 'https://api.example.com/v1' is not a host");
        r = root("name: x", "tools:", "  fetch:", "    allow_hosts: ['api.*.com']");
        assertProblem(p.fails(), r, 4, "'tools.fetch.allow_hosts': 'api.*.com': a '*' may only start an entry");
        r = root("name: x", "tools:", "  fetch:", "    allow_hosts: ['api.example.com:99999']");
        assertProblem(p.fails(), r, 4, "has no valid port (1 to 65535)");
    }

    @Test
    void durationsLongerThanAYearAreErrorsNotOverflows() {
        // start failed with 'long overflow' (validate said the project was valid)
        Path r = root("name: x",
                "tools:",
                "  script_timeout: 100000000000000000h",
                "  statement_timeout: 1.0e+30",
                "server:",
                "  shutdown_timeout: .inf",
                "  sessions:",
                "    idle_timeout: 8760h");
        Path f = p.handlerTool("t", "timeout: 8761h");
        ProjectException e = p.fails();
        assertProblem(e, r, 3, "'tools.script_timeout' must be a duration greater than zero", "at most 8760h",
                "got \"100000000000000000h\"");
        assertProblem(e, r, 4, "'tools.statement_timeout' must be a duration", "at most 8760h");
        assertProblem(e, r, 6, "'server.shutdown_timeout' must be a duration", "at most 8760h");
        assertProblem(e, f, 1, "'timeout' must be a duration", "at most 8760h", "got \"8761h\"");
        assertEquals(4, e.problems().size(), e.getMessage());
    }

    @Test
    void badDurationsAndSizes() {
        Path r = root("name: x",
                "tools:",
                "  statement_timeout: soon",
                "  script_timeout: 0",
                "  row_limit: -5",
                "  cache:",
                "    ttl: -1",
                "    enabled: sometimes",
                "server:",
                "  max_body_size: lots",
                "  sessions:",
                "    idle_timeout: -1",
                "    max: 0",
                "  log_level: 5",
                "  tool_errors: loud",
                "  port: 70000",
                "  cors_origins: '*'",
                "  allowed_hosts: [[a]]",
                "  page_size: 0",
                "  progress_interval: never",
                "  search_output_schema: maybe");
        Path f = p.handlerTool("t", "timeout: 0\nrow_limit: 0");
        Path g = p.handlerTool("u", "timeout: 5 minutes\nresult_max_bytes: 0");
        ProjectException e = p.fails();
        assertProblem(e, r, 3, "'tools.statement_timeout' must be a duration greater than zero", "\"soon\"");
        assertProblem(e, r, 4, "'tools.script_timeout' must be a duration greater than zero", "got 0");
        assertProblem(e, r, 5, "'tools.row_limit' must be a positive integer, got -5");
        assertProblem(e, r, 7, "'tools.cache.ttl' must be a number of seconds");
        assertProblem(e, r, 8, "'tools.cache.enabled' must be true or false");
        assertProblem(e, r, 10, "'server.max_body_size' must be a size greater than zero", "\"lots\"");
        assertProblem(e, r, 12, "'server.sessions.idle_timeout' must be a duration");
        assertProblem(e, r, 13, "'server.sessions.max' must be a positive integer");
        assertProblem(e, r, 14, "'server.log_level' must be an integer from 1", "got 5");
        assertProblem(e, r, 15, "'server.tool_errors' must be 'result' or 'rpc' ('protocol' is read as 'rpc'), got \"loud\"");
        assertProblem(e, r, 16, "'server.port' must be a port number from 0 to 65535", "70000");
        assertProblem(e, r, 17, "'server.cors_origins' must be a list of strings, got \"*\"");
        assertProblem(e, r, 18, "'server.allowed_hosts' must be a list of strings, but an item is a list");
        assertProblem(e, r, 19, "'server.page_size' must be a positive integer, got 0");
        assertProblem(e, r, 20, "'server.progress_interval' must be a duration greater than zero", "\"never\"");
        assertProblem(e, r, 21, "'server.search_output_schema' must be true or false, got \"maybe\"");
        assertProblem(e, f, 1, "'timeout' must be a duration greater than zero");
        assertProblem(e, f, 2, "'row_limit' must be a positive integer, got 0");
        assertProblem(e, g, 1, "'timeout' must be a duration", "\"5 minutes\"");
        assertProblem(e, g, 2, "'result_max_bytes' must be a size greater than zero in bytes", "got 0");
        assertEquals(20, e.problems().size(), e.getMessage());
    }

    @Test
    void portFromEnvMustBeANumber() {
        Path r = root("name: x", "server:", "  port: '{{ env.P }}'");
        assertProblem(p.fails(Map.of("P", "eighty")), r, 3, "'server.port' must be a port number", "\"eighty\"");
    }

    @Test
    void sizesWithUnits() throws Exception {
        p.handlerTool("h", "description: h\n");
        root("name: x", "server:", "  max_body_size: 512KB", "  port: 8081");
        assertEquals(512 * 1024, p.compile().config().server().limits().maxBodyBytes());
        assertEquals(8081, p.compile().config().server().network().port());
        root("name: x", "server:", "  max_body_size: 1000");
        assertEquals(1000, p.compile().config().server().limits().maxBodyBytes());
        assertNull(p.compile().config().server().network().port(), "no port unless set");
    }

    @Test
    void searchRankingIsSemanticWhereTheServerHasItsAddOnElseStaticUnlessAnotherIsChosen() throws Exception {
        p.handlerTool("h", "description: h\n");
        // the test class path holds the add-on's parts; without them (a jar copied alone) the default is
        // static and semantic is refused, naming the file and folder (PackagedJarIT)
        assertTrue(dev.hyperterse.search.TextEmbedder.bundled().isPresent());
        root("name: x");
        assertEquals(SearchRanking.SEMANTIC, p.compile().config().searchRanking());
        assertFalse(p.compile().config().tools().search().rankingWritten());
        root("name: x", "tools:", "  search:", "    ranking: static");
        assertEquals(SearchRanking.STATIC, p.compile().config().searchRanking());
        assertTrue(p.compile().config().tools().search().rankingWritten());
        root("name: x", "tools:", "  search:", "    ranking: Hyperterse");
        assertEquals(SearchRanking.HYPERTERSE, p.compile().config().searchRanking());
        root("name: x", "tools:", "  search:", "    ranking: hybrid");
        assertEquals(SearchRanking.HYBRID, p.compile().config().searchRanking());
        Path r = root("name: x", "tools:", "  search:", "    ranking: meaning");
        assertProblem(p.fails(), r, 4,
                "'tools.search.ranking' must be 'static', 'hybrid', 'hyperterse' or 'semantic', got \"meaning\"");
        root("name: x", "tools:", "  search:", "    ranking: semantic");
        assertEquals(SearchRanking.SEMANTIC, p.compile().config().searchRanking());
    }

    /**
     * Hyperterse's build settings (out, its alias out_dir, clean_dir) are right for Hyperterse and
     * unused here: an info note at their line, never an unknown-key warning; a misspelt one still warns.
     */
    @Test
    void hyperterseBuildSettingsAreNotedNotWarnedAbout() throws Exception {
        p.handlerTool("h", "description: h\n");
        Path r = root("name: x", "build:", "  out: dist", "  out_dir: dist", "  clean_dir: true", "  clean_dri: true");
        try (dev.hyperterse.testing.LogCapture log = dev.hyperterse.testing.LogCapture.of(ProjectCompiler.class)
                .atLevel(ch.qos.logback.classic.Level.INFO)) {
            p.compile();
            assertEquals(1, p.warnings.size(), p.warnings.toString());
            assertProblem(p.warnings, r, 6, "unknown key 'build.clean_dri' is ignored", "did you mean 'clean_dir'?");
            List<String> notes = log.events().stream()
                    .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.INFO)
                    .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
            for (int line = 3; line <= 5; line++) {
                String at = r + ":" + line + ": 'build.";
                assertTrue(notes.stream().anyMatch(n -> n.startsWith(at) && n.contains("is a Hyperterse build setting")
                        && n.contains("so it is not used")), at + " in " + notes);
            }
        }
    }

    @Test
    void searchStatementsAreShownUnlessTurnedOff() throws Exception {
        p.handlerTool("h", "description: h\n");
        root("name: x");
        assertTrue(p.compile().config().tools().search().statements(), "shown by default");
        root("name: x", "tools:", "  search:", "    statements: false");
        assertFalse(p.compile().config().tools().search().statements());
        Path r = root("name: x", "tools:", "  search:", "    statements: sometimes");
        assertProblem(p.fails(), r, 4, "'tools.search.statements'");
    }

    @Test
    void unknownNestedRootKeysAreWarnings() throws Exception {
        p.handlerTool("h", "description: h\n");
        Path r = root("name: x", "server:", "  hots: 0.0.0.0", "tools:", "  serch: {}", "  search:", "    limt: 3");
        p.compile();
        assertProblem(p.warnings, r, 3, "unknown key 'server.hots' is ignored", "did you mean 'host'?");
        assertProblem(p.warnings, r, 5, "unknown key 'tools.serch' is ignored", "did you mean 'search'?");
        assertProblem(p.warnings, r, 7, "unknown key 'tools.search.limt' is ignored", "did you mean 'limit'?");
    }

    @Test
    void yamlSyntaxErrorHasLineColumnAndReason() {
        Path f = tool("t", "use: db", "statement: SELECT 1", "inputs:", "  a: [1, 2", "  b: 3");
        ConfigProblem problem = p.fails().problems().get(0);
        assertTrue(ProjectFixture.samePath(problem.location().file(), f));
        assertTrue(problem.message().startsWith("YAML syntax error at line " + problem.location().line() + ", column "),
                problem.message());
        assertTrue(problem.location().line() >= 4, problem.toString());
    }

    @Test
    void yamlSyntaxErrorInTheRootStopsEarly() {
        Path r = root("name: x", "server: a: b");
        p.write("app/tools/t/config.terse", "nonsense: true\n");
        ProjectException e = p.fails();
        assertProblem(e, r, 2, "YAML syntax error at line 2, column", "mapping values are not allowed");
        assertEquals(1, e.problems().size(), "tools are not read without a root config: " + e.getMessage());
    }

    @Test
    void duplicateYamlKey() {
        Path f = tool("t", "use: db", "statement: SELECT 1", "use: db");
        assertProblem(p.fails(), f, 3, "duplicate key 'use' (first at line 1)");
    }

    @Test
    void aToolsFolderTheProjectNamesMustExist() {
        Path r = root("name: x", "tools:", "  directory: functions");
        assertProblem(p.fails(), r, 3, "tools folder", "functions", "does not exist");
        Path r2 = root("name: x", "root: src");
        ProjectException e = p.fails();
        assertProblem(e, r2, 2, "root folder", "src", "does not exist");
        assertEquals(1, e.problems().size(), "a missing root is not also a project that defines nothing: " + e);
    }

    @Test
    void aToolsFolderThatIsAFileIsNamedSo() {
        // said 'does not exist' of a file that does
        Path r = root("name: x", "tools:", "  directory: functions");
        p.write("app/functions", "not a folder\n");
        assertProblem(p.fails(), r, 3, "tools folder", "functions", "is a file, not a folder");
    }

    /** As Hyperterse 2.3+ refuses it: a project must define a tool, a prompt or a resource. */
    @Test
    void aProjectThatDefinesNothingIsAnError() throws Exception {
        ProjectException e = p.fails();
        assertProblem(e, p.file(".hyperterse"), 0, "the project defines no tools, prompts or resources",
                "nothing to serve", "app/tools/<tool>/config.terse", "app/prompts/<prompt>.terse",
                "app/resources/<resource>/config.terse");
        assertEquals(1, e.problems().size(), e.getMessage());
        java.nio.file.Files.delete(p.file("app/tools"));
        assertProblem(p.fails(), p.file(".hyperterse"), 0, "the project defines no tools, prompts or resources");
    }

    /** A tool file that does not parse still counts as a definition: its own error is the one to fix. */
    @Test
    void anUnreadableToolFileIsNotAlsoAProjectThatDefinesNothing() {
        Path f = tool("t", "use: [db");
        ProjectException e = p.fails();
        assertProblem(e, f, 2, "YAML syntax error");
        assertEquals(1, e.problems().size(), e.getMessage());
    }

    @Test
    void missingRootFile(@TempDir Path empty) {
        ProjectException e = org.junit.jupiter.api.Assertions.assertThrows(ProjectException.class,
                () -> ProjectFixture.compiler(Map.of()).compile(empty));
        assertProblem(e, empty.resolve(".hyperterse"), 0, "no .hyperterse file");
        e = org.junit.jupiter.api.Assertions.assertThrows(ProjectException.class,
                () -> ProjectFixture.compiler(Map.of()).compile(empty.resolve("nowhere")));
        assertProblem(e, empty.resolve("nowhere"), 0, "no such project folder or file");
    }

    @Test
    void invalidUtf8() {
        Path f = tool("t", "description: x");
        try {
            java.nio.file.Files.write(f, new byte[] {'a', ':', ' ', (byte) 0xC3, (byte) 0x28, '\n'});
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        assertProblem(p.fails(), f, 0, "not valid UTF-8");
    }

    @Test
    void emptyScriptPathCountsAsUnset() throws Exception {
        p.handlerTool("t", "handler: ''\nmappers:\n  input: ''");
        assertEquals(dir.resolve("app/tools/t/handler.ts").toAbsolutePath().normalize(),
                p.compile().tools().get("t").handler().file(), "convention discovery fills an empty handler");
    }

    @Test
    void blankScriptPathIsAnError() {
        Path f = tool("t", "handler: '  '");
        assertProblem(p.fails(), f, 1, "'handler' '  ' names no file");
    }

    @Test
    void rootFileMustBeAMapping() {
        Path r = root("just some text");
        assertProblem(p.fails(), r, 1, "expected a mapping of keys at the top of the file, got \"just some text\"");
    }

    @Test
    void pathsInMessagesAreRelativeToTheWorkingDirectoryWhenShorter() {
        tool("t", "use: nope", "statement: SELECT 1");
        ProjectException e = org.junit.jupiter.api.Assertions.assertThrows(ProjectException.class,
                () -> new ProjectCompiler(Map.of(), ProjectFixture.CONNECTORS, ProjectFixture.AUTH_PLUGINS, dir)
                        .compile(dir));
        assertEquals(Path.of("app/tools/t/config.terse"), e.problems().get(0).location().file());
        assertTrue(e.getMessage().contains("\n  app/tools/t/config.terse:1: unknown adapter 'nope'"), e.getMessage());
    }

    // ---- all at once ----

    @Test
    void manyErrorsInSeveralFilesAreReportedTogetherSorted() {
        Path r = root("name: x", "tools:", "  search:", "    limit: -1");
        Path adapter = p.write("app/adapters/db.terse", "connector: oracle\nconnection_string: x\n");
        Path a = tool("a", "use: nope", "statement: SELECT {{ inputs.q }}");
        Path b = tool("b", "handler: ./gone.ts", "descripton: typo");
        Path c = tool("c", "use: db", "statement: SELECT 1", "inputs:", "  q:", "    type: int", "    default: x");
        Path env = p.write(".env", "=novalue\n");
        ProjectException e = p.fails();
        assertProblem(e, r, 4, "'tools.search.limit'");
        assertProblem(e, adapter, 1, "unknown connector 'oracle'");
        assertProblem(e, a, 1, "unknown adapter 'nope'");
        assertProblem(e, a, 2, "declares no input 'q'");
        assertProblem(e, b, 1, "'handler' script './gone.ts' not found");
        assertProblem(e, b, 2, "unknown key 'descripton'");
        assertProblem(e, c, 6, "default for input 'q'");
        assertProblem(e, env, 1, "invalid variable name before '=': it is empty");
        assertEquals(8, e.problems().size(), e.getMessage());

        List<ConfigProblem> sorted = new ArrayList<>(e.problems());
        Collections.sort(sorted);
        assertEquals(sorted, e.problems(), "problems are sorted by file and line");
        assertTrue(e.getMessage().startsWith("8 configuration errors:"), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
    }
}
