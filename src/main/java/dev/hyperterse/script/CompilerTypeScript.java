package dev.hyperterse.script;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Strips types with the TypeScript compiler itself ({@code ts.transpileModule}), run in GraalJS:
 * the portable way, for platforms where swc4j has no native library. It costs far more than swc:
 * the compiler (9 MB of JavaScript) is parsed and run once per process, on the first file that
 * needs it, and each file then takes tens to hundreds of milliseconds (bench/RESULTS.md).
 *
 * <p>The compiler's code is parsed once into the shared engine (the {@link Source} is kept, so
 * the engine's cache holds on to it) and runs in one context of its own: sandboxed like a
 * script's (no host access, no I/O), used by one thread at a time, from worker threads only.
 */
final class CompilerTypeScript implements TypeScriptStripper.Stripper {
    /** The compiler version the pom bundles (its {@code typescript.version}). */
    static final String VERSION = "6.0.3";
    /** Where the WebJar keeps the compiler, in the jar. */
    static final String RESOURCE = "META-INF/resources/webjars/typescript/" + VERSION + "/lib/typescript.js";

    private static final Logger LOG = LoggerFactory.getLogger(CompilerTypeScript.class);

    private final Engine engine;
    /** Guarded by {@code this}: created on the first file, then used by one thread at a time. */
    private Source compilerSource;
    private Context context;
    private Value strip;

    CompilerTypeScript(Engine engine) {
        this.engine = engine;
    }

    @Override
    public String strip(Path file, String source) throws ScriptLoadException {
        if (io.vertx.core.Context.isOnEventLoopThread()) {
            throw new IllegalStateException("TypeScript is stripped on worker threads, never on an event loop");
        }
        String message;
        int line;
        int column;
        // the result is read within the lock too: its values live in the compiler's context, which
        // one thread at a time may enter
        synchronized (this) {
            Value function = function(file);
            try {
                Value result = function.execute(source, file.getFileName().toString());
                if (result.getArraySize() == 1) {
                    return result.getArrayElement(0).asString();
                }
                message = result.getArrayElement(1).asString();
                line = result.getArrayElement(2).asInt();
                column = result.getArrayElement(3).asInt();
            } catch (PolyglotException e) {
                if (e.isCancelled() || e.isExit() || e.isInternalError()) {
                    discard();
                }
                throw new ScriptLoadException(file, 0, 0, "the TypeScript compiler failed on this file: "
                        + e.getMessage());
            }
        }
        return throwSyntaxError(file, line, column, message);
    }

    @Override
    public String describe() {
        return "the TypeScript compiler " + VERSION + " in GraalJS (portable; loaded with the first .ts file)";
    }

    /** Always throws: the return type lets {@link #strip} end with it. */
    private static String throwSyntaxError(Path file, int line, int column, String message)
            throws ScriptLoadException {
        // "';' expected." as swc words its errors: "SyntaxError: ';' expected"
        String reason = message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
        throw new ScriptLoadException(file, line, column, "SyntaxError: " + reason);
    }

    /** The compiler's strip function, loading the compiler first if this is the first file. */
    private Value function(Path file) throws ScriptLoadException {
        if (strip != null) {
            return strip;
        }
        long started = System.nanoTime();
        try {
            if (compilerSource == null) {
                compilerSource = Source.newBuilder("js", resource(RESOURCE), "typescript.js").build();
            }
            Context created = ScriptContexts.sandbox(engine).build();
            try {
                created.eval(compilerSource);
                strip = created.eval(Source.newBuilder("js", resource("dev/hyperterse/script/typescript-strip.js"),
                        "hyperterse-typescript-strip.js").internal(true).build());
            } catch (PolyglotException | IllegalStateException e) {
                created.close(true);
                throw e;
            }
            context = created;
        } catch (IOException | PolyglotException | IllegalStateException e) {
            throw new ScriptLoadException(file, 0, 0, "the TypeScript compiler " + VERSION + " does not load: "
                    + e.getMessage());
        }
        LOG.info("scripts: TypeScript compiler {} loaded in {} ms (for {})", VERSION,
                (System.nanoTime() - started) / 1_000_000, file.getFileName());
        return strip;
    }

    /** After a cancelled or broken run: the next file starts a fresh context (the parsed code stays cached). */
    private void discard() {
        Context c = context;
        context = null;
        strip = null;
        if (c != null) {
            try {
                c.close(true);
            } catch (PolyglotException | IllegalStateException ignored) {
                // already closed with the engine
            }
        }
    }

    private static String resource(String name) throws IOException {
        ClassLoader loader = CompilerTypeScript.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
