package dev.hyperterse.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar hyperterse.jar <command>}. */
@Command(name = "hyperterse",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {"A declarative MCP server: database and script tools described in a project folder,",
                "served to AI agents over MCP Streamable HTTP at /mcp."},
        subcommands = {StartCommand.class, ValidateCommand.class, InitCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        Logging.install();
        int code = new CommandLine(new Main()).execute(args);
        System.exit(code);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"hyperterse " + version()};
        }
    }

    static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "development build" : v;
    }
}
