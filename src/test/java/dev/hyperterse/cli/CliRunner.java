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
        return run(Main.commandLine(args), args);
    }

    /** Runs {@code args} on {@code cli} (a command line from {@link Main#commandLine(String[])} or the whole tree). */
    static Run run(CommandLine cli, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        // the commands set the process's log level, as they should; tests share one process
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger)
                org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ch.qos.logback.classic.Level level = root.getLevel();
        try {
            int code = cli.execute(args);
            return new Run(code, out.toString(), err.toString());
        } finally {
            root.setLevel(level);
        }
    }
}
