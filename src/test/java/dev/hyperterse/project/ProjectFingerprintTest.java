package dev.hyperterse.project;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The watcher's view of a project: config, env and script files; not databases or dependencies. */
class ProjectFingerprintTest {

    @Test
    void seesEditsAdditionsAndRemovalsOfProjectFiles(@TempDir Path dir) throws Exception {
        ProjectFixture p = ProjectFixture.minimal(dir);
        Path tool = p.write("app/tools/a/config.terse", "use: db\nstatement: SELECT 1\n");
        p.write("app/adapters/db.terse", "connector: sqlite\n");
        ProjectFingerprint first = ProjectFingerprint.scan(dir);
        assertEquals(List.of(".hyperterse", "app/adapters/db.terse", "app/tools/a/config.terse"),
                List.copyOf(first.files().keySet()).stream().map(s -> s.replace('\\', '/')).toList());
        assertEquals(first, ProjectFingerprint.scan(dir), "nothing changed");

        Files.setLastModifiedTime(tool, FileTime.fromMillis(Files.getLastModifiedTime(tool).toMillis() + 5000));
        ProjectFingerprint touched = ProjectFingerprint.scan(dir);
        assertEquals(List.of("changed app/tools/a/config.terse"), normalised(touched.changesSince(first)));

        p.write("app/tools/b/handler.ts", "export default () => 1;\n");
        p.write(".env.local", "X=1\n");
        Files.delete(dir.resolve("app/adapters/db.terse"));
        assertEquals(List.of("added .env.local", "added app/tools/b/handler.ts", "removed app/adapters/db.terse"),
                normalised(ProjectFingerprint.scan(dir).changesSince(touched)));
    }

    @Test
    void databasesLogsAndDependenciesAreNotWatched(@TempDir Path dir) throws Exception {
        ProjectFixture p = ProjectFixture.minimal(dir);
        ProjectFingerprint before = ProjectFingerprint.scan(dir);
        p.write("data/shop.db", "x");
        p.write("data/shop.db-wal", "x");
        p.write("db/seed.sql", "INSERT INTO t VALUES (1);");
        p.write("server.log", "x");
        p.write("node_modules/dayjs/index.js", "module.exports = 1;");
        p.write(".git/config", "[core]");
        assertEquals(before, ProjectFingerprint.scan(dir));
        p.write("package.json", "{}");
        assertNotEquals(before, ProjectFingerprint.scan(dir), "package.json is part of the project");
    }

    @Test
    void followsLinksAsMountedConfigMapsUseThem(@TempDir Path dir) throws Exception {
        // a ConfigMap volume: files are links into a timestamped folder, re-pointed on update
        ProjectFixture p = new ProjectFixture(dir);
        p.write("..2024_01/.hyperterse", "name: a\n");
        p.write("..2024_02/.hyperterse", "name: bb\n");
        Files.createSymbolicLink(dir.resolve("..data"), dir.resolve("..2024_01"));
        Files.createSymbolicLink(dir.resolve(".hyperterse"), Path.of("..data/.hyperterse"));
        ProjectFingerprint first = ProjectFingerprint.scan(dir);
        assertTrue(first.files().containsKey(".hyperterse"));
        Files.delete(dir.resolve("..data"));
        Files.createSymbolicLink(dir.resolve("..data"), dir.resolve("..2024_02"));
        assertTrue(ProjectFingerprint.scan(dir).changesSince(first).contains("changed .hyperterse"));
    }

    private static List<String> normalised(List<String> changes) {
        return changes.stream().map(s -> s.replace('\\', '/')).sorted().toList();
    }
}
