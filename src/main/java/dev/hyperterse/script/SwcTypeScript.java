package dev.hyperterse.script;

import com.caoccao.javet.swc4j.Swc4j;
import com.caoccao.javet.swc4j.Swc4jLibLoader;
import com.caoccao.javet.swc4j.enums.Swc4jMediaType;
import com.caoccao.javet.swc4j.enums.Swc4jSourceMapOption;
import com.caoccao.javet.swc4j.exceptions.Swc4jCoreException;
import com.caoccao.javet.swc4j.interfaces.ISwc4jLibLoadingListener;
import com.caoccao.javet.swc4j.options.Swc4jDecoratorsTranspileOption;
import com.caoccao.javet.swc4j.options.Swc4jTranspileOptions;

import java.io.File;
import java.net.MalformedURLException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strips types with swc, in-process through swc4j's native library (the fast way: about a
 * millisecond a file). Exists where the jar holds the platform's library (see
 * {@link TypeScriptPlatform}).
 */
final class SwcTypeScript implements TypeScriptStripper.Stripper {
    // swc reports "SyntaxError: reason\n  |\n1 | code\n  |   ~\n    at file:///path:LINE:COLUMN"
    private static final Pattern POSITION = Pattern.compile("at \\S+:(\\d+):(\\d+)\\s*$");

    private final Swc4j swc;
    /** Keeps swc4j's native panic reports (one per syntax error) out of the log. */
    private final NativeStderrCapture stderr;

    private SwcTypeScript(Swc4j swc, NativeStderrCapture stderr) {
        this.swc = swc;
        this.stderr = stderr;
    }

    /**
     * Loads the native library.
     *
     * @return null, with {@code why} holding the reason, when this platform or jar has no library
     *         or it does not load
     */
    static SwcTypeScript load(StringBuilder why) {
        TypeScriptPlatform platform = TypeScriptPlatform.current();
        String unavailable = platform.unavailableReason(Swc4j.class.getClassLoader());
        if (unavailable != null) {
            why.append(unavailable);
            return null;
        }
        try {
            Swc4jLibLoader.setLibLoadingListener(new PerUserLibFolder());
            Swc4j swc = new Swc4j();
            // swc4j logs a library that does not load (an unwritable folder, another C library such
            // as musl) and carries on: the first native call is what fails
            swc.getVersion();
            return new SwcTypeScript(swc, NativeStderrCapture.forThisProcess());
        } catch (LinkageError e) {
            why.append("swc4j's native library does not load on ").append(platform.label()).append(": ").append(e);
            return null;
        }
    }

    @Override
    public String strip(Path file, String source) throws ScriptLoadException {
        Swc4jTranspileOptions options;
        try {
            options = new Swc4jTranspileOptions()
                    .setMediaType(mediaType(file))
                    .setSpecifier(file.toUri().toURL())
                    .setSourceMap(Swc4jSourceMapOption.None)
                    .setInlineSources(false)
                    .setKeepComments(false)
                    // standard (TC39) decorators lowered to plain JavaScript, as the TypeScript
                    // compiler does: GraalJS does not parse decorator syntax
                    .setDecorators(Swc4jDecoratorsTranspileOption.Ecma());
        } catch (MalformedURLException e) {
            throw new ScriptLoadException(file, 0, 0, "cannot name the file for the TypeScript compiler: " + e.getMessage());
        }
        try {
            return stderr.run(() -> swc.transpile(source, options)).getCode();
        } catch (Swc4jCoreException e) {
            throw syntaxError(file, String.valueOf(e.getMessage()));
        } catch (UnsatisfiedLinkError e) {
            // swc4j logs why its library did not load (e.g. an unwritable folder) and carries on
            throw new ScriptLoadException(file, 0, 0, "the TypeScript compiler's native library is not loaded on "
                    + TypeScriptPlatform.current().label() + " (the log above says why)");
        }
    }

    @Override
    public String describe() {
        return "swc (swc4j " + TypeScriptPlatform.SWC4J_VERSION + ", native, " + TypeScriptPlatform.current().label()
                + (stderr.capturing() ? "" : ", native panic reports not captured") + ")";
    }

    private static Swc4jMediaType mediaType(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".mts") ? Swc4jMediaType.Mts : name.endsWith(".cts") ? Swc4jMediaType.Cts
                : Swc4jMediaType.TypeScript;
    }

    /**
     * swc4j copies its library to {@code <tmp>/swc4j} by default: a folder the first user on a
     * machine creates and every other user then cannot write. One folder per user instead.
     */
    private static final class PerUserLibFolder implements ISwc4jLibLoadingListener {
        @Override
        public File getLibPath() {
            String user = System.getProperty("user.name", "").replaceAll("[^A-Za-z0-9._-]", "_");
            return new File(System.getProperty("java.io.tmpdir"), "swc4j-" + user);
        }
    }

    static ScriptLoadException syntaxError(Path file, String message) {
        String[] lines = message.split("\n");
        String reason = lines[0].strip();
        int line = 0;
        int column = 0;
        for (int i = lines.length - 1; i >= 0; i--) {
            Matcher m = POSITION.matcher(lines[i].strip());
            if (m.find()) {
                line = Integer.parseInt(m.group(1));
                column = Integer.parseInt(m.group(2));
                break;
            }
        }
        return new ScriptLoadException(file, line, column, reason);
    }
}
