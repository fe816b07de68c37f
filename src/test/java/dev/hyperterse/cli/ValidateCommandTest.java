package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code validate} loads scripts: a syntax error is a configuration error with file:line:column. */
class ValidateCommandTest {

    @Test
    void aScriptSyntaxErrorFailsValidation(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/tools/t"));
        Files.writeString(dir.resolve("app/tools/t/config.terse"), "description: t\n");
        Files.writeString(dir.resolve("app/tools/t/handler.ts"), "export default (p: {a: number) => 1;\n");
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        int code = new CommandLine(new Main()).setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", dir.toString());
        assertEquals(1, code, err::toString);
        assertTrue(err.toString().contains("1 configuration error:"), err.toString());
        assertTrue(err.toString().contains("app/tools/t/handler.ts:1:30: tool 't': handler: SyntaxError: Expected ';', got ')'"), err.toString());

        Files.writeString(dir.resolve("app/tools/t/handler.ts"), "export default (p: {a: number}) => p.a;\n");
        err.getBuffer().setLength(0);
        code = new CommandLine(new Main()).setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", dir.toString());
        assertEquals(0, code, err::toString);
        assertTrue(out.toString().contains("project 't' is valid: 1 tools"), out.toString());
    }
}
