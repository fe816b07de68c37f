package dev.hyperterse.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "schema", mixinStandardHelpOptions = true,
        description = {"Print the JSON Schema (2020-12) of a project file, for editors.",
            "KIND is root (.hyperterse), adapter, tool, prompt or resource (*.terse files), or types: the"
                + " TypeScript declarations of what scripts see (save as hyperterse.d.ts)."})
final class SchemaCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "KIND", defaultValue = "root",
            description = "root, adapter, tool, prompt, resource or types. Default: root.")
    String kind;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!EditorSchemas.KINDS.contains(kind) && !EditorSchemas.TYPES.equals(kind)) {
            spec.commandLine().getErr().println("no schema '" + kind + "': choose "
                    + String.join(", ", EditorSchemas.KINDS) + " or " + EditorSchemas.TYPES);
            return Main.USAGE_ERROR;
        }
        spec.commandLine().getOut().print(EditorSchemas.text(kind));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
