package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Convention discovery: which file fills which slot. */
class ScriptFilesTest {
    @TempDir
    Path dir;

    private ScriptFiles.Discovered discover(boolean handler, boolean input, boolean output, String... files) throws Exception {
        ProjectFixture p = new ProjectFixture(dir);
        for (String f : files) {
            p.write(f, "export default 1;\n");
        }
        return ScriptFiles.discover(dir, handler, input, output);
    }

    @Test
    void exactNames() throws Exception {
        ScriptFiles.Discovered d = discover(true, true, true, "handler.ts", "input.ts", "output.ts");
        assertEquals(dir.resolve("handler.ts"), d.handler());
        assertEquals(dir.resolve("input.ts"), d.inputMapper());
        assertEquals(dir.resolve("output.ts"), d.outputMapper());
    }

    @Test
    void nameContainsRulesCaseInsensitive() throws Exception {
        ScriptFiles.Discovered d = discover(true, true, true,
                "My-Handler.TS", "user-Input-Validator.ts", "user-data-mapper.ts", "input-helper.ts", "mapper.ts",
                "data.ts", "validator.ts", "sub/handler.ts", "handler.js");
        assertEquals(dir.resolve("My-Handler.TS"), d.handler());
        assertEquals(dir.resolve("user-Input-Validator.ts"), d.inputMapper());
        assertEquals(dir.resolve("user-data-mapper.ts"), d.outputMapper());
    }

    @Test
    void firstInFileNameOrderAndOneSlotPerFile() throws Exception {
        ScriptFiles.Discovered d = discover(true, true, true,
                "b-handler.ts", "a-handler-input-validator.ts", "c-input-validator.ts");
        assertEquals(dir.resolve("a-handler-input-validator.ts"), d.handler());
        assertEquals(dir.resolve("c-input-validator.ts"), d.inputMapper(), "a file fills one slot only");
        assertNull(d.outputMapper());
    }

    @Test
    void closedSlotsAreNotFilled() throws Exception {
        ScriptFiles.Discovered d = discover(false, false, true, "handler-input-validator.ts", "output.ts");
        assertNull(d.handler());
        assertNull(d.inputMapper());
        assertEquals(dir.resolve("output.ts"), d.outputMapper());
    }
}
