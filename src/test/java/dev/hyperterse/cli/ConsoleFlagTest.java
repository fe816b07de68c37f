package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code start --console} turns the web console on, as {@code server.console: true} does, and says so in --print-config and --help. */
class ConsoleFlagTest {
    @Test
    void theFlagTurnsTheConsoleOnAndPrintConfigShowsIt() {
        CliRunner.Run off = CliRunner.run("start", "tools-examples/quickstart", "--print-config");
        assertEquals(0, off.code(), off.err());
        assertTrue(off.out().contains("\n  console: false\n"), off.out());
        CliRunner.Run on = CliRunner.run("start", "tools-examples/quickstart", "--console", "--print-config");
        assertEquals(0, on.code(), on.err());
        assertTrue(on.out().contains("\n  console: true\n"), on.out());
        String help = CliRunner.run("start", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("[--console]") && help.contains("--console Serve the web console at /console"), help);
    }
}
