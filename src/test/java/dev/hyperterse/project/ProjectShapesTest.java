package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.hyperterse.project.ProjectFixture.assertProblem;
import static dev.hyperterse.project.ProjectFixture.assertProblemAt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which project shapes compile: as in Hyperterse 2.3+, prompts or resources alone are a project
 * (no {@code app/tools} folder needed), nothing at all is not; a Hyperterse 1.x single-file config
 * is named as one, with the way to migrate.
 */
class ProjectShapesTest {
    /** Hyperterse 1.x's own sample config (its myconfig.terse), trimmed: adapters and queries inline. */
    static final String V1_CONFIG = String.join("\n",
            "name: my_sample_config",
            "",
            "server:",
            "  port: 8080",
            "",
            "export:",
            "  out: dist",
            "",
            "adapters:",
            "  my_pg:",
            "    connector: postgres",
            "    connection_string: \"postgresql://demo:demo@localhost:5432/demo\"",
            "",
            "queries:",
            "  get-user-by-id:",
            "    use: my_pg",
            "    description: \"Get a user by id\"",
            "    statement: |",
            "      SELECT * FROM users WHERE id = {{ inputs.userId }}",
            "    inputs:",
            "      userId:",
            "        type: int",
            "");

    @TempDir
    Path dir;

    private ProjectFixture bare() {
        ProjectFixture p = new ProjectFixture(dir);
        p.write(".hyperterse", ProjectFixture.MINIMAL_ROOT);
        return p;
    }

    @Test
    void promptsAloneAreAProjectWithoutAToolsFolder() throws Exception {
        ProjectFixture p = bare();
        p.write("app/prompts/greet.terse", "messages:\n  - role: user\n    text: Say hello.\n");
        Project project = p.compile();
        assertTrue(project.tools().isEmpty());
        assertEquals(1, project.prompts().size());
        assertTrue(p.warnings.isEmpty(), "a project without a tools folder is not warned about: " + p.warnings);
    }

    @Test
    void resourcesAloneAreAProjectWithoutAToolsFolder() throws Exception {
        ProjectFixture p = bare();
        p.write("app/resources/notes/config.terse", "uri: docs://notes\ntext: The notes.\n");
        Project project = p.compile();
        assertTrue(project.tools().isEmpty() && project.prompts().isEmpty());
        assertEquals(1, project.resources().size());
        assertTrue(p.warnings.isEmpty(), p.warnings.toString());
    }

    /** An empty tools folder beside prompts is allowed, and named: its files may have been meant as tools. */
    @Test
    void anEmptyToolsFolderBesidePromptsIsAWarning() throws Exception {
        ProjectFixture p = bare();
        p.mkdirs("app/tools/get-user");
        p.write("app/tools/get-user/config.yaml", "description: not found by that name\n");
        p.write("app/prompts/greet.terse", "messages:\n  - role: user\n    text: Say hello.\n");
        assertEquals(1, p.compile().prompts().size());
        assertProblem(p.warnings, p.file("app/tools"), 0, "no tools: no config.terse file below the tools folder");
    }

    @Test
    void nothingAtAllIsRefusedNamingWhereEachIsLookedFor() {
        ProjectFixture p = bare();
        p.write(".hyperterse", "name: x\nroot: src\nprompts:\n  directory: p\n");
        p.mkdirs("src");
        ProjectException e = p.fails();
        assertProblem(e, p.file(".hyperterse"), 0, "the project defines no tools, prompts or resources",
                "src/tools/<tool>/config.terse", "src/p/<prompt>.terse", "src/resources/<resource>/config.terse");
    }

    @Test
    void aToolsFolderTheProjectNamesMustStillExist() {
        ProjectFixture p = bare();
        p.write("app/prompts/greet.terse", "messages:\n  - role: user\n    text: Say hello.\n");
        Path root = p.write(".hyperterse", "name: x\ntools:\n  directory: functions\n");
        assertProblemAt(p.fails(), root, "directory: functions", "tools folder", "functions", "does not exist");
    }

    // ---- Hyperterse 1.x single-file configs ----

    @Test
    void aOneXConfigAsTheRootFileIsNamedWithTheMigrationSteps() {
        ProjectFixture p = bare();
        Path root = p.write(".hyperterse", V1_CONFIG);
        ProjectException e = p.fails();
        ConfigProblem problem = assertProblemAt(e, root, "adapters:", "Hyperterse 1.x single-file config",
                "'adapters' holding adapters by name and 'queries'", "app/adapters/<adapter>.terse",
                "app/tools/<tool>/config.terse", LegacyConfig.STEPS, LegacyConfig.GUIDE);
        assertEquals(1, e.problems().size(), "no flood of unknown keys after it: " + e.getMessage());
        assertTrue(p.warnings.isEmpty(), p.warnings.toString());
        assertTrue(problem.message().contains("does not read"), problem.message());
    }

    @Test
    void queriesAloneMarkAOneXConfigToo() {
        ProjectFixture p = bare();
        Path root = p.write(".hyperterse", "name: x\nqueries:\n  ping:\n    use: db\n    statement: SELECT 1\n");
        assertProblemAt(p.fails(), root, "queries:", "Hyperterse 1.x single-file config ('queries')");
    }

    /** The 2.x adapters block (a folder) is no 1.x marker. */
    @Test
    void theTwoXAdaptersBlockIsNotMistakenForOne() throws Exception {
        ProjectFixture p = ProjectFixture.withOneTool(dir);
        p.write(".hyperterse", "name: x\nadapters:\n  directory: adapters\n");
        p.compile();
    }

    /** 1.x ran a config.terse given with -f: a folder holding one but no .hyperterse is told what it is. */
    @Test
    void aOneXConfigTerseInAFolderWithoutHyperterse() throws Exception {
        Files.writeString(dir.resolve("config.terse"), V1_CONFIG);
        ProjectException e = assertThrows(ProjectException.class,
                () -> ProjectFixture.compiler(Map.of()).compile(dir));
        assertProblemAt(e, dir.resolve("config.terse"), "adapters:", "Hyperterse 1.x single-file config",
                "this folder has no .hyperterse file");
        assertEquals(1, e.problems().size(), e.getMessage());
        // given as the file itself, as 1.x's -f took it
        e = assertThrows(ProjectException.class,
                () -> ProjectFixture.compiler(Map.of()).compile(dir.resolve("config.terse")));
        assertProblemAt(e, dir.resolve("config.terse"), "adapters:", "Hyperterse 1.x single-file config");
    }

    /** Other .terse files in a folder without .hyperterse change nothing: the usual error. */
    @Test
    void aFolderWithoutHyperterseOrAOneXConfig() throws Exception {
        Files.writeString(dir.resolve("notes.terse"), "key: [unclosed\n");
        Files.writeString(dir.resolve("other.terse"), "name: x\n");
        ProjectException e = assertThrows(ProjectException.class,
                () -> ProjectFixture.compiler(Map.of()).compile(dir));
        assertProblem(e, dir.resolve(".hyperterse"), 0, "no .hyperterse file");
        assertEquals(1, e.problems().size(), e.getMessage());
    }
}
