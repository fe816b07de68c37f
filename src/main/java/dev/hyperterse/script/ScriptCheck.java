package dev.hyperterse.script;

import dev.hyperterse.model.ScriptRef;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Loads scripts once, without serving them, to find what would stop them from running: syntax
 * errors (with line and column), imports that do not resolve, a missing or non-function export,
 * top-level code that throws. {@code validate} and {@code start} both run it.
 */
public final class ScriptCheck {
    private final ScriptContexts contexts;

    public ScriptCheck(ScriptEngine engine, Path projectDir) throws IOException {
        this.contexts = new ScriptContexts(engine, projectDir, null);
    }

    /** Loads the script in a throwaway context, its {@code process.env} holding {@code env}. */
    public void check(ScriptRef script, Map<String, String> env) throws ScriptLoadException {
        contexts.load(script, env).close();
    }
}
