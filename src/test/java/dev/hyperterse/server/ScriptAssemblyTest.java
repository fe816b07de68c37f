package dev.hyperterse.server;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.project.ConfigProblem;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.project.ProjectException;
import dev.hyperterse.script.ScriptEngine;
import dev.hyperterse.testing.ProjectFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scripts are loaded while a project is assembled: what stops one is a start-up error with its position. */
class ScriptAssemblyTest {
    static ScriptEngine engine;
    @TempDir
    Path dir;

    @BeforeAll
    static void engine() {
        engine = ScriptEngine.create();
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    private Path write(String relative, String... lines) throws IOException {
        return ProjectFiles.writeLines(dir, relative, lines);
    }

    private List<ConfigProblem> problems() throws Exception {
        Connectors connectors = Connectors.builtIn();
        AuthPlugins auth = AuthPlugins.builtIn();
        Project project = new ProjectCompiler(Map.of(), connectors.types(), auth.names()).compile(dir);
        ProjectException e = assertThrows(ProjectException.class,
                () -> ToolAssembly.of(project, connectors, auth, engine));
        return e.problems();
    }

    private static ConfigProblem only(List<ConfigProblem> problems) {
        assertEquals(1, problems.size(), problems::toString);
        return problems.get(0);
    }

    @Test
    void aTypeScriptSyntaxErrorNamesFileLineAndColumn() throws Exception {
        write(".hyperterse", "name: t");
        write("app/tools/broken/config.terse", "description: broken");
        Path handler = write("app/tools/broken/handler.ts",
                "const x: number = 1;",
                "export default function () {",
                "  return x +;",
                "}");
        ConfigProblem p = only(problems());
        assertEquals(handler, p.location().file());
        assertEquals(3, p.location().line());
        assertEquals(13, p.location().column());
        assertEquals(handler + ":3:13: tool 'broken': handler: SyntaxError: Expression expected", p.toString());
        assertTrue(p.message().endsWith(": SyntaxError: Expression expected"), p.message());
    }

    @Test
    void aJavaScriptSyntaxErrorInAnImportedFileNamesItsPosition() throws Exception {
        write(".hyperterse", "name: t");
        write("app/tools/t/config.terse", "handler: ./handler.js");
        write("app/tools/t/handler.js", "import { f } from './lib.js';", "export default () => f();");
        Path lib = write("app/tools/t/lib.js", "export function f() {", "  return {a: 1;", "}");
        ConfigProblem p = only(problems());
        assertEquals(lib, p.location().file());
        assertEquals(2, p.location().line());
        assertTrue(p.location().column() > 0, p.toString());
        assertTrue(p.message().startsWith("tool 't': handler (imported from "), p.message());
        assertTrue(p.message().contains("SyntaxError"), p.message());
    }

    @Test
    void aMissingExportIsReportedWhereTheToolNamesIt() throws Exception {
        write(".hyperterse", "name: t");
        Path config = write("app/tools/t/config.terse", "description: x", "handler: ./h.ts#run");
        write("app/tools/t/h.ts", "export function go() { return 1; }");
        ConfigProblem p = only(problems());
        assertEquals(config, p.location().file());
        assertEquals(2, p.location().line());
        assertTrue(p.message().endsWith("h.ts#run: has no export 'run' (it exports: go)"), p.message());
    }

    @Test
    void unresolvedImportsAndThrowingTopLevelCodeAreReported() throws Exception {
        write(".hyperterse", "name: t");
        write("app/tools/a/config.terse", "description: a");
        write("app/tools/a/handler.ts", "import { nope } from './missing.js';", "export default () => nope;");
        write("app/tools/b/config.terse", "description: b");
        write("app/tools/b/handler.ts", "throw new Error('no config');", "export default () => 1;");
        write("app/tools/c/config.terse", "description: c");
        write("app/tools/c/handler.ts", "import dayjs from 'dayjs';", "export default () => dayjs();");
        List<ConfigProblem> problems = problems();
        assertEquals(3, problems.size(), problems::toString);
        String all = problems.toString();
        assertTrue(all.contains("tool 'a': handler") && all.contains("missing.js"), all);
        assertTrue(all.contains("tool 'b': handler") && all.contains("Error: no config"), all);
        assertTrue(all.contains("tool 'c': handler") && all.contains("dayjs"), all);
    }

    @Test
    void mappersAreCheckedToo() throws Exception {
        write(".hyperterse", "name: t");
        write("app/adapters/db.terse", "connector: sqlite", "connection_string: 'sqlite:data/x.db'");
        write("app/tools/t/config.terse", "use: db", "statement: SELECT 1");
        write("app/tools/t/output.ts", "export default (p: {results: unknown[]) => p.results;");
        ConfigProblem p = only(problems());
        assertTrue(p.message().startsWith("tool 't': output mapper: SyntaxError"), p.message());
        assertEquals(1, p.location().line());
    }

    @Test
    void validScriptsAssemble() throws Exception {
        write(".hyperterse", "name: t");
        write("app/tools/t/config.terse", "description: fine");
        write("app/tools/t/handler.ts", "export default (p: { inputs: object }) => p.inputs;");
        Connectors connectors = Connectors.builtIn();
        AuthPlugins auth = AuthPlugins.builtIn();
        Project project = new ProjectCompiler(Map.of(), connectors.types(), auth.names()).compile(dir);
        ToolAssembly.of(project, connectors, auth, engine);
    }

    /** Checking a script runs its top-level code within the tool's time limit: endless code is a problem, not a hang. */
    @Test
    void endlessTopLevelCodeIsAProblemWithinTheToolsTimeLimit() throws Exception {
        write(".hyperterse", "name: t");
        write("app/tools/loops/config.terse", "handler: ./handler.js", "timeout: 1s");
        Path handler = write("app/tools/loops/handler.js", "while (true) {}", "export default () => 1;");
        long started = System.nanoTime();
        ConfigProblem p = only(org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                java.time.Duration.ofSeconds(20), this::problems, "checking the script did not finish"));
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(p.location().file().toString().endsWith("config.terse"), p.toString());
        assertEquals("tool 'loops': handler " + handler + ": its top-level code did not finish within 1s "
                + "(the script's time limit; the modules it imports included)", p.message());
        assertTrue(ms < 15_000, "took " + ms + " ms");
    }
}
