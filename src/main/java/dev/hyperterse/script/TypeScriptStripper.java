package dev.hyperterse.script;

import com.caoccao.javet.swc4j.Swc4j;
import com.caoccao.javet.swc4j.Swc4jLibLoader;
import com.caoccao.javet.swc4j.enums.Swc4jMediaType;
import com.caoccao.javet.swc4j.enums.Swc4jSourceMapOption;
import com.caoccao.javet.swc4j.exceptions.Swc4jCoreException;
import com.caoccao.javet.swc4j.interfaces.ISwc4jLibLoadingListener;
import com.caoccao.javet.swc4j.options.Swc4jTranspileOptions;

import java.io.File;
import java.net.MalformedURLException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns TypeScript into JavaScript by removing types (swc, in-process through swc4j's native
 * library: no Node at run time). Output is cached by the SHA-256 of the source text, so a file is
 * stripped once however many contexts load it, and an unchanged file costs nothing on reload.
 */
public final class TypeScriptStripper {
    // swc reports "SyntaxError: reason\n  |\n1 | code\n  |   ~\n    at file:///path:LINE:COLUMN"
    private static final Pattern POSITION = Pattern.compile("at \\S+:(\\d+):(\\d+)\\s*$");

    private final Map<String, String> stripped = new ConcurrentHashMap<>();
    private volatile Compiler compiler;

    /** swc4j, and the standard-error capture that keeps its native panic reports out of the log. */
    private record Compiler(Swc4j swc, NativeStderrCapture stderr) {
    }

    /**
     * @param file   the file the source came from, for error positions
     * @return JavaScript with the same module structure
     * @throws ScriptLoadException with the line and column of a syntax error
     */
    public String strip(Path file, String source) throws ScriptLoadException {
        String key = sha256(source);
        String cached = stripped.get(key);
        if (cached != null) {
            return cached;
        }
        Swc4jTranspileOptions options;
        try {
            options = new Swc4jTranspileOptions()
                    .setMediaType(mediaType(file))
                    .setSpecifier(file.toUri().toURL())
                    .setSourceMap(Swc4jSourceMapOption.None)
                    .setInlineSources(false)
                    .setKeepComments(false);
        } catch (MalformedURLException e) {
            throw new ScriptLoadException(file, 0, 0, "cannot name the file for the TypeScript compiler: " + e.getMessage());
        }
        String code;
        try {
            Compiler c = compiler(file);
            code = c.stderr().run(() -> c.swc().transpile(source, options)).getCode();
        } catch (Swc4jCoreException e) {
            throw syntaxError(file, String.valueOf(e.getMessage()));
        } catch (UnsatisfiedLinkError e) {
            // swc4j logs why its library did not load (e.g. an unwritable folder) and carries on
            throw new ScriptLoadException(file, 0, 0, "the TypeScript compiler's native library is not loaded on "
                    + TypeScriptPlatform.current().label() + " (the log above says why)");
        }
        stripped.put(key, code);
        return code;
    }

    /** True for the file names this stripper handles ({@code .ts}, {@code .mts}, {@code .cts}). */
    public static boolean isTypeScript(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".ts") || name.endsWith(".mts") || name.endsWith(".cts");
    }

    private static Swc4jMediaType mediaType(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".mts") ? Swc4jMediaType.Mts : name.endsWith(".cts") ? Swc4jMediaType.Cts
                : Swc4jMediaType.TypeScript;
    }

    /**
     * The native library loads on first use, so projects without TypeScript never load it. A
     * platform without the library is a load error of the file that needs it, saying what to do.
     */
    private Compiler compiler(Path file) throws ScriptLoadException {
        Compiler c = compiler;
        if (c == null) {
            synchronized (this) {
                c = compiler;
                if (c == null) {
                    String unavailable = TypeScriptPlatform.current().unavailableReason(Swc4j.class.getClassLoader());
                    if (unavailable != null) {
                        throw new ScriptLoadException(file, 0, 0, unavailable);
                    }
                    try {
                        Swc4jLibLoader.setLibLoadingListener(new PerUserLibFolder());
                        c = new Compiler(new Swc4j(), NativeStderrCapture.forThisProcess());
                    } catch (LinkageError e) {
                        throw new ScriptLoadException(file, 0, 0, "the TypeScript compiler's native library does "
                                + "not load on " + TypeScriptPlatform.current().label() + ": " + e);
                    }
                    compiler = c;
                }
            }
        }
        return c;
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

    private static String sha256(String source) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
