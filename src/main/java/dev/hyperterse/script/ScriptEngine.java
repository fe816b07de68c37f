package dev.hyperterse.script;

import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.Source;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The one GraalJS engine of the process, shared by every script context so that code parsed
 * (and, on the optimizing runtime, compiled) once serves all contexts, and the TypeScript
 * stripper whose cache goes with it. Hot reloads reuse it; the process closes it at exit.
 */
public final class ScriptEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptEngine.class);
    private static final String INTERPRETED = "Interpreted";

    private final Engine engine;
    private final TypeScriptStripper typescript;
    private final Source bootstrap;
    private final Source webGlobals;
    private final ScriptDiskCache disk;
    /** What a script's check depends on besides the script: the engine's version and the sandbox's own code. */
    private final String fingerprint;

    private ScriptEngine(Engine engine, TypeScriptStripper.Choice typescript, Source bootstrap, Source webGlobals,
                         ScriptDiskCache disk) {
        this.engine = engine;
        this.typescript = new TypeScriptStripper(typescript, engine, disk);
        this.bootstrap = bootstrap;
        this.webGlobals = webGlobals;
        this.disk = disk;
        this.fingerprint = ScriptDiskCache.key(engine.getVersion(), typescript.word(),
                bootstrap.getCharacters().toString(), webGlobals.getCharacters().toString());
    }

    /**
     * {@link #create(TypeScriptStripper.Choice)} with the TypeScript stripper the environment
     * chooses ({@code HYPERTERSE_TYPESCRIPT}, else {@code -Dhyperterse.typescript}, else auto).
     *
     * @throws IllegalArgumentException when the variable or property holds another word
     */
    public static ScriptEngine create() {
        return create(TypeScriptStripper.Choice.fromProcess());
    }

    /** Starts the engine and logs whether the optimizing compiler is active and which TypeScript stripper runs. */
    public static ScriptEngine create(TypeScriptStripper.Choice typescript) {
        return create(typescript, ScriptDiskCache.NONE);
    }

    /**
     * Like {@link #create(TypeScriptStripper.Choice)}, keeping stripped TypeScript and passed
     * script checks in {@code disk} between starts.
     */
    public static ScriptEngine create(TypeScriptStripper.Choice typescript, ScriptDiskCache disk) {
        long started = System.nanoTime();
        Engine engine = Engine.newBuilder("js")
                // the fallback-runtime warning goes to stderr unconditionally; this class logs the mode instead
                .option("engine.WarnInterpreterOnly", "false")
                .logHandler(new SLF4JBridgeHandler())
                .build();
        ScriptEngine scripts = new ScriptEngine(engine, typescript, internalSource("bootstrap.js"),
                internalSource("web-globals.js"), disk);
        long ms = (System.nanoTime() - started) / 1_000_000;
        if (scripts.optimizing()) {
            LOG.info("scripts: GraalJS with the optimizing compiler ({}), engine ready in {} ms",
                    engine.getImplementationName(), ms);
        } else {
            LOG.info("scripts: GraalJS interpreted ({}: no optimizing compiler on this JVM; docs/scripts.md has the "
                    + "JDK 25 launch line that enables it), engine ready in {} ms", engine.getImplementationName(), ms);
        }
        LOG.info("scripts: TypeScript is stripped by {}", scripts.typescript.plan());
        return scripts;
    }

    /** True when Truffle found the Graal compiler (JDK 25 with JVMCI and the compiler jars). */
    public boolean optimizing() {
        return !INTERPRETED.equals(engine.getImplementationName());
    }

    /** {@code Interpreted}, or the name of the optimizing runtime. */
    public String mode() {
        return engine.getImplementationName();
    }

    Engine engine() {
        return engine;
    }

    /** Strips TypeScript for every context of this engine (one cache, one compiler). */
    public TypeScriptStripper typescript() {
        return typescript;
    }

    /** Where stripped TypeScript and passed checks are kept between starts. */
    ScriptDiskCache disk() {
        return disk;
    }

    String fingerprint() {
        return fingerprint;
    }

    Source bootstrap() {
        return bootstrap;
    }

    /** The web platform globals npm packages assume (crypto, TextEncoder, URL, …): see web-globals.js. */
    Source webGlobals() {
        return webGlobals;
    }

    @Override
    public void close() {
        engine.close(true);
    }

    private static Source internalSource(String resource) {
        try (InputStream in = ScriptEngine.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return Source.newBuilder("js", new String(in.readAllBytes(), StandardCharsets.UTF_8), "hyperterse-" + resource)
                    .internal(true)
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
