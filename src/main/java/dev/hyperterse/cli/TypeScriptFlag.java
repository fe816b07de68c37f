package dev.hyperterse.cli;

import dev.hyperterse.script.TypeScriptStripper;
import picocli.CommandLine.Option;

import java.util.Map;

/** The {@code --typescript} option shared by start and validate: which TypeScript stripper runs. */
final class TypeScriptFlag {
    @Option(names = "--typescript", paramLabel = "auto|swc|typescript",
            description = "How .ts files are type-stripped: swc (native, fast; Linux x86_64, macOS arm64, "
                    + "Windows x86_64), typescript (the TypeScript compiler in GraalJS: any platform, slower), "
                    + "or auto, swc where it loads, else typescript. Default: auto. Env: HYPERTERSE_TYPESCRIPT.")
    String typescript;

    /**
     * The flag, else {@code HYPERTERSE_TYPESCRIPT}, else {@code -Dhyperterse.typescript}, else auto.
     *
     * @throws IllegalArgumentException naming the flag, variable or property that holds another word
     */
    TypeScriptStripper.Choice choice(Map<String, String> environment, Map<String, String> properties) {
        return typescript != null ? TypeScriptStripper.Choice.parse(typescript, "--typescript")
                : TypeScriptStripper.Choice.from(environment, properties);
    }

    /** {@link #choice(Map, Map)} for this process. */
    TypeScriptStripper.Choice choice() {
        return choice(System.getenv(), TypeScriptStripper.Choice.processProperty());
    }

    /** {@link #choice()}, or null after telling {@code err} what is wrong with the word given. */
    TypeScriptStripper.Choice choiceOrExplain(java.io.PrintWriter err) {
        try {
            return choice();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return null;
        }
    }
}
