package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolNamesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "get-user|get-user",
            "users/get|users-get",
            "Users/Get User|users-get-user",
            "  spaced  /x|spaced-x",
            "a!!b@@c|a-b-c",
            "__init__|init",
            "-_-|index",
            "index|index",
            "a//b|a-index-b",
            "Ünïcode/ok_1|n-code-ok_1",
    })
    void derivedFromTheToolPath(String toolPath, String name) {
        assertEquals(name, ToolNames.fromToolPath(toolPath));
    }

    @Test
    void toolPathIsRelativeWithSlashesAndIndexAtTheTop() {
        Path tools = Path.of("/p/app/tools");
        assertEquals("users/get", ToolNames.toolPath(tools, tools.resolve("users").resolve("get")));
        assertEquals("index", ToolNames.toolPath(tools, tools));
    }

    @Test
    void validNames() {
        assertTrue(ToolNames.isValid("get_user.v2-beta"));
        assertTrue(ToolNames.isValid("9lives"));
        assertTrue(ToolNames.isValid("x".repeat(128)));
        assertFalse(ToolNames.isValid("x".repeat(129)));
        assertFalse(ToolNames.isValid(".hidden"));
        assertFalse(ToolNames.isValid("has space"));
        assertFalse(ToolNames.isValid(""));
    }
}
