package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Loads scripts once, without serving them, to find what would stop them from running: syntax
 * errors (with line and column), imports that do not resolve, a missing or non-function export,
 * top-level code that throws or does not finish in time. {@code validate} and {@code start} both
 * run it.
 */
public final class ScriptCheck {
    private final ScriptContexts contexts;

    /**
     * @param moduleFolders where module files may be loaded from besides {@code node_modules} (see
     *                      {@link ScriptAccess#moduleFolders()})
     * @param scripts       the scripts to be checked, whose folders are module folders too
     */
    public ScriptCheck(ScriptEngine engine, Path projectDir, List<Path> moduleFolders, Collection<ScriptRef> scripts)
            throws IOException {
        this.contexts = new ScriptContexts(engine, projectDir, ScriptAccess.foldersWith(moduleFolders, scripts), null);
    }

    /**
     * Loads the script in a throwaway context, its {@code process.env} holding {@code env}; its
     * top-level code is cancelled, and the check fails, when it still runs after {@code limit}.
     */
    public void check(ScriptRef script, Map<String, String> env, Duration limit) throws ScriptLoadException {
        contexts.load(script, env, limit, Watchdog.INSTANCE).close();
    }

    /** The timer that stops a check's top-level code, started with the first check. */
    private static final class Watchdog {
        static final ScheduledExecutorService INSTANCE = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hyperterse-script-check-watchdog");
            t.setDaemon(true);
            return t;
        });
    }
}
