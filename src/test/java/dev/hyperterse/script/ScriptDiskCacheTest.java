package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Prepared scripts on disk: stripped TypeScript is read back instead of stripped again, and a
 * check that passed is skipped while the script and every file it imports are unchanged, run
 * again as soon as one changes, and never remembered when it failed.
 */
class ScriptDiskCacheTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    static Path cacheDir;
    static ScriptEngine engine;

    @TempDir
    Path project;

    @BeforeAll
    static void engine(@TempDir Path cache) {
        cacheDir = cache;
        engine = ScriptEngine.create(TypeScriptStripper.Choice.AUTO, new ScriptDiskCache(cache));
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    private Path write(String relative, String text) throws IOException {
        Path file = project.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    private ScriptCheck check(Path script) throws IOException {
        return new ScriptCheck(engine, project, List.of(project), List.of(ref(script)));
    }

    private static ScriptRef ref(Path script) {
        return new ScriptRef(script, "default", null);
    }

    @Test
    void strippedTypeScriptIsReadBackFromDiskByAnotherStripper() throws Exception {
        ScriptDiskCache disk = new ScriptDiskCache(project.resolve("cache"));
        Path file = write("a.ts", "export const n: number = 1;\n");
        String source = Files.readString(file);
        String stripped = new TypeScriptStripper(TypeScriptStripper.Choice.AUTO, engine.engine(), disk)
                .strip(file, source);
        assertFalse(stripped.contains(": number"), stripped);
        List<Path> stored;
        try (Stream<Path> files = Files.list(project.resolve("cache/typescript"))) {
            stored = files.toList();
        }
        assertEquals(1, stored.size(), stored::toString);
        assertEquals(stripped, Files.readString(stored.get(0)));

        // a new stripper (nothing in memory) takes what is on disk rather than stripping again
        Files.writeString(stored.get(0), "export const n = 'from the disk';\n");
        assertEquals("export const n = 'from the disk';\n",
                new TypeScriptStripper(TypeScriptStripper.Choice.AUTO, engine.engine(), disk).strip(file, source));
        // another source is another entry
        assertEquals("export const m = 2;", new TypeScriptStripper(TypeScriptStripper.Choice.AUTO, engine.engine(), disk)
                .strip(file, "export const m: number = 2;").strip());
    }

    @Test
    void aPassedCheckIsSkippedUntilTheScriptOrAnImportChanges() throws Exception {
        Path lib = write("lib/text.ts", "export function shout(s: string): string { return s.toUpperCase(); }\n");
        Path handler = write("tools/t/handler.ts",
                "import { shout } from '../../lib/text.js';\nexport default (x: string) => shout(x);\n");
        assertTrue(check(handler).check(ref(handler), Map.of(), LIMIT), "the first check runs");
        assertFalse(check(handler).check(ref(handler), Map.of(), LIMIT), "an unchanged script is not loaded again");

        // the imported file changes: the check runs again, and a broken import is found
        Files.writeString(lib, "export function shout(s: string): string { return s.toLowerCase(); }\n");
        assertTrue(check(handler).check(ref(handler), Map.of(), LIMIT));
        assertFalse(check(handler).check(ref(handler), Map.of(), LIMIT));
        Files.writeString(lib, "export function yell(s: string): string { return s; }\n");
        ScriptLoadException e = assertThrows(ScriptLoadException.class,
                () -> check(handler).check(ref(handler), Map.of(), LIMIT));
        assertTrue(e.getMessage().contains("shout"), e.getMessage());

        // the script itself changes
        Files.writeString(lib, "export function shout(s: string): string { return s; }\n");
        assertTrue(check(handler).check(ref(handler), Map.of(), LIMIT));
        Files.writeString(handler, "export default 42;\n");
        assertThrows(ScriptLoadException.class, () -> check(handler).check(ref(handler), Map.of(), LIMIT));
    }

    @Test
    void aStartWhoseChecksAllPassedBeforeDoesNotStartGraalJs(@TempDir Path cache) throws Exception {
        Path handler = write("tools/s/handler.ts", "export default (x: string): string => x + '!';\n");
        try (ScriptEngine first = ScriptEngine.create(TypeScriptStripper.Choice.AUTO, new ScriptDiskCache(cache))) {
            assertFalse(first.hasStarted(), "made, not started");
            assertTrue(new ScriptCheck(first, project, List.of(project), List.of(ref(handler))).check(ref(handler), Map.of(), LIMIT));
            assertTrue(first.hasStarted(), "the first check loads the script");
        }
        try (ScriptEngine second = ScriptEngine.create(TypeScriptStripper.Choice.AUTO, new ScriptDiskCache(cache))) {
            assertFalse(new ScriptCheck(second, project, List.of(project), List.of(ref(handler))).check(ref(handler), Map.of(), LIMIT));
            assertFalse(second.hasStarted(), "a check that passed before needs no GraalJS");
            assertFalse(second.mode().isEmpty()); // asking for GraalJS starts it
            assertTrue(second.hasStarted());
        }
    }

    @Test
    void aFailedCheckIsNeverRemembered() throws Exception {
        Path handler = write("h.js", "throw new Error('not configured');\nexport default () => 1;\n");
        for (int i = 0; i < 2; i++) {
            ScriptLoadException e = assertThrows(ScriptLoadException.class,
                    () -> check(handler).check(ref(handler), Map.of(), LIMIT));
            assertTrue(e.getMessage().contains("not configured"), e.getMessage());
        }
    }

    @Test
    void theExportAndTheVariablesSetAreOfTheKeyButNoValueIsWritten() throws Exception {
        Path handler = write("v.js", "export default () => process.env.TOKEN;\nexport function other() {}\n");
        assertTrue(check(handler).check(ref(handler), Map.of("TOKEN", "s3cr3t-value"), LIMIT));
        // another value of a set variable: the same check (values are never part of what is stored)
        assertFalse(check(handler).check(ref(handler), Map.of("TOKEN", "another-value"), LIMIT));
        // the variable unset, or another export: other checks
        assertTrue(check(handler).check(ref(handler), Map.of("TOKEN", ""), LIMIT));
        assertTrue(check(handler).check(new ScriptRef(handler, "other", null), Map.of("TOKEN", "s3cr3t-value"), LIMIT));
        try (Stream<Path> files = Files.walk(cacheDir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                assertFalse(text.contains("s3cr3t"), f + " holds a variable's value");
            }
        }
    }

    @Test
    void withoutAFolderNothingIsStored() {
        assertNull(ScriptDiskCache.NONE.stripped(ScriptDiskCache.key("x")));
        ScriptDiskCache.NONE.storePassed("k", List.of());
        assertFalse(ScriptDiskCache.NONE.passed("k"));
    }

    @Test
    void anUnwritableFolderIsAMissNotAFailure() throws Exception {
        Path notAFolder = write("file-not-folder", "x");
        ScriptDiskCache disk = new ScriptDiskCache(notAFolder);
        Path file = write("b.ts", "export const n: number = 1;\n");
        String js = new TypeScriptStripper(TypeScriptStripper.Choice.AUTO, engine.engine(), disk)
                .strip(file, Files.readString(file));
        assertFalse(js.contains(": number"), js);
        assertFalse(disk.passed("anything"));
    }
}
