package dev.hyperterse.project;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The editor schemas ({@code schema/*.schema.json}) against the compiler's own rules: every file of
 * the example projects passes, and each config-error fixture fails both the compiler and its
 * schema on the same key.
 */
class EditorSchemaTest {
    private static final Path SCHEMAS = Path.of("schema");
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private static Schema schema(String kind) throws Exception {
        return REGISTRY.getSchema(Files.readString(SCHEMAS.resolve(kind + ".schema.json")), InputFormat.JSON);
    }

    private static List<String> errors(String kind, String yaml) throws Exception {
        Object tree = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        @SuppressWarnings("unchecked")
        String json = new JsonObject((Map<String, Object>) tree).encode();
        return schema(kind).validate(json, InputFormat.JSON).stream().map(Object::toString).toList();
    }

    /** The schema a project file follows, by its place in the project; null for none. */
    private static String kindOf(String relative) {
        if (relative.equals(".hyperterse")) {
            return "root";
        }
        if (!relative.endsWith(".terse")) {
            return null;
        }
        for (String[] folder : new String[][] {{"app/adapters/", "adapter"}, {"app/tools/", "tool"},
                {"app/prompts/", "prompt"}, {"app/resources/", "resource"}}) {
            if (relative.startsWith(folder[0])) {
                return folder[1];
            }
        }
        return null;
    }

    @Test
    void everyFileOfEveryExampleProjectIsValid() throws Exception {
        List<Path> projects;
        try (Stream<Path> found = Files.list(Path.of("tools-examples"))) {
            projects = found.filter(p -> Files.isRegularFile(p.resolve(".hyperterse"))).sorted().toList();
        }
        assertTrue(projects.size() >= 4, projects.toString());
        int checked = 0;
        List<String> kinds = new ArrayList<>();
        for (Path project : projects) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(project)) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path file : files) {
                String kind = kindOf(project.relativize(file).toString().replace('\\', '/'));
                if (kind == null) {
                    continue;
                }
                assertEquals(List.of(), errors(kind, Files.readString(file)), file + " against " + kind);
                checked++;
                kinds.add(kind);
            }
        }
        assertTrue(checked > 30, "files checked: " + checked);
        for (String kind : List.of("root", "adapter", "tool", "prompt", "resource")) {
            assertTrue(kinds.contains(kind), "no example file exercised the " + kind + " schema");
        }
    }

    /** A file with one mistake, where it lies in a project, and the key both checks must name. */
    private record Fixture(String file, String yaml, String key) {
    }

    private static final List<Fixture> INVALID = List.of(
            new Fixture(".hyperterse", "version: 1.0.0\n", "name"),
            new Fixture(".hyperterse", "name: x\nserver:\n  log_level: 9\n", "log_level"),
            new Fixture(".hyperterse", "name: x\nserver:\n  tool_errors: loud\n", "tool_errors"),
            new Fixture(".hyperterse", "name: x\nserver:\n  sessions:\n    idle_timeout: soon\n", "idle_timeout"),
            new Fixture(".hyperterse", "name: x\ntools:\n  script_workers: 0\n", "script_workers"),
            new Fixture(".hyperterse", "name: x\nobservability:\n  metrics:\n    path: /mcp\n", "path"),
            new Fixture(".hyperterse", "name: x\nobservability:\n  logs:\n    format: xml\n", "format"),
            new Fixture("app/adapters/db.terse", "connector: sqlite\nconnection_string: data.db\npool: 3\n", "pool"),
            new Fixture("app/adapters/db.terse", "connector: sqlite\n", "connection_string"),
            new Fixture("app/tools/t/config.terse", "use: db\nstatement: SELECT 1\ninputs:\n  q:\n    type: text\n", "type"),
            new Fixture("app/tools/t/config.terse", "use: db\nstatement: SELECT 1\ncache:\n  ttl: -1\n", "ttl"),
            new Fixture("app/tools/t/config.terse", "use: db\nstatement: SELECT 1\nrow_limit: 0\n", "row_limit"),
            new Fixture("app/tools/t/config.terse", "use: db\nstatement: SELECT 1\nretries: 3\n", "retries"),
            new Fixture("app/tools/t/config.terse", "use: db\n", "statement"),
            new Fixture("app/tools/t/config.terse", "use: db\nstatement: SELECT 1\noutput:\n  type: int\n", "output"),
            new Fixture("app/prompts/p.terse", "messages:\n  - role: robot\n    text: hi\n", "role"),
            new Fixture("app/prompts/p.terse", "messages:\n  - role: user\n    text: hi\ntemperature: 1\n", "temperature"),
            new Fixture("app/resources/r/config.terse", "uri: docs://a\ntext: hi\nsize: 2\n", "size"));

    @Test
    void eachConfigErrorFixtureFailsTheCompilerAndItsSchemaOnTheSameKey(@TempDir Path dir) throws Exception {
        for (int i = 0; i < INVALID.size(); i++) {
            Fixture fixture = INVALID.get(i);
            ProjectFixture project = ProjectFixture.withOneTool(dir.resolve("p" + i));
            project.write("app/adapters/db.terse", "connector: sqlite\nconnection_string: data.db\n");
            project.write(fixture.file(), fixture.yaml());

            List<String> schemaErrors = errors(kindOf(fixture.file()), fixture.yaml());
            assertFalse(schemaErrors.isEmpty(), fixture + " passes its schema");
            assertTrue(schemaErrors.stream().anyMatch(e -> e.contains(fixture.key())),
                    fixture + ": the schema's errors do not name '" + fixture.key() + "': " + schemaErrors);

            List<String> compilerErrors = new ArrayList<>();
            try {
                ProjectFixture.compiler(Map.of()).compile(project.dir);
            } catch (ProjectException e) {
                e.problems().forEach(p -> compilerErrors.add(p.message()));
            }
            assertFalse(compilerErrors.isEmpty(), fixture + " compiles");
            assertTrue(compilerErrors.stream().anyMatch(e -> e.contains(fixture.key())),
                    fixture + ": the compiler's errors do not name '" + fixture.key() + "': " + compilerErrors);
        }
        // and the same files without the mistake pass both: the minimal project with its adapter
        ProjectFixture clean = ProjectFixture.withOneTool(dir.resolve("clean"));
        clean.write("app/adapters/db.terse", "connector: sqlite\nconnection_string: data.db\n");
        ProjectFixture.compiler(Map.of()).compile(clean.dir);
        assertEquals(List.of(), errors("adapter", "connector: sqlite\nconnection_string: data.db\n"));
        assertEquals(List.of(), errors("root", ProjectFixture.MINIMAL_ROOT));
        for (String mode : List.of("result", "rpc", "protocol", "RPC")) {
            assertEquals(List.of(), errors("root", "name: x\nserver:\n  tool_errors: " + mode + "\n"), mode);
        }
    }
}
