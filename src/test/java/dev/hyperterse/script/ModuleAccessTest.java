package dev.hyperterse.script;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.hyperterse.model.ScriptRef;
import dev.hyperterse.telemetry.Metrics;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tool's {@code env:} is a security boundary: a script granted one variable can read no other,
 * not through the CommonJS loader (with its intrinsics swapped), not through {@code import()},
 * not through a link with a module's name, and no load error quotes a file it may not read.
 */
class ModuleAccessTest extends ScriptTestBase {
    private static final String OTHER_KEY = "sk-other-tool-5b1f0c";
    private static final String DB_PASSWORD = "pg-pass-91d2e7";
    private static final String GRANTED = "weather-key-3a7c";

    ListAppender<ILoggingEvent> logs;
    ch.qos.logback.classic.Logger rootLogger;
    ch.qos.logback.classic.Logger ours;
    Level oursBefore;

    @BeforeEach
    void project() throws Exception {
        p.write(".env", "OTHER_TOOL_KEY=" + OTHER_KEY, "DATABASE_PASSWORD=" + DB_PASSWORD, "WEATHER_API_KEY=" + GRANTED);
        p.write(".env.local", "LOCAL_SECRET=" + OTHER_KEY);
        p.write(".hyperterse", "name: demo", "# password: " + DB_PASSWORD);
        p.write("app/adapters/db.terse", "connector: postgres", "connection_string: postgres://u:" + DB_PASSWORD + "@h/db");
        p.write("app/tools/weather/config.terse", "handler: ./handler.js", "env: [WEATHER_API_KEY]",
                "# " + OTHER_KEY);
        p.write("app/tools/weather/broken.js", "const x = " + OTHER_KEY.replace('-', '_') + " ) (;");
        Files.createSymbolicLink(dir.resolve("app/tools/weather/leak.json"), dir.resolve(".env"));
        Files.createSymbolicLink(dir.resolve("app/tools/weather/leak.js"), dir.resolve(".env"));
        Files.createSymbolicLink(dir.resolve("app/tools/weather/config.json"), dir.resolve("app/tools/weather/config.terse"));
        logs = new ListAppender<>();
        logs.start();
        rootLogger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        rootLogger.addAppender(logs);
        ours = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("dev.hyperterse");
        oursBefore = ours.getLevel();
        ours.setLevel(Level.DEBUG);
    }

    @AfterEach
    void close() throws Exception {
        rootLogger.detachAppender(logs);
        ours.setLevel(oursBefore);
    }

    /** Each attempt as a handler body, given {@code root} (the real project folder) and {@code tool} (its folder). */
    static Map<String, String> attempts() {
        Map<String, String> a = new LinkedHashMap<>();
        // the reported escape: the loader decided "JSON?" with the script's endsWith and parsed with its JSON.parse
        a.put("swapIntrinsics", String.join("\n",
                "const ends = String.prototype.endsWith, parse = JSON.parse, starts = String.prototype.startsWith;",
                "String.prototype.endsWith = () => true; String.prototype.startsWith = () => false;",
                "JSON.parse = (t) => ({ leaked: String(t) });",
                "try { return globalThis.__hyperterse_require(root + '/.env'); }",
                "finally { String.prototype.endsWith = ends; String.prototype.startsWith = starts; JSON.parse = parse; }"));
        a.put("requireEnvLocal", "return globalThis.__hyperterse_require(root + '/.env.local');");
        a.put("requireHyperterse", "return globalThis.__hyperterse_require(root + '/.hyperterse');");
        a.put("requireTerse", "return globalThis.__hyperterse_require(tool + '/config.terse');");
        a.put("requireJsonLink", "return globalThis.__hyperterse_require(tool + '/leak.json');");
        a.put("requireJsLink", "return globalThis.__hyperterse_require(tool + '/leak.js');");
        a.put("requireTerseLink", "return globalThis.__hyperterse_require(tool + '/config.json');");
        a.put("requireBroken", "return globalThis.__hyperterse_require(tool + '/broken.js');");
        a.put("overwriteLoader", "globalThis.__hyperterse_require = (f) => f; return globalThis.__hyperterse_require(root + '/.env');");
        a.put("importEnv", "return await import(root + '/.env');");
        a.put("importEnvRelative", "return await import('../../../.env');");
        a.put("importHyperterse", "return await import(root + '/.hyperterse');");
        a.put("importTerse", "return await import('./config.terse');");
        a.put("importAdapter", "return await import(root + '/app/adapters/db.terse');");
        a.put("importJsonLink", "return await import('./leak.json');");
        a.put("importJsLink", "return await import('./leak.js');");
        a.put("importTerseLink", "return await import('./config.json');");
        a.put("importBroken", "return await import('./broken.js');");
        return a;
    }

    @Test
    void aScriptGrantedOneVariableReadsNoOtherSecret() throws Exception {
        StringBuilder module = new StringBuilder("export function env() { return process.env; }\n");
        for (Map.Entry<String, String> attempt : attempts().entrySet()) {
            module.append("export async function ").append(attempt.getKey())
                    .append("({ inputs }) { const root = inputs.root, tool = inputs.tool;\n")
                    .append(attempt.getValue()).append("\n}\n");
        }
        p.write("app/tools/weather/handler.js", module.toString());
        String root = dir.toRealPath().toString();
        JsonObject payload = new JsonObject().put("tool", "weather").put("inputs", new JsonObject()
                .put("root", root).put("tool", root + "/app/tools/weather"));
        List<ScriptRuntime.Use> uses = new ArrayList<>();
        uses.add(new ScriptRuntime.Use("weather", ref("env"), Map.of("WEATHER_API_KEY", GRANTED)));
        for (String name : attempts().keySet()) {
            uses.add(new ScriptRuntime.Use("weather", ref(name), Map.of("WEATHER_API_KEY", GRANTED)));
        }
        ScriptRuntime runtime = ScriptFixture.await(ScriptRuntime.start(p.vertx, engine, dir, uses, 2,
                Duration.ofSeconds(5), Metrics.NONE, new ScriptAccess(List.of(dir.resolve("app")), FetchRules.OPEN)));
        try {
            assertEquals(new JsonObject().put("WEATHER_API_KEY", GRANTED),
                    ScriptFixture.await(runtime.call("weather", ref("env"), payload, Duration.ofSeconds(5))),
                    "the granted variable, and only it");
            for (String name : attempts().keySet()) {
                String outcome;
                try {
                    outcome = "result: " + ScriptFixture.await(runtime.call("weather", ref(name), payload,
                            Duration.ofSeconds(5)));
                } catch (ScriptFailure e) {
                    outcome = "error: " + e.getMessage();
                }
                assertNoSecret(name, outcome);
                assertTrue(outcome.startsWith("error: "), name + " must fail, got " + outcome);
                assertFalse(outcome.contains(" ) (;"), name + " quotes the source: " + outcome);
            }
        } finally {
            ScriptFixture.await(runtime.close());
        }
        for (ILoggingEvent event : logs.list) {
            assertNoSecret("log line", event.getFormattedMessage());
            for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
                assertNoSecret("logged exception", String.valueOf(t.getMessage()));
            }
        }
    }

    @Test
    void theFileSystemServesOnlyModuleFilesFromModuleFolders() throws Exception {
        p.write("app/lib/shared.ts", "export const x = 1;");
        p.write("app/tools/weather/data.json", "{\"a\": 1}");
        p.write("app/tools/weather/.hidden.js", "export default 1;");
        p.write("app/.secrets/keys.js", "export default 1;");
        p.write("scripts/elsewhere.js", "export default 1;");
        p.write("node_modules/.pnpm/pkg@1/node_modules/pkg/index.js", "module.exports = 1;");
        ModuleFileSystem fs = new ModuleFileSystem(dir, List.of(dir.resolve("app")), engine.typescript());
        Path root = dir.toRealPath();
        for (String allowed : List.of("app/lib/shared.ts", "app/tools/weather/data.json",
                "node_modules/.pnpm/pkg@1/node_modules/pkg/index.js")) {
            assertTrue(fs.content(root.resolve(allowed)).length > 0, allowed);
        }
        for (String refused : List.of(".env", ".env.local", ".hyperterse", "app/adapters/db.terse",
                "app/tools/weather/config.terse", "app/tools/weather/leak.json", "app/tools/weather/leak.js",
                "app/tools/weather/config.json", "app/tools/weather/.hidden.js", "app/.secrets/keys.js",
                "scripts/elsewhere.js", ".env.production")) {
            Path file = root.resolve(refused);
            assertThrows(AccessDeniedException.class, () -> fs.content(file), refused);
            assertThrows(AccessDeniedException.class, () -> fs.checkAccess(file, Set.of()), refused);
            assertThrows(AccessDeniedException.class, () -> fs.newByteChannel(file, Set.of()), refused);
            assertThrows(AccessDeniedException.class, () -> fs.toRealPath(file), refused);
            assertThrows(AccessDeniedException.class, () -> fs.moduleFile(file), refused);
        }
    }

    private ScriptRef ref(String export) {
        return p.ref("app/tools/weather/handler.js", export);
    }

    private static void assertNoSecret(String what, String text) {
        assertFalse(text.contains(OTHER_KEY) || text.contains(DB_PASSWORD) || text.contains("OTHER_TOOL_KEY")
                        || text.contains("DATABASE_PASSWORD") || text.contains(OTHER_KEY.replace('-', '_')),
                what + " leaks a secret: " + text);
    }
}
