package dev.hyperterse.project;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.hyperterse.project.ProjectFixture.assertProblem;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tool's {@code confirm} key: read as a boolean (absent is false), anything else is an error at its line. */
class ToolConfirmTest {
    @TempDir
    Path dir;
    ProjectFixture p;

    @BeforeEach
    void setUp() {
        p = ProjectFixture.minimal(dir);
    }

    @Test
    void confirmIsReadAndDefaultsToFalse() throws Exception {
        p.handlerTool("drop-it", "description: drops things\nconfirm: true\n");
        p.handlerTool("look", "description: looks at things\n");
        Project project = p.compile();
        assertTrue(project.tools().get("drop-it").confirm());
        assertFalse(project.tools().get("look").confirm());
    }

    @Test
    void aConfirmThatIsNotABooleanIsAnErrorAtItsLine() {
        Path f = p.handlerTool("drop-it", "description: drops things\nconfirm: maybe\n");
        assertProblem(p.fails(), f, 2, "'confirm' must be true or false");
    }
}
