package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A command line that names a command builds that command's model only; what it prints and the
 * exit status must be the same as with the whole tree, for help, versions and usage errors alike.
 */
class CommandModelTest {
    @TempDir
    Path dir;

    @Test
    void eachCommandIsBuiltUnderTheNameItsAnnotationGives() {
        CommandLine whole = Main.commandLine();
        List<String> names = whole.getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
        assertEquals(Main.COMMANDS, names);
        for (String name : Main.COMMANDS) {
            CommandLine one = Main.commandLine(new String[] {name, "--help"});
            assertEquals(List.of(name), List.copyOf(one.getSubcommands().keySet()));
            assertEquals(name, one.getSubcommands().get(name).getCommand().getClass()
                    .getAnnotation(CommandLine.Command.class).name());
        }
        assertEquals(List.of("start", "validate", "init", "schema", "aot-cache", "help"),
                List.copyOf(Main.commandLine(new String[] {"help", "start"}).getSubcommands().keySet()));
        assertEquals(whole.getSubcommands().keySet(),
                Main.commandLine(new String[] {"--bogus"}).getSubcommands().keySet());
    }

    @Test
    void theNamedCommandAloneAnswersAsTheWholeTreeDoes() {
        String missing = dir.resolve("missing").toString();
        List<String[]> cases = List.of(
                new String[] {"start", "--help"}, new String[] {"start", "-h"}, new String[] {"start", "-V"},
                new String[] {"start", "--bogus"}, new String[] {"start", "--prot", "1"},
                new String[] {"start", "--port"}, new String[] {"start", "--port", "x"},
                new String[] {"start", "validate"}, new String[] {"start", "help"},
                new String[] {"start", "a", "b"}, new String[] {"start", missing},
                new String[] {"start", missing, "--print-config"},
                new String[] {"start", "--log-level", "9", missing},
                new String[] {"start", "--log-format", "xml", missing},
                new String[] {"validate", "--help"}, new String[] {"validate", "--bogus"},
                new String[] {"validate", missing}, new String[] {"validate", "a", "b"},
                new String[] {"validate", "start"}, new String[] {"validate", "-f", missing, missing},
                new String[] {"start", "--file", missing, missing},
                new String[] {"init", "--help"}, new String[] {"init", "--bogus"},
                new String[] {"schema", "--help"}, new String[] {"schema", "--bogus"},
                new String[] {"schema", "extra"},
                new String[] {"aot-cache", "--help"}, new String[] {"aot-cache", "--bogus"},
                new String[] {"aot-cache", missing});
        for (String[] args : cases) {
            CliRunner.Run whole = CliRunner.run(Main.commandLine(), args);
            CliRunner.Run one = CliRunner.run(Main.commandLine(args), args);
            String shown = String.join(" ", args);
            assertEquals(whole.code(), one.code(), shown);
            assertEquals(whole.out(), one.out(), shown);
            assertEquals(whole.err(), one.err(), shown);
        }
    }
}
