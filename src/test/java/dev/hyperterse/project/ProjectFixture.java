package dev.hyperterse.project;

import dev.hyperterse.testing.ProjectFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/** A project folder written by a test, and assertions on what compiling it reports. */
final class ProjectFixture {
    static final Set<String> CONNECTORS = Set.of("sqlite", "postgres", "mysql", "redis");
    static final Set<String> AUTH_PLUGINS = Set.of("allow_all", "api_key", "jwt", "script");
    static final String MINIMAL_ROOT = "name: test-project\n";

    final Path dir;
    final List<ConfigProblem> warnings = new ArrayList<>();

    ProjectFixture(Path dir) {
        this.dir = dir;
    }

    /** A project with a root file and an empty tools folder. */
    static ProjectFixture minimal(Path dir) {
        ProjectFixture p = new ProjectFixture(dir);
        p.write(".hyperterse", MINIMAL_ROOT);
        p.mkdirs("app/tools");
        return p;
    }

    /**
     * A minimal project with one handler tool {@code hello}: the smallest project that serves
     * something, for tests about the root config's settings.
     */
    static ProjectFixture withOneTool(Path dir) {
        ProjectFixture p = minimal(dir);
        p.handlerTool("hello", "description: says hello\n");
        return p;
    }

    /** A minimal project with an in-memory SQLite adapter {@code db}. */
    static ProjectFixture withSqliteDb(Path dir) {
        ProjectFixture p = minimal(dir);
        p.write("app/adapters/db.terse", "connector: sqlite\nconnection_string: ':memory:'\n");
        return p;
    }

    Path write(String relative, String content) {
        return ProjectFiles.write(dir, relative, content);
    }

    Path mkdirs(String relative) {
        return ProjectFiles.mkdirs(dir, relative);
    }

    /** Writes the lines, each ended by a newline, as tool {@code folder}'s config.terse. */
    Path tool(String folder, String... lines) {
        return ProjectFiles.writeLines(dir, "app/tools/" + folder + "/config.terse", lines);
    }

    Path file(String relative) {
        return dir.resolve(relative);
    }

    /** A handler tool with a convention handler.ts, the smallest valid tool. */
    Path handlerTool(String folder, String config) {
        write("app/tools/" + folder + "/handler.ts", "export default () => 1;\n");
        return write("app/tools/" + folder + "/config.terse", config);
    }

    static ProjectCompiler compiler(Map<String, String> env) {
        return new ProjectCompiler(env, CONNECTORS, AUTH_PLUGINS);
    }

    Project compile() throws ProjectException {
        return compile(Map.of());
    }

    Project compile(Map<String, String> env) throws ProjectException {
        warnings.clear();
        Consumer<ConfigProblem> sink = warnings::add;
        return compiler(env).compile(dir, sink);
    }

    ProjectException fails() {
        return fails(Map.of());
    }

    ProjectException fails(Map<String, String> env) {
        return assertThrows(ProjectException.class, () -> compile(env));
    }

    /** The 1-based line of the first line of {@code file} containing {@code fragment}. */
    static int lineOf(Path file, String fragment) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains(fragment)) {
                    return i + 1;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("'" + fragment + "' is not in " + file);
    }

    /** Asserts that one of the problems is at {@code file:line} and its message holds every fragment. */
    static ConfigProblem assertProblem(List<ConfigProblem> problems, Path file, int line, String... fragments) {
        for (ConfigProblem p : problems) {
            if (samePath(p.location().file(), file) && p.location().line() == line && containsAll(p.message(), fragments)) {
                return p;
            }
        }
        return fail("no problem at " + file + ":" + line + " containing " + List.of(fragments) + "; got:\n"
                + problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n")));
    }

    static ConfigProblem assertProblem(ProjectException e, Path file, int line, String... fragments) {
        return assertProblem(e.problems(), file, line, fragments);
    }

    /** Asserts the problem at the line of {@code marker} in {@code file}. */
    static ConfigProblem assertProblemAt(ProjectException e, Path file, String marker, String... fragments) {
        return assertProblem(e.problems(), file, lineOf(file, marker), fragments);
    }

    static boolean samePath(Path shown, Path expected) {
        return shown.toAbsolutePath().normalize().equals(expected.toAbsolutePath().normalize());
    }

    private static boolean containsAll(String message, String... fragments) {
        for (String f : fragments) {
            if (!message.contains(f)) {
                return false;
            }
        }
        return true;
    }
}
