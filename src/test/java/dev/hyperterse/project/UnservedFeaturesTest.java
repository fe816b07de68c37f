package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hyperterse 2.4+ agents (an {@code app/agents/} folder or an {@code agents:} key) are named in a warning, never ignored silently. */
class UnservedFeaturesTest {

    private static List<ConfigProblem> warnings(Path dir) throws Exception {
        List<ConfigProblem> warnings = new ArrayList<>();
        new ProjectCompiler(Map.of(), Set.of("sqlite"), Set.of("allow_all"), Path.of("")).compile(dir, warnings::add);
        return warnings;
    }

    private static void project(Path dir, String root) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), root);
        Files.createDirectories(dir.resolve("app/tools/t"));
        Files.writeString(dir.resolve("app/tools/t/config.terse"), "handler: ./handler.ts\n");
        Files.writeString(dir.resolve("app/tools/t/handler.ts"), "export default () => 1;\n");
    }

    @Test
    void anAgentsFolderIsNamed(@TempDir Path dir) throws Exception {
        project(dir, "name: t\n");
        Files.createDirectories(dir.resolve("app/agents/helper"));
        List<ConfigProblem> warnings = warnings(dir);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).toString().contains("app/agents"), warnings.toString());
        assertTrue(warnings.get(0).message().contains("is not served by this server"), warnings.toString());
    }

    @Test
    void anAgentsKeyIsNamedOnce(@TempDir Path dir) throws Exception {
        project(dir, "name: t\nagents:\n  directory: agents\n");
        Files.createDirectories(dir.resolve("app/agents"));
        List<ConfigProblem> warnings = warnings(dir);
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals(2, warnings.get(0).location().line());
        assertTrue(warnings.get(0).message().startsWith("'agents' (Hyperterse agents) is not served"), warnings.toString());
    }
}
