package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A plain {@code start} line read without the command-line library fills the fields the library fills. */
class StartArgumentsTest {
    /** The command the library makes of {@code args}. */
    private static StartCommand library(String... args) {
        CommandLine.ParseResult parsed = Main.commandLine(args).parseArgs(args);
        return (StartCommand) parsed.subcommand().commandSpec().userObject();
    }

    /** Every field the library may set, by path, with its value (mixins and groups opened up). */
    private static List<String> fields(Object command, String prefix) throws IllegalAccessException {
        List<String> out = new ArrayList<>();
        for (Field f : command.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Object value = f.get(command);
            if (f.isAnnotationPresent(CommandLine.Mixin.class) || f.isAnnotationPresent(CommandLine.ArgGroup.class)) {
                assertNotNull(value, prefix + f.getName());
                out.addAll(fields(value, prefix + f.getName() + "."));
            } else if (f.isAnnotationPresent(CommandLine.Option.class) || f.isAnnotationPresent(CommandLine.Parameters.class)) {
                out.add(prefix + f.getName() + "=" + (value instanceof Object[] array ? List.of(array) : Objects.toString(value)));
            }
        }
        return out;
    }

    @Test
    void plainLinesGiveTheFieldsTheLibraryGives() throws Exception {
        List<String[]> lines = List.of(
                new String[] {"start"},
                new String[] {"start", "/srv/project"},
                new String[] {"start", "/srv/project", "-p", "8080", "--host", "0.0.0.0"},
                new String[] {"start", "--port=9000", "--log-level", "4", "--log-format", "json", "p"},
                new String[] {"start", "-f", "/srv/p/.hyperterse", "--verbose", "--watch", "--watch-interval", "500ms"},
                new String[] {"start", "p", "--strict", "--console", "--drain-period", "0", "--conformance-fixtures",
                        "--typescript", "swc", "--config", "conf/hyperterse.yaml"},
                new String[] {"start", "--host=", "--file=x/.hyperterse", "--log-level=9", "--log-format=xml"},
                new String[] {"start", "validate"},
                new String[] {"start", "-p", "0", "--drain-period", "5s", "tools-examples/quickstart"});
        for (String[] line : lines) {
            StartCommand fast = StartArguments.parse(line);
            assertNotNull(fast, String.join(" ", line));
            assertEquals(fields(library(line), ""), fields(fast, ""), String.join(" ", line));
        }
        List<String> set = fields(StartArguments.parse(lines.get(5)), "");
        for (String expected : List.of("location.folder=p", "typescript.typescript=swc", "config=conf/hyperterse.yaml",
                "strict=true", "console=true", "drainPeriod=0", "conformanceFixtures=true", "port=null",
                "cluster.enabled=false")) {
            org.junit.jupiter.api.Assertions.assertTrue(set.contains(expected), expected + " in " + set);
        }
    }

    @Test
    void anythingElseIsLeftToTheLibrary() {
        List<String[]> lines = List.of(
                new String[] {}, new String[] {"validate", "p"}, new String[] {"help", "start"},
                new String[] {"start", "--help"}, new String[] {"start", "-h"}, new String[] {"start", "-V"},
                new String[] {"start", "--version"}, new String[] {"start", "--print-config"},
                new String[] {"start", "--cluster"}, new String[] {"start", "--cluster-members", "a,b"},
                new String[] {"start", "-p", "8080", "-p", "9090"}, new String[] {"start", "--port", "1", "-p", "2"},
                new String[] {"start", "--verbose", "--verbose"},
                new String[] {"start", "-p8080"}, new String[] {"start", "-p", "08"}, new String[] {"start", "-p", "-1"},
                new String[] {"start", "-p", "+5"}, new String[] {"start", "-p", "0x10"},
                new String[] {"start", "-p", "12345678901"}, new String[] {"start", "--port"},
                new String[] {"start", "--host", "--watch"}, new String[] {"start", "@args.txt"},
                new String[] {"start", "--host", "@h"}, new String[] {"start", "a", "b"},
                new String[] {"start", "--watch=true"}, new String[] {"start", "p", "-f", "x"},
                new String[] {"start", "--bogus"}, new String[] {"start", "--", "p"}, new String[] {"start", "-"},
                new String[] {"start", "p\u0000"});
        for (String[] line : lines) {
            assertNull(StartArguments.parse(line), String.join(" ", line));
        }
    }
}
