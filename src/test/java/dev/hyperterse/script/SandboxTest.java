package dev.hyperterse.script;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way out of the sandbox fails with a plain error. */
class SandboxTest extends ScriptTestBase {
    @TempDir
    Path outside;

    static JsonObject payload() {
        return new JsonObject().put("inputs", new JsonObject()).put("tool", "t");
    }

    /** Each escape attempt, as a handler body, and what its error must say. */
    @Test
    void escapesFailWithAClearError() throws Exception {
        Map<String, String> attempts = new LinkedHashMap<>();
        attempts.put("Java.type('java.lang.System').exit(1)", "ReferenceError: Java is not defined");
        attempts.put("java.lang.System.getenv()", "ReferenceError: java is not defined");
        attempts.put("Packages.java.lang.Runtime.getRuntime()", "ReferenceError: Packages is not defined");
        attempts.put("Polyglot.eval('js', '1')", "ReferenceError: Polyglot is not defined");
        attempts.put("Graal.versionGraalVM", "ReferenceError: Graal is not defined");
        attempts.put("load('/etc/passwd')", "ReferenceError: load is not defined");
        attempts.put("loadWithNewGlobal({script: '1', name: 'x'})", "ReferenceError: loadWithNewGlobal is not defined");
        attempts.put("print('x')", "ReferenceError: print is not defined");
        attempts.put("quit()", "ReferenceError: quit is not defined");
        attempts.put("readFile('/etc/passwd')", "ReferenceError: readFile is not defined");
        attempts.put("new Worker('x.js')", "ReferenceError: Worker is not defined");
        attempts.put("require('child_process')", "ReferenceError: require is not defined");
        attempts.put("__hyperterse_require('/etc/passwd')", "scripts can only load module files");
        attempts.put("__hyperterse_require('child_process')", "Cannot find package 'child_process'");
        attempts.put("await import('/etc/passwd')", "/etc/passwd");
        attempts.put("await import('../../../../../../../../etc/hostname')", "etc/hostname");
        attempts.put("await import('node:fs')", "node:fs");
        attempts.put("await import('fs')", "Cannot find module 'fs' imported from h.js");
        StringBuilder module = new StringBuilder();
        int i = 0;
        for (String attempt : attempts.keySet()) {
            module.append("export async function a").append(i++).append("() { return ").append(attempt).append("; }\n");
        }
        p.write("h.js", module.toString());
        i = 0;
        for (Map.Entry<String, String> attempt : attempts.entrySet()) {
            String export = "a" + i++;
            ScriptRuntime runtime = p.start(1, p.ref("h.js", export));
            try {
                Throwable e = ScriptFixture.failure(runtime.call(p.ref("h.js", export), payload(), Duration.ofSeconds(5)));
                assertInstanceOf(ScriptFailure.class, e, attempt.getKey());
                assertTrue(e.getMessage().contains(attempt.getValue()),
                        attempt.getKey() + " failed with: " + e.getMessage());
                assertFalse(e.getMessage().contains("at java.") || e.getMessage().contains("org.graalvm"),
                        "no host details: " + e.getMessage());
                assertFalse(e.getMessage().contains(dir.toRealPath().toString()), "no host paths: " + e.getMessage());
            } finally {
                ScriptFixture.await(runtime.close());
            }
        }
    }

    /**
     * A host function's Java exception reaches the caller as an internal error whether the script
     * throws it or an async function rejects with it: never its Java class and message.
     */
    @Test
    void aHostExceptionInAPromiseIsAnInternalError() throws Exception {
        // a fake typed array whose third byteLength read asks the host for more than it gives
        p.write("h.js", "export default async () => {",
                "  let reads = 0;",
                "  crypto.getRandomValues(Object.create(Uint8Array.prototype, { buffer: { value: new ArrayBuffer(4) },",
                "    byteOffset: { value: 0 }, byteLength: { get() { return ++reads < 3 ? 4 : 70000; } } }));",
                "};");
        ScriptRuntime runtime = p.start(1, p.ref("h.js"));
        try {
            Throwable e = ScriptFixture.failure(runtime.call(p.ref("h.js"), payload(), Duration.ofSeconds(5)));
            assertEquals("internal error (see the server log)", e.getMessage());
        } finally {
            ScriptFixture.await(runtime.close());
        }
    }

    @Test
    void theGlobalsAreOnlyTheLanguageAndOurs() throws Exception {
        p.write("h.js", "export default () => ({",
                "  java: typeof Java, polyglot: typeof Polyglot, process: Object.keys(process),",
                "  env: Object.keys(process.env), console: typeof console.log, fetch: typeof fetch,",
                "  host: Object.getOwnPropertyNames(globalThis).filter((n) => /java|polyglot|graal|host/i.test(n)),",
                "});");
        JsonObject globals = (JsonObject) p.callOnce(p.ref("h.js"), payload());
        assertEquals("undefined", globals.getString("java"));
        assertEquals("undefined", globals.getString("polyglot"));
        assertEquals(new io.vertx.core.json.JsonArray().add("env"), globals.getJsonArray("process"));
        assertEquals(new io.vertx.core.json.JsonArray(), globals.getJsonArray("env"), "no environment variables");
        assertEquals("function", globals.getString("console"));
        assertEquals("function", globals.getString("fetch"));
        assertEquals(new io.vertx.core.json.JsonArray(), globals.getJsonArray("host"));
    }

    @Test
    void importsOutsideTheProjectFailAtStartUp() throws Exception {
        Files.writeString(outside.resolve("secret.js"), "export default 'secret';");
        p.write("h.js", "import s from '" + outside.resolve("secret.js") + "';", "export default () => s;");
        ScriptLoadException e = assertThrows(ScriptLoadException.class, () -> p.start(1, p.ref("h.js")));
        assertTrue(e.getMessage().contains("secret.js"), e.getMessage());
    }

    @Test
    void aSymbolicLinkOutOfTheProjectIsRefused() throws Exception {
        Files.writeString(outside.resolve("index.js"), "module.exports = 'secret';");
        Files.writeString(outside.resolve("package.json"), "{\"name\": \"linked\"}");
        Files.createDirectories(dir.resolve("node_modules"));
        Files.createSymbolicLink(dir.resolve("node_modules/linked"), outside);
        p.write("h.js", "import s from 'linked';", "export default () => s;");
        ScriptLoadException e = assertThrows(ScriptLoadException.class, () -> p.start(1, p.ref("h.js")));
        assertTrue(e.getMessage().contains("linked"), e.getMessage());
    }

    @Test
    void theModuleFileSystemIsReadOnlyAndCannotList() throws Exception {
        ModuleFileSystem fs = new ModuleFileSystem(dir, java.util.List.of(dir), engine.typescript());
        p.write("a.js", "export default 1;");
        Path a = dir.toRealPath().resolve("a.js");
        assertThrows(java.nio.file.AccessDeniedException.class, () -> fs.newByteChannel(a,
                java.util.Set.of(java.nio.file.StandardOpenOption.WRITE)));
        assertThrows(java.nio.file.AccessDeniedException.class, () -> fs.delete(a));
        assertThrows(java.nio.file.AccessDeniedException.class, () -> fs.createDirectory(dir.resolve("d")));
        assertThrows(java.nio.file.AccessDeniedException.class, () -> fs.newDirectoryStream(dir, x -> true));
        assertThrows(java.nio.file.AccessDeniedException.class, () -> fs.checkAccess(Path.of("/etc/passwd"),
                java.util.Set.of()));
        assertThrows(java.nio.file.AccessDeniedException.class, () -> fs.newByteChannel(Path.of("/etc/passwd"),
                java.util.Set.of()));
        fs.checkAccess(a, java.util.Set.of(java.nio.file.AccessMode.READ));
    }
}
