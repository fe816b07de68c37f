package dev.hyperterse.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command line in-process, as a user would, for tests outside this package. */
public final class CliRunner {

    /** What a run answered: the exit status and both output streams. */
    public record Run(int code, String out, String err) {
    }

    private CliRunner() {
    }

    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }
}
