package dev.hyperterse.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** The {@code [path]} argument and {@code -f/--file} option shared by start and validate. */
final class ProjectLocation {
    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH",
            description = "Project folder (holding .hyperterse). Default: the current folder.")
    Path folder;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "The project's root config file (.hyperterse); its folder is the project folder.")
    Path file;

    Path resolve() {
        if (file != null && folder != null) {
            throw new picocli.CommandLine.ParameterException(Main.commandLine(),
                    "give either PATH or --file, not both");
        }
        if (file != null) {
            return file;
        }
        return folder != null ? folder : Path.of(".");
    }
}
