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

    @Test
    void variablesThatAreNotSetAreWarningsUnlessStrict(@TempDir Path dir) throws Exception {
        // Hyperterse resolves env at connect and execute time: validate passes in CI without secrets
        Files.writeString(dir.resolve(".hyperterse"), "name: t\n");
        Files.createDirectories(dir.resolve("app/adapters"));
        Files.writeString(dir.resolve("app/adapters/db.terse"),
                "connector: postgres\nconnection_string: '{{ env.HT_TEST_UNSET_DB_URL }}'\n");
        Files.createDirectories(dir.resolve("app/tools/t"));
        Files.writeString(dir.resolve("app/tools/t/config.terse"),
                "use: db\nstatement: SELECT * FROM {{ env.HT_TEST_UNSET_SCHEMA }}.users\n");
        Files.createDirectories(dir.resolve("app/tools/w"));
        Files.writeString(dir.resolve("app/tools/w/config.terse"), "env: [HT_TEST_UNSET_API_KEY]\n");
        Files.writeString(dir.resolve("app/tools/w/handler.ts"), "export default () => process.env;\n");
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        int code = new CommandLine(new Main()).setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", dir.toString());
        assertEquals(0, code, err::toString);
        assertTrue(out.toString().contains("project 't' is valid"), out.toString());

        err.getBuffer().setLength(0);
        code = new CommandLine(new Main()).setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                .execute("validate", "--strict-env", dir.toString());
        assertEquals(1, code, err::toString);
        for (String variable : new String[] {"HT_TEST_UNSET_DB_URL", "HT_TEST_UNSET_SCHEMA", "HT_TEST_UNSET_API_KEY"}) {
            assertTrue(err.toString().contains("environment variable '" + variable + "' is not set"), err.toString());
        }
    }
}
