package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Loads scripts once, without serving them, to find what would stop them from running: syntax
 * errors (with line and column), imports that do not resolve, a missing or non-function export,
 * top-level code that throws or does not finish in time. {@code validate} and {@code start} both
 * run it.
 */
public final class ScriptCheck {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptCheck.class);

    private final ScriptEngine engine;
    private final ScriptContexts contexts;

    /**
     * @param moduleFolders where module files may be loaded from besides {@code node_modules} (see
     *                      {@link ScriptAccess#moduleFolders()})
     * @param scripts       the scripts to be checked, whose folders are module folders too
     */
    public ScriptCheck(ScriptEngine engine, Path projectDir, List<Path> moduleFolders, Collection<ScriptRef> scripts)
            throws IOException {
        this.engine = engine;
        this.contexts = new ScriptContexts(engine, projectDir, ScriptAccess.foldersWith(moduleFolders, scripts), null);
    }

    /**
     * Loads the script in a throwaway context, its {@code process.env} holding {@code env}; its
     * top-level code is cancelled, and the check fails, when it still runs after {@code limit}.
     * A check that passed before, for the same script, export, limit and variables, with every
     * file its load read unchanged, is not run again (see {@link ScriptDiskCache}). Safe to call
     * from several threads at once.
     *
     * @return false when the check passed before and did not run again
     */
    public boolean check(ScriptRef script, Map<String, String> env, Duration limit) throws ScriptLoadException {
        List<String> parts = new ArrayList<>(List.of("check 1", engine.fingerprint(), contexts.root().toString(),
                script.file().toAbsolutePath().normalize().toString(), script.exportName(),
                String.valueOf(limit.toMillis())));
        // the variables' names and whether each is set, never their values (which may be secrets)
        new TreeMap<>(env).forEach((name, value) -> parts.add(name + (value.isEmpty() ? "" : "=set")));
        String key = ScriptDiskCache.key(parts);
        ScriptDiskCache disk = engine.disk();
        if (disk.passed(key)) {
            return false;
        }
        long started = System.nanoTime();
        Set<Path> read = contexts.files().recordingReads(
                () -> contexts.load(script, env, limit, Watchdog.INSTANCE).close());
        LOG.debug("script {} checked in {} ms", contexts.displayName(script.file()), (System.nanoTime() - started) / 1_000_000);
        Set<Path> all = new LinkedHashSet<>();
        try {
            all.add(script.file().toRealPath());
        } catch (IOException e) {
            return true; // gone since it loaded: nothing worth keeping
        }
        all.addAll(read);
        disk.storePassed(key, all);
        return true;
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
