package dev.hyperterse.project;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tool's {@code examples:}: requests an agent might phrase, read in order, checked at their file and line. */
class ToolExamplesTest {
    private final Connectors connectors = Connectors.builtIn();
    private final ProjectCompiler compiler = new ProjectCompiler(Map.of(), connectors.types(),
            AuthPlugins.builtIn().names(), Path.of(""));

    private static Path project(Path dir, String tool) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/tools/late-invoices"));
        Files.writeString(dir.resolve("app/tools/late-invoices/config.terse"), tool);
        Files.writeString(dir.resolve("app/tools/late-invoices/handler.ts"), "export default () => [];\n");
        return dir;
    }

    @Test
    void examplesAreReadTrimmedAndOnceEach(@TempDir Path dir) throws Exception {
        project(dir, "description: Lists invoices past their due date\nexamples:\n  - which invoices are late\n"
                + "  - '  who still owes us money  '\n  - which invoices are late\n");
        Project project = compiler.compile(dir);
        assertEquals(List.of("which invoices are late", "who still owes us money"),
                project.tools().get("late-invoices").examples());
    }

    @Test
    void aToolWithoutExamplesHasNone(@TempDir Path dir) throws Exception {
        project(dir, "description: Lists invoices past their due date\n");
        assertEquals(List.of(), compiler.compile(dir).tools().get("late-invoices").examples());
    }

    @Test
    void anEmptyExampleOrOneThatIsNoTextIsAnErrorAtItsLine(@TempDir Path dir) throws Exception {
        project(dir, "description: Lists invoices past their due date\nexamples:\n  - which invoices are late\n"
                + "  - ''\n");
        ProjectException empty = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        assertEquals(1, empty.problems().size(), empty.getMessage());
        assertTrue(empty.problems().get(0).location().file().toString().endsWith("config.terse"), empty.getMessage());
        assertEquals(4, empty.problems().get(0).location().line(), "at the empty item: " + empty.getMessage());
        assertEquals("'examples' must not hold an empty example", empty.problems().get(0).message(),
                empty.getMessage());

        project(dir, "description: Lists invoices past their due date\nexamples:\n  - which invoices are late\n"
                + "  - {ask: who owes us}\n");
        ProjectException notText = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        assertEquals(4, notText.problems().get(0).location().line(), notText.getMessage());
        assertTrue(notText.problems().get(0).message().contains("'examples' must be a list of strings"),
                notText.getMessage());

        project(dir, "description: Lists invoices past their due date\nexamples: which invoices are late\n");
        ProjectException notAList = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        assertEquals(2, notAList.problems().get(0).location().line(), notAList.getMessage());

        project(dir, "description: Lists invoices past their due date\nexamples:\n  - '" + "x".repeat(501) + "'\n");
        ProjectException tooLong = assertThrows(ProjectException.class, () -> compiler.compile(dir));
        assertTrue(tooLong.problems().get(0).message().contains("501 characters long; at most 500"),
                tooLong.getMessage());
    }
}
