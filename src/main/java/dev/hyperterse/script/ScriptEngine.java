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
 *
 * <p>GraalJS itself starts on first use (a script's load, its check, the TypeScript compiler),
 * not when this is made: a start whose scripts all passed their checks before (see
 * {@link ScriptCheck}) serves before it, and the scripts' loading after serving starts it.
 */
public final class ScriptEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptEngine.class);
    private static final String INTERPRETED = "Interpreted";

    private final TypeScriptStripper typescript;
    private final String bootstrapCode;
    private final String webGlobalsCode;
    private final ScriptDiskCache disk;
    /** What a script's check depends on besides the script: GraalJS's and the JVM's versions, the sandbox's own code. */
    private final String fingerprint;
    /** GraalJS and the sandbox's sources on it, once started; null before. */
    private volatile Started started;
    private boolean closed;

    private record Started(Engine engine, Source bootstrap, Source webGlobals) {
    }

    private ScriptEngine(TypeScriptStripper.Choice typescript, String bootstrapCode, String webGlobalsCode,
                         ScriptDiskCache disk) {
        this.typescript = new TypeScriptStripper(typescript, this::engine, disk);
        this.bootstrapCode = bootstrapCode;
        this.webGlobalsCode = webGlobalsCode;
        this.disk = disk;
        // the JVM too: a passed check is not carried over to another JVM (or one with another compiler)
        this.fingerprint = ScriptDiskCache.key(GRAALJS_VERSION, System.getProperty("java.vm.version", ""),
                System.getProperty("java.home", ""), typescript.word(), bootstrapCode, webGlobalsCode);
    }

    /** The GraalVM polyglot version in the jar (what {@code Engine.getVersion()} answers), read without starting it. */
    static final String GRAALJS_VERSION = resource("/META-INF/graalvm/org.graalvm.polyglot/version").trim();

    /**
     * {@link #create(TypeScriptStripper.Choice)} with the TypeScript stripper the environment
     * chooses ({@code HYPERTERSE_TYPESCRIPT}, else {@code -Dhyperterse.typescript}, else auto).
     *
     * @throws IllegalArgumentException when the variable or property holds another word
     */
    public static ScriptEngine create() {
        return create(TypeScriptStripper.Choice.fromProcess());
    }

    /** The engine, and which TypeScript stripper runs (logged); GraalJS starts on first use. */
    public static ScriptEngine create(TypeScriptStripper.Choice typescript) {
        return create(typescript, ScriptDiskCache.NONE);
    }

    /**
     * Like {@link #create(TypeScriptStripper.Choice)}, keeping stripped TypeScript and passed
     * script checks in {@code disk} between starts.
     */
    public static ScriptEngine create(TypeScriptStripper.Choice typescript, ScriptDiskCache disk) {
        ScriptEngine scripts = new ScriptEngine(typescript, resource("bootstrap.js"), resource("web-globals.js"), disk);
        LOG.info("scripts: TypeScript is stripped by {}", scripts.typescript.plan());
        return scripts;
    }

    /** GraalJS, started on the first call (which logs whether the optimizing compiler is active). */
    private Started started() {
        Started s = started;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (started != null) {
                return started;
            }
            if (closed) {
                throw new IllegalStateException("the script engine is closed");
            }
            long t0 = System.nanoTime();
            Engine engine = Engine.newBuilder("js")
                    // the fallback-runtime warning goes to stderr unconditionally; this class logs the mode instead
                    .option("engine.WarnInterpreterOnly", "false")
                    .logHandler(new SLF4JBridgeHandler())
                    .build();
            started = new Started(engine, internalSource("bootstrap.js", bootstrapCode),
                    internalSource("web-globals.js", webGlobalsCode));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (!INTERPRETED.equals(engine.getImplementationName())) {
                LOG.info("scripts: GraalJS with the optimizing compiler ({}), engine ready in {} ms",
                        engine.getImplementationName(), ms);
            } else {
                LOG.info("scripts: GraalJS interpreted ({}: no optimizing compiler on this JVM; docs/scripts.md has the "
                        + "JDK 25 launch line that enables it), engine ready in {} ms", engine.getImplementationName(), ms);
            }
            return started;
        }
    }

    /** True when Truffle found the Graal compiler (JDK 25 with JVMCI and the compiler jars). */
    public boolean optimizing() {
        return !INTERPRETED.equals(mode());
    }

    /** {@code Interpreted}, or the name of the optimizing runtime. */
    public String mode() {
        return engine().getImplementationName();
    }

    /** Whether GraalJS has started (a script loaded, a check ran, or the TypeScript compiler was used). */
    public boolean hasStarted() {
        return started != null;
    }

    /** GraalJS (started now if it was not yet). */
    Engine engine() {
        return started().engine();
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
        return started().bootstrap();
    }

    /** The web platform globals npm packages assume (crypto, TextEncoder, URL, …): see web-globals.js. */
    Source webGlobals() {
        return started().webGlobals();
    }

    @Override
    public void close() {
        Started s;
        synchronized (this) {
            closed = true;
            s = started;
        }
        if (s != null) {
            s.engine().close(true);
        }
    }

    private static Source internalSource(String name, String code) {
        return Source.newBuilder("js", code, "hyperterse-" + name).internal(true).buildLiteral();
    }

    private static String resource(String resource) {
        try (InputStream in = ScriptEngine.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
