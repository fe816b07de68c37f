package dev.hyperterse.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A well-formed {@code start} command line, read without the command-line library: building
 * its model by reflection and loading its classes (Java 5 class files, which the JVM verifies the
 * old way and a start-up cache cannot hold) is a quarter of a start's main-thread work.
 *
 * <p>Only what reads one way is taken: {@code start}, at most one {@code PATH}, and each of the
 * common options at most once, as {@code --name value}, {@code --name=value}, {@code -p value} or a
 * flag. Anything else (help, version, clustering, {@code @file} arguments, a repeated option, a
 * value that starts with {@code -}, a number written another way, an unknown word) returns null,
 * and the command-line library reads the line as before, with its help and errors. So this
 * never accepts a line the library refuses, and fills the same fields it would
 * ({@code StartArgumentsTest} compares the two).
 */
final class StartArguments {
    private StartArguments() {
    }

    /** The {@code start} command {@code args} describe, its fields set; null when the line is not one of the plain ones. */
    static StartCommand parse(String[] args) {
        if (args.length == 0 || !args[0].equals("start")) {
            return null;
        }
        for (String a : args) {
            if (a.startsWith("@")) {
                return null; // an argument file, which the library expands
            }
        }
        StartCommand start = new StartCommand();
        start.location = new ProjectLocation();
        start.typescript = new TypeScriptFlag();
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("-")) {
                if (start.location.folder != null || (start.location.folder = path(arg)) == null) {
                    return null;
                }
                continue;
            }
            String name = arg;
            String value = null;
            int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 2) {
                name = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            }
            if (!seen.add(name.equals("-p") ? "--port" : name.equals("-f") ? "--file" : name)) {
                return null;
            }
            if (!flag(start, name)) {
                if (value == null) {
                    if (i + 1 == args.length || args[i + 1].startsWith("-")) {
                        return null;
                    }
                    value = args[++i];
                }
                if (!option(start, name, value)) {
                    return null;
                }
            } else if (value != null) {
                return null;
            }
        }
        if (start.location.folder != null && start.location.file != null) {
            return null; // the library reports it, with the usage
        }
        return start;
    }

    /** Sets the flag {@code name}; false when it is none of the plain ones. */
    private static boolean flag(StartCommand start, String name) {
        switch (name) {
            case "--verbose" -> start.verbose = true;
            case "--watch" -> start.watch = true;
            case "--strict" -> start.strict = true;
            case "--console" -> start.console = true;
            case "--conformance-fixtures" -> start.conformanceFixtures = true;
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Sets the option {@code name} to {@code value}; false when it is none of the plain ones or the value reads otherwise. */
    private static boolean option(StartCommand start, String name, String value) {
        switch (name) {
            case "-p", "--port" -> start.port = number(value);
            case "--log-level" -> start.logLevel = number(value);
            case "--host" -> start.host = value;
            case "--log-format" -> start.logFormat = value;
            case "--watch-interval" -> start.watchInterval = value;
            case "--drain-period" -> start.drainPeriod = value;
            case "--typescript" -> start.typescript.typescript = value;
            case "--config" -> start.config = path(value);
            case "-f", "--file" -> start.location.file = path(value);
            default -> {
                return false;
            }
        }
        return switch (name) {
            case "-p", "--port" -> start.port != null;
            case "--log-level" -> start.logLevel != null;
            case "--config" -> start.config != null;
            case "-f", "--file" -> start.location.file != null;
            default -> true;
        };
    }

    /** A decimal number as plainly written (no sign, no leading zero, at most nine digits), else null. */
    private static Integer number(String value) {
        return value.matches("0|[1-9][0-9]{0,8}") ? Integer.valueOf(value) : null;
    }

    private static Path path(String value) {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
