package dev.hyperterse.script;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * What script tests share: one {@link ScriptEngine} for the test class, and for each test a fresh
 * {@link ScriptFixture} {@code p} on its own scratch folder {@code dir}. A subclass's own
 * {@code @BeforeEach} runs after {@code p} exists, its {@code @AfterEach} before {@code p} closes.
 */
abstract class ScriptTestBase {
    static ScriptEngine engine;
    @TempDir
    Path dir;
    ScriptFixture p;

    @BeforeAll
    static void startEngine() {
        engine = ScriptEngine.create();
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    @BeforeEach
    void newFixture() {
        p = new ScriptFixture(dir, engine);
    }

    @AfterEach
    void closeFixture() throws Exception {
        p.close();
    }
}
