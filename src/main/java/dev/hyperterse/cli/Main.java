package dev.hyperterse.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code java -jar hyperterse.jar <command>}. */
@Command(name = "hyperterse",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "A declarative MCP server: database and script tools described in a project folder, "
                + "served to AI agents over MCP Streamable HTTP at /mcp.")
public final class Main implements Callable<Integer> {
    /** Exit status of a command line that names no command or an unknown option (picocli's usage error). */
    static final int USAGE_ERROR = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // first, before any work the start-up cache would spare: returns only when this JVM is to
        // start as it is (no cache to use, or it could not start again with one: start logs why)
        CacheRelaunch.withCacheWhenPresent(args);
        quietLibraryDefaults();
        Logging.install();
        // a plain `start` line is read without building the command-line model (see StartArguments)
        StartCommand start = StartArguments.parse(args);
        int code = start != null ? start.callDirectly() : commandLine(args).execute(args);
        System.exit(code);
    }

    /**
     * Netty's JDK Flight Recorder events (of its buffer allocator) are off unless
     * {@code -Dio.netty.jfr.enabled=true} asks for them: registering them loads and instruments
     * some 200 classes at every start, for recordings few take.
     */
    static void quietLibraryDefaults() {
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
    }

    /** The subcommands' names (without {@code help}), in the order the usage help lists them. */
    static final List<String> COMMANDS = List.of("start", "validate", "init", "schema", "aot-cache");

    /** A new instance of the subcommand called {@code name}, or null when none is. */
    private static Object command(String name) {
        return switch (name) {
            case "start" -> new StartCommand();
            case "validate" -> new ValidateCommand();
            case "init" -> new InitCommand();
            case "schema" -> new SchemaCommand();
            case "aot-cache" -> new AotCacheCommand();
            default -> null;
        };
    }

    /** The command line with all its subcommands, as {@code java -jar hyperterse.jar} runs it. */
    public static CommandLine commandLine() {
        return commandLine(new String[0]);
    }

    /**
     * The command line for {@code args}: when the first argument names a subcommand, the model
     * holds that subcommand only (whatever follows it is parsed, reported and helped by that
     * subcommand alone, so the output is the same as with the whole tree); otherwise (no
     * command, {@code help}, an option of its own, an unknown word) the whole tree. Picocli
     * builds a command's model by reflection over its annotations, which is most of what it
     * costs a start.
     */
    public static CommandLine commandLine(String[] args) {
        CommandLine cli = new CommandLine(new Main());
        Object named = args.length > 0 ? command(args[0]) : null;
        if (named != null) {
            cli.addSubcommand(args[0], named);
        } else {
            for (String name : COMMANDS) {
                cli.addSubcommand(name, command(name));
            }
            cli.addSubcommand("help", new CommandLine.HelpCommand());
        }
        return WordWrappedHelp.install(cli);
    }

    /** No command given: a usage error, like an unknown option. */
    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println("Missing command: give start, validate, init, schema or aot-cache (or --help).");
        spec.commandLine().usage(err);
        return USAGE_ERROR;
    }

    /**
     * How to run this program again, for messages that suggest a command: {@code java -jar} with
     * the jar this process runs from (relative to the working folder when it is inside it), or
     * with {@code target/hyperterse.jar}, where the build puts it, when not run from a jar.
     */
    static String launchCommand() {
        Path jar = jarFile();
        if (jar == null) {
            return "java -jar target/hyperterse.jar";
        }
        Path here = Path.of("").toAbsolutePath();
        Path shown = jar.startsWith(here) ? here.relativize(jar) : jar;
        return "java -jar " + shellWord(shown.toString());
    }

    /** The jar this process runs from, or null when it does not run from a jar (tests, an IDE). */
    static Path jarFile() {
        Path jar;
        try {
            java.security.CodeSource source = Main.class.getProtectionDomain().getCodeSource();
            jar = source == null || source.getLocation() == null ? null : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            jar = null;
        }
        return jar == null || !jar.getFileName().toString().endsWith(".jar") ? null : jar;
    }

    /** {@code word} as a shell reads it back: quoted when it holds anything but plain path characters. */
    static String shellWord(String word) {
        return word.matches("[A-Za-z0-9_./:@%+=,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
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
