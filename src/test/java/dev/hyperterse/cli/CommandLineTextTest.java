package dev.hyperterse.cli;

import dev.hyperterse.auth.AuthPlugins;
import dev.hyperterse.connector.Connectors;
import dev.hyperterse.model.Counted;
import dev.hyperterse.project.Project;
import dev.hyperterse.project.ProjectCompiler;
import dev.hyperterse.testing.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the command line prints: help text, usage errors, suggestions and counts. */
class CommandLineTextTest {
    private static final int COLUMNS = 80;

    @TempDir
    Path dir;

    @Test
    void noCommandIsAUsageErrorWithTheUsageOnStderr() {
        CliRunner.Run r = CliRunner.run();
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertTrue(r.err().contains("Missing command"), r.err());
        assertTrue(r.err().contains("Usage: hyperterse"), r.err());
    }

    /**
     * Picocli wrapped with the JDK's line breaking, which breaks inside {@code file:line} and
     * {@code server.log_level}; every word of every description must survive whole, and no line
     * may pass 80 columns.
     */
    @Test
    void helpFitsEightyColumnsAndNeverBreaksInsideAWord() {
        CommandLine cli = Main.commandLine();
        List<String[]> helps = new ArrayList<>();
        helps.add(new String[] {"--help"});
        helps.add(new String[] {"help"});
        for (String command : cli.getSubcommands().keySet().stream().filter(c -> !c.equals("help")).toList()) {
            helps.add(new String[] {command, "--help"});
            helps.add(new String[] {"help", command});
        }
        for (String[] args : helps) {
            CliRunner.Run r = CliRunner.run(args);
            assertEquals(0, r.code(), String.join(" ", args));
            String shown = String.join(" ", args);
            r.out().lines().forEach(line -> assertTrue(line.length() <= COLUMNS,
                    shown + ": line longer than " + COLUMNS + " columns: " + line));
            List<String> words = List.of(r.out().split("\\s+"));
            // "--help" and a bare "help" show the main command's usage
            CommandSpec spec = args.length == 1 ? cli.getCommandSpec()
                    : cli.getSubcommands().get(args[0].equals("help") && args.length > 1 ? args[1] : args[0])
                            .getCommandSpec();
            for (String text : descriptions(spec)) {
                // %n is picocli's line break; it becomes one, so the words either side stand alone
                for (String word : text.replace("%n", " ").strip().split("\\s+")) {
                    assertTrue(words.contains(word), () -> shown + ": the word '" + word + "' is broken:\n" + r.out());
                }
            }
        }
    }

    /**
     * The command list shows each command's first description line: a whole sentence (schema's
     * ended in a colon, cut off from the list it announced), and no paragraph (aot-cache's filled
     * six lines). An option's description is one text, which the help wraps: lines broken by hand
     * wrapped again mid-sentence.
     */
    @Test
    void summariesAreSentencesAndOptionTextsWrapAsOne() {
        CommandLine cli = Main.commandLine();
        for (Map.Entry<String, CommandLine> command : cli.getSubcommands().entrySet()) {
            String[] description = command.getValue().getCommandSpec().usageMessage().description();
            String summary = description.length == 0 ? "" : description[0];
            assertTrue(summary.endsWith(".") && summary.length() <= 2 * COLUMNS,
                    command.getKey() + "'s summary is no short sentence: " + summary);
            for (ArgSpec arg : command.getValue().getCommandSpec().args()) {
                assertTrue(arg.description().length <= 1, command.getKey() + " " + arg.paramLabel()
                        + ": a description in several pieces: " + List.of(arg.description()));
            }
        }
    }

    /** The synopses in README.md and docs/configuration.md name every option of every command. */
    @Test
    void theSynopsesNameEveryOption() throws Exception {
        CommandLine cli = Main.commandLine();
        for (String doc : List.of("README.md", "docs/configuration.md")) {
            String text = Files.readString(Path.of(doc));
            for (Map.Entry<String, CommandLine> command : cli.getSubcommands().entrySet()) {
                if (command.getKey().equals("help")) {
                    continue;
                }
                int start = text.indexOf("java -jar target/hyperterse.jar " + command.getKey() + " [");
                assertTrue(start >= 0, doc + " has no synopsis of " + command.getKey());
                int end = text.indexOf("java -jar target/hyperterse.jar", start + 1);
                String synopsis = text.substring(start, end < 0 ? text.length() : end);
                for (CommandLine.Model.OptionSpec option : command.getValue().getCommandSpec().options()) {
                    if (option.usageHelp() || option.versionHelp()) {
                        continue;
                    }
                    assertTrue(java.util.Arrays.stream(option.names()).anyMatch(n -> synopsis.contains(n + " ")
                                    || synopsis.contains(n + "]")),
                            doc + ": the synopsis of " + command.getKey() + " lacks " + option.longestName());
                }
            }
        }
    }

    @Test
    void theCommandListShowsEachSummaryWhole() {
        String help = CliRunner.run("--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("init Create a runnable project: a SQLite notes database with two read tools "
                + "and a write tool."), help);
        assertTrue(help.contains("validate Check a project without serving it, and print every problem as "
                + "file:line: message."), help);
        assertTrue(help.contains("schema Print the JSON Schema (2020-12) of a project file, for editors. "), help);
        assertTrue(help.contains("aot-cache Make a start-up cache for this jar, this JVM and a project, and print "
                + "the java command that uses it. help "), help);
    }

    @Test
    void initSuggestsTheJarTheReadmeBuilds() throws Exception {
        Path project = dir.resolve("notes");
        CliRunner.Run r = CliRunner.run("init", project.toString());
        assertEquals(0, r.code(), r.err());
        // tests run from target/classes, not a jar: the suggestion is where the README's build puts the jar
        String suggested = "java -jar target/hyperterse.jar start " + project;
        assertTrue(r.out().contains("serve it with: " + suggested), r.out());
        String readme = Files.readString(Path.of("README.md"));
        assertTrue(readme.contains("mvn -B -q package -DskipTests && java -jar target/hyperterse.jar start"), readme);
        assertTrue(readme.contains("java -jar target/hyperterse.jar init"), "the README's command line section");
    }

    @Test
    void aJarOutsideTheWorkingFolderIsShownWhole() {
        assertEquals("plain/path-1.jar", Main.shellWord("plain/path-1.jar"));
        assertEquals("'my dir/it'\\''s.jar'", Main.shellWord("my dir/it's.jar"));
    }

    /** Neither {@code init} nor the examples fix the port, so {@code $PORT} applies to them. */
    @Test
    void portFromTheEnvironmentAppliesToScaffoldedAndExampleProjects() throws Exception {
        Path project = dir.resolve("notes");
        assertEquals(0, CliRunner.run("init", project.toString()).code());
        List<Path> projects = new ArrayList<>(List.of(project));
        try (Stream<Path> examples = Files.list(Path.of("tools-examples"))) {
            examples.filter(p -> Files.isRegularFile(p.resolve(".hyperterse"))).forEach(projects::add);
        }
        assertTrue(projects.size() >= 6, projects.toString());
        for (Path p : projects) {
            Project compiled = new ProjectCompiler(Map.of("SHOP_POSTGRES_URL", "postgres://x/y",
                    "SHOP_MYSQL_URL", "mysql://x/y", "SHOP_REDIS_URL", "redis://x"),
                    Connectors.builtIn().types(), AuthPlugins.builtIn().names()).compile(p);
            assertNull(compiled.config().server().network().port(), p + " sets server.port, so $PORT never applies");
            assertEquals(18650, Listen.port(null, compiled.config().server().network().port(), "18650"), p.toString());
        }
    }

    @Test
    void aPortInUseSuggestsAnother() throws Exception {
        Path project = RunningServer.copyExample("quickstart", dir);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            CliRunner.Run r = CliRunner.run("start", project.toString(), "--port", String.valueOf(taken.getLocalPort()));
            assertEquals(1, r.code(), r.err());
            assertTrue(r.err().contains("port " + taken.getLocalPort() + " is already in use on 127.0.0.1"), r.err());
            assertTrue(r.err().contains("the port came from --port; give another free one with -p/--port PORT"),
                    r.err());
        }
        assertEquals("the port came from server.port in .hyperterse; choose another with -p/--port PORT, "
                + "or remove server.port to let $PORT choose", StartCommand.portHint(false, true, true));
        assertEquals("the port came from $PORT; choose another with -p/--port PORT or $PORT",
                StartCommand.portHint(false, false, true));
        assertEquals("the port came from the default (8080); choose another with -p/--port PORT or $PORT",
                StartCommand.portHint(false, false, false));
    }

    @Test
    void countsAgreeWithTheirNouns() {
        assertEquals("1 adapter", Counted.of(1, "adapter"));
        assertEquals("0 adapters", Counted.of(0, "adapter"));
        assertEquals("2 values were", Counted.of(2, "value was", "values were"));
        CliRunner.Run r = CliRunner.run("validate", "tools-examples/quickstart");
        assertTrue(r.out().contains("project 'quickstart' is valid: 4 tools, 1 adapter"), r.out());
        assertFalse(r.out().contains("1 adapters"), r.out());
    }

    private static List<String> descriptions(CommandSpec spec) {
        List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
        for (ArgSpec arg : spec.args()) {
            texts.addAll(List.of(arg.description()));
        }
        return texts;
    }
}
