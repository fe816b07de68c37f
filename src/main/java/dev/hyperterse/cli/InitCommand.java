package dev.hyperterse.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Create a runnable project: a SQLite notes database with two read tools and a write tool.",
                "The database file is created on first start. Serve the project with: start FOLDER"})
final class InitCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "FOLDER",
            description = "Folder to create the project in: a new one, or one holding only hidden files and folders "
                    + "(.git, .env, ...), which are kept (a .gitignore gets the lines it lacks). Default: the current folder.")
    Path folder;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path target = (folder == null ? Path.of(".") : folder).toAbsolutePath().normalize();
        try {
            if (Files.exists(target.resolve(".hyperterse"))) {
                err.println(target + " already holds a project (.hyperterse exists)");
                return 1;
            }
            if (Files.isDirectory(target)) {
                try (Stream<Path> entries = Files.list(target)) {
                    if (entries.anyMatch(p -> !p.getFileName().toString().startsWith("."))) {
                        err.println(target + " holds files: choose a new folder, or one that holds only hidden "
                                + "files (.git, .env, ...)");
                        return 1;
                    }
                }
            }
            String name = projectName(target);
            for (Map.Entry<String, String> file : files(name).entrySet()) {
                Path path = target.resolve(file.getKey());
                if (file.getKey().equals(".gitignore") && Files.exists(path)) {
                    ignoreAlso(path, file.getValue());
                    continue;
                }
                Files.createDirectories(path.getParent());
                String kind = EditorSchemas.kindOf(file.getKey());
                String text = kind == null ? file.getValue() : EditorSchemas.modeline(kind, file.getKey()) + file.getValue();
                Files.writeString(path, text, StandardCharsets.UTF_8);
            }
            // the schemas the files' first lines point at, so editors check them offline
            Path schemas = Files.createDirectories(target.resolve(EditorSchemas.PROJECT_FOLDER));
            for (String kind : EditorSchemas.KINDS) {
                Files.writeString(schemas.resolve(EditorSchemas.fileName(kind)), EditorSchemas.text(kind),
                        StandardCharsets.UTF_8);
            }
            // what scripts see, for TypeScript-aware editors (tsconfig.json includes it)
            Files.writeString(target.resolve(EditorSchemas.TYPES_FILE), EditorSchemas.text(EditorSchemas.TYPES),
                    StandardCharsets.UTF_8);
            Path tsconfig = target.resolve("tsconfig.json");
            if (!Files.exists(tsconfig)) {
                Files.writeString(tsconfig, TSCONFIG, StandardCharsets.UTF_8);
            }
            out.println("created project '" + name + "' in " + target);
            out.println("serve it with: " + Main.launchCommand() + " start "
                    + Main.shellWord(folder == null ? "." : folder.toString()));
            return 0;
        } catch (IOException e) {
            err.println("cannot create the project in " + target + ": " + e.getMessage());
            return 1;
        }
    }

    /** For editors only (the server strips types itself): handlers and mappers see hyperterse.d.ts. */
    static final String TSCONFIG = ""
            + "{\n"
            + "  \"compilerOptions\": {\n"
            + "    \"target\": \"ES2022\",\n"
            + "    \"module\": \"ES2022\",\n"
            + "    \"moduleResolution\": \"bundler\",\n"
            + "    \"strict\": true,\n"
            + "    \"noEmit\": true,\n"
            + "    \"lib\": [\"ES2022\"]\n"
            + "  },\n"
            + "  \"include\": [\"hyperterse.d.ts\", \"app/**/*.ts\"]\n"
            + "}\n";

    /** Adds the lines a folder's own {@code .gitignore} lacks, keeping what it holds. */
    private static void ignoreAlso(Path gitignore, String lines) throws IOException {
        String text = Files.readString(gitignore, StandardCharsets.UTF_8);
        java.util.Set<String> present = text.lines().map(String::strip).collect(java.util.stream.Collectors.toSet());
        StringBuilder added = new StringBuilder();
        lines.lines().filter(l -> !present.contains(l)).forEach(l -> added.append(l).append('\n'));
        if (added.length() > 0) {
            String separator = text.isEmpty() || text.endsWith("\n") ? "" : "\n";
            Files.writeString(gitignore, separator + added, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        }
    }

    static String projectName(Path target) {
        Path fileName = target.getFileName();
        String raw = fileName == null ? "my-service" : fileName.toString();
        String name = raw.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]+", "-").replaceAll("^[-_]+|[-_]+$", "");
        return name.isEmpty() ? "my-service" : name;
    }

    static Map<String, String> files(String name) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put(".hyperterse", ""
                + "name: " + name + "\n"
                + "version: 0.1.0\n"
                + "# The port is not set here, so --port or $PORT choose it (8080 when neither is given).\n");
        // the database file, npm's packages, and env files, which hold secrets (.env.example holds none)
        files.put(".gitignore", "data/\nnode_modules/\n.env*\n!.env.example\n");
        files.put("app/adapters/notes-db.terse", ""
                + "# An embedded SQLite database; the file is created from db/schema.sql on first start.\n"
                + "connector: sqlite\n"
                + "connection_string: 'sqlite:data/notes.db'\n"
                + "options:\n"
                + "  init_sql: db/schema.sql\n");
        files.put("db/schema.sql", ""
                + "CREATE TABLE notes (\n"
                + "  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
                + "  title TEXT NOT NULL,\n"
                + "  body TEXT NOT NULL DEFAULT '',\n"
                + "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))\n"
                + ");\n"
                + "INSERT INTO notes (title, body) VALUES\n"
                + "  ('Welcome', 'This note came from db/schema.sql.'),\n"
                + "  ('Next steps', 'Add a folder under app/tools with a config.terse to add a tool.');\n");
        files.put("app/tools/get-note/config.terse", ""
                + "description: 'Get one note by its id'\n"
                + "use: notes-db\n"
                + "statement: |\n"
                + "  SELECT id, title, body, created_at FROM notes WHERE id = {{ inputs.id }}\n"
                + "inputs:\n"
                + "  id:\n"
                + "    type: int\n"
                + "    description: 'The note id'\n");
        files.put("app/tools/find-notes/config.terse", ""
                + "description: 'Find notes whose title or body contains a text, newest first'\n"
                + "use: notes-db\n"
                + "statement: |\n"
                + "  SELECT id, title, created_at FROM notes\n"
                + "  WHERE title LIKE '%{{ inputs.text }}%' OR body LIKE '%{{ inputs.text }}%'\n"
                + "  ORDER BY id DESC\n"
                + "  LIMIT {{ inputs.limit }}\n"
                + "inputs:\n"
                + "  text:\n"
                + "    type: string\n"
                + "    description: 'Text to look for (case-insensitive)'\n"
                + "  limit:\n"
                + "    type: int\n"
                + "    description: 'Most notes to return'\n"
                + "    optional: true\n"
                + "    default: 20\n");
        files.put("app/tools/add-note/config.terse", ""
                + "description: 'Add a note'\n"
                + "use: notes-db\n"
                + "statement: |\n"
                + "  INSERT INTO notes (title, body) VALUES ({{ inputs.title }}, COALESCE({{ inputs.body }}, ''))\n"
                + "inputs:\n"
                + "  title:\n"
                + "    type: string\n"
                + "    description: 'A short title'\n"
                + "  body:\n"
                + "    type: string\n"
                + "    description: 'The note text'\n"
                + "    optional: true\n");
        files.put("app/resources/note/config.terse", ""
                + "# A resource template: reading notes://3 runs the statement with id 3 bound as a parameter.\n"
                + "uri_template: notes://{id}\n"
                + "description: 'One note by its id, as JSON'\n"
                + "use: notes-db\n"
                + "statement: SELECT id, title, body, created_at FROM notes WHERE id = {{ args.id }}\n");
        files.put("app/prompts/summarize-note.terse", ""
                + "description: 'Summarize a note in one sentence'\n"
                + "arguments:\n"
                + "  id:\n"
                + "    description: 'The note id'\n"
                + "    required: true\n"
                + "messages:\n"
                + "  - role: user\n"
                + "    text: 'Read notes://{{ id }} and summarize it in one sentence.'\n");
        return files;
    }
}
