package dev.hyperterse.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code hyperterse schema KIND} and the {@code $schema} lines {@code init} writes. */
class SchemaCommandTest {

    @Test
    void printsEachSchemaAsPackaged() throws Exception {
        for (String kind : EditorSchemas.KINDS) {
            CliRunner.Run r = CliRunner.run("schema", kind);
            assertEquals(0, r.code(), r.err());
            assertEquals(Files.readString(Path.of("schema", kind + ".schema.json")), r.out(), kind);
        }
        assertEquals(CliRunner.run("schema", "root").out(), CliRunner.run("schema").out(), "root by default");
        CliRunner.Run unknown = CliRunner.run("schema", "agent");
        assertEquals(2, unknown.code());
        assertEquals("no schema 'agent': choose root, adapter, tool, prompt, resource or types", unknown.err().strip());
        CliRunner.Run types = CliRunner.run("schema", "types");
        assertEquals(0, types.code(), types.err());
        assertEquals(Files.readString(Path.of("src/main/resources/types/hyperterse.d.ts")), types.out());
    }

    @Test
    void initPointsEachFileAtItsSchemaAndTheProjectStillValidates(@TempDir Path dir) throws Exception {
        Path project = dir.resolve("notes");
        assertEquals(0, CliRunner.run("init", project.toString()).code());
        assertTrue(Files.readString(project.resolve(".hyperterse"))
                .startsWith("# yaml-language-server: $schema=.schema/root.schema.json\n"));
        assertTrue(Files.readString(project.resolve("app/adapters/notes-db.terse"))
                .startsWith("# yaml-language-server: $schema=../../.schema/adapter.schema.json\n"));
        assertTrue(Files.readString(project.resolve("app/tools/get-note/config.terse"))
                .startsWith("# yaml-language-server: $schema=../../../.schema/tool.schema.json\n"));
        assertTrue(Files.readString(project.resolve("app/prompts/summarize-note.terse"))
                .startsWith("# yaml-language-server: $schema=../../.schema/prompt.schema.json\n"));
        assertTrue(Files.readString(project.resolve("app/resources/note/config.terse"))
                .startsWith("# yaml-language-server: $schema=../../../.schema/resource.schema.json\n"));
        for (String kind : EditorSchemas.KINDS) {
            assertEquals(EditorSchemas.text(kind), Files.readString(project.resolve(".schema/" + kind + ".schema.json")));
        }
        // what scripts see, for TypeScript-aware editors: the declarations and a tsconfig that includes them
        assertEquals(EditorSchemas.text(EditorSchemas.TYPES), Files.readString(project.resolve("hyperterse.d.ts")));
        assertTrue(Files.readString(project.resolve("tsconfig.json")).contains("\"include\": [\"hyperterse.d.ts\""));
        CliRunner.Run validate = CliRunner.run("validate", project.toString());
        assertEquals(0, validate.code(), validate.err() + validate.out());
    }
}
