package dev.hyperterse.cli;

import dev.hyperterse.testing.ProjectFiles;
import dev.hyperterse.testing.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartCommandTest {

    @Test
    void conformanceFixturesAreOffUnlessAskedFor() {
        StartCommand plain = new StartCommand();
        new CommandLine(plain).parseArgs("some/project", "--port", "0");
        assertFalse(plain.conformanceFixtures);

        StartCommand fixtures = new StartCommand();
        new CommandLine(fixtures).parseArgs("some/project", "--conformance-fixtures");
        assertTrue(fixtures.conformanceFixtures);
    }

    @Test
    void watchingIsOffUnlessAskedForAndPollsEverySecondByDefault() {
        StartCommand plain = new StartCommand();
        new CommandLine(plain).parseArgs("some/project");
        assertFalse(plain.watch);
        assertEquals(Duration.ofSeconds(1), plain.watchInterval());

        StartCommand watching = new StartCommand();
        new CommandLine(watching).parseArgs("some/project", "--watch", "--watch-interval", "250ms");
        assertTrue(watching.watch);
        assertEquals(Duration.ofMillis(250), watching.watchInterval());

        StartCommand tooFast = new StartCommand();
        new CommandLine(tooFast).parseArgs("some/project", "--watch", "--watch-interval", "1ms");
        assertNull(tooFast.watchInterval());
    }

    @Test
    void badOperationsFlagsAreUsageErrors() {
        CliRunner.Run format = CommandLineTest.run("start", "tools-examples/quickstart", "--log-format", "xml");
        assertEquals(2, format.code());
        assertTrue(format.err().contains("--log-format must be text or json"), format.err());
        CliRunner.Run interval = CommandLineTest.run("start", "tools-examples/quickstart", "--watch-interval", "soon");
        assertEquals(2, interval.code());
        assertTrue(interval.err().contains("--watch-interval must be a duration"), interval.err());
        CliRunner.Run drain = CommandLineTest.run("start", "tools-examples/quickstart", "--drain-period", "-1s");
        assertEquals(2, drain.code());
        assertTrue(drain.err().contains("--drain-period must be a duration"), drain.err());
    }

    /** The drain period: 5s by default, the flag over every layer, shown by --print-config. */
    @Test
    void theDrainPeriodFlagIsWhatPrintConfigShows() {
        CliRunner.Run defaults = CommandLineTest.run("start", "tools-examples/quickstart", "--print-config");
        assertEquals(0, defaults.code(), defaults.err());
        assertTrue(defaults.out().contains("\n  drain_period: 5s\n"), defaults.out());
        CliRunner.Run flagged = CommandLineTest.run("start", "tools-examples/quickstart", "--drain-period", "12s",
                "--print-config");
        assertEquals(0, flagged.code(), flagged.err());
        assertTrue(flagged.out().contains("\n  drain_period: 12s\n"), flagged.out());
    }

    /** {@code --strict} keeps the refusal of a statement that does not prepare (without it the tool answers why). */
    @Test
    void strictRefusesAStatementThatDoesNotPrepare(@TempDir Path dir) throws Exception {
        StartCommand plain = new StartCommand();
        new CommandLine(plain).parseArgs("some/project");
        assertFalse(plain.strict, "Hyperterse's behaviour by default: the project starts");

        Files.writeString(dir.resolve(".hyperterse"), "name: strict\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "ok", "use: db\nstatement: SELECT 1 AS n\n");
        RunningServer.writeTool(dir, "broken", "description: x\nuse: db\nstatement: SELECT nope FROM missing_table\n");
        CliRunner.Run r = CommandLineTest.run("start", dir.toString(), "--strict", "--port", "0", "--log-level", "1");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("cannot start 'strict':"), r.err());
        assertTrue(r.err().contains("app/tools/broken/config.terse:3: tool 'broken': the statement does not prepare on"
                + " adapter 'db': ") && r.err().contains("missing_table"), r.err());
    }

    /** A configuration error is reported at once: the scripts are neither loaded nor reported then. */
    @Test
    void configurationErrorsDoNotWaitForScripts(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: early\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "typo", "use: db\nstatment: SELECT 1\n");
        RunningServer.writeTool(dir, "hello", "description: hello\n");
        Files.writeString(dir.resolve("app/tools/hello/handler.ts"), "export default function () { return 1 +; }\n");
        CliRunner.Run r = CommandLineTest.run("start", dir.toString(), "--port", "0", "--log-level", "1");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().startsWith("2 configuration errors:"), r.err());
        assertTrue(r.err().contains("unknown key 'statment'"), r.err());
        assertFalse(r.err().contains("handler.ts"), r.err());
    }

    /** Scripts are checked while the server is set up; what stops one stops the start, as a configuration error. */
    @Test
    void aBrokenScriptStopsTheStartWithItsPosition(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".hyperterse"), "name: scripted\n");
        ProjectFiles.sqliteMemoryDb(dir);
        RunningServer.writeTool(dir, "ok", "use: db\nstatement: SELECT 1 AS n\n");
        RunningServer.writeTool(dir, "a", "description: a\n");
        RunningServer.writeTool(dir, "b", "description: b\n");
        Files.writeString(dir.resolve("app/tools/a/handler.ts"), "export default function () { return 1 +; }\n");
        Files.writeString(dir.resolve("app/tools/b/handler.ts"), "export const notDefault = 1;\n");
        CliRunner.Run r = CommandLineTest.run("start", dir.toString(), "--port", "0", "--log-level", "1");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().startsWith("2 configuration errors:"), r.err());
        assertTrue(r.err().contains("app/tools/a/handler.ts:1:"), r.err());
        assertTrue(r.err().contains("tool 'b': handler") && r.err().contains("has no export 'default'"), r.err());
    }

    @Test
    void logFormatsAreTextOrJson() {
        assertEquals("json", Logging.format(" JSON "));
        assertEquals("text", Logging.format("text"));
        assertNull(Logging.format("xml"));
    }
}
