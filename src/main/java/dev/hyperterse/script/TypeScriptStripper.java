package dev.hyperterse.script;

import org.graalvm.polyglot.Engine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Turns TypeScript into JavaScript by removing types: no Node at run time, no type checking.
 * Two strippers give the same JavaScript for the server's purposes:
 * <ul>
 *   <li>swc, in-process through swc4j's native library: about a millisecond a file, on the
 *   platforms swc4j publishes a library for (Linux x86_64, macOS arm64, Windows x86_64) when the
 *   jar holds it;</li>
 *   <li>the TypeScript compiler run in GraalJS: portable, but the compiler takes seconds to load
 *   and each file tens to hundreds of milliseconds.</li>
 * </ul>
 * {@link Choice#AUTO} takes swc where it loads and the compiler elsewhere. Output is cached by the
 * SHA-256 of the source text, so a file is stripped once however many contexts load it, and an
 * unchanged file costs nothing on reload; with a {@link ScriptDiskCache}, nor at the next start.
 */
public final class TypeScriptStripper {
    private static final Logger LOG = LoggerFactory.getLogger(TypeScriptStripper.class);
    /** The environment variable and system property that choose the stripper ({@link Choice}). */
    public static final String VARIABLE = "HYPERTERSE_TYPESCRIPT";
    public static final String PROPERTY = "hyperterse.typescript";

    /** Which stripper to use. */
    public enum Choice {
        /** swc where its native library loads, else the TypeScript compiler. */
        AUTO,
        /** swc only: a {@code .ts} file fails to load where swc4j has no native library. */
        SWC,
        /** The TypeScript compiler in GraalJS, even where swc would load. */
        TYPESCRIPT;

        /** As written on the command line and in {@value #VARIABLE}: {@code auto}, {@code swc}, {@code typescript}. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param source where the text was written, for the error ({@code --typescript}, {@value #VARIABLE})
         * @throws IllegalArgumentException naming the source and the accepted words
         */
        public static Choice parse(String text, String source) {
            for (Choice c : values()) {
                if (c.word().equals(text.strip().toLowerCase(Locale.ROOT))) {
                    return c;
                }
            }
            throw new IllegalArgumentException(source + " must be auto, swc or typescript, not '" + text + "'");
        }

        /**
         * The {@value #VARIABLE} variable, else the {@value #PROPERTY} property, else {@link #AUTO}
         * (the variable wins, as {@code HYPERTERSE_*} variables do over {@code hyperterse.*} properties).
         *
         * @throws IllegalArgumentException naming the variable or property when it holds another word
         */
        public static Choice from(Map<String, String> environment, Map<String, String> properties) {
            String variable = environment.get(VARIABLE);
            if (variable != null && !variable.isBlank()) {
                return parse(variable, VARIABLE);
            }
            String property = properties.get(PROPERTY);
            if (property != null && !property.isBlank()) {
                return parse(property, "-D" + PROPERTY);
            }
            return AUTO;
        }

        /** {@link #from} this process's environment and system properties. */
        public static Choice fromProcess() {
            return from(System.getenv(), processProperty());
        }

        /** The {@value #PROPERTY} system property, as a map {@link #from} reads. */
        public static Map<String, String> processProperty() {
            String property = System.getProperty(PROPERTY);
            return property == null ? Map.of() : Map.of(PROPERTY, property);
        }
    }

    /** One way of stripping types. */
    interface Stripper {
        /**
         * @return JavaScript with the same module structure
         * @throws ScriptLoadException with the line and column of a syntax error
         */
        String strip(Path file, String source) throws ScriptLoadException;

        /** For the log: which stripper this is. */
        String describe();
    }

    private final Choice choice;
    private final Supplier<Engine> engine;
    private final ScriptDiskCache disk;
    private final Map<String, String> stripped = new ConcurrentHashMap<>();
    private volatile Stripper stripper;
    /** Why swc is not used (for {@link Choice#SWC}, the error every file gets); null until decided. */
    private volatile String swcUnavailable;

    /** @param engine the shared GraalJS engine, where the TypeScript compiler runs when it is used */
    public TypeScriptStripper(Choice choice, Engine engine) {
        this(choice, () -> engine, ScriptDiskCache.NONE);
    }

    /** @see #TypeScriptStripper(Choice, Supplier, ScriptDiskCache) */
    public TypeScriptStripper(Choice choice, Engine engine, ScriptDiskCache disk) {
        this(choice, () -> engine, disk);
    }

    /**
     * @param engine the shared GraalJS engine, asked for only when the TypeScript compiler is used
     * @param disk   where stripped JavaScript is kept between starts, so a file stripped once is
     *             never stripped again while unchanged (and a start whose files are all there loads
     *             neither swc nor the compiler)
     */
    public TypeScriptStripper(Choice choice, Supplier<Engine> engine, ScriptDiskCache disk) {
        this.choice = choice;
        this.engine = engine;
        this.disk = disk;
    }

    public Choice choice() {
        return choice;
    }

    /**
     * Which stripper {@code .ts} files will get, for the start-up log; decides without loading
     * anything (whether swc's library is in the jar for this platform, not whether it loads).
     */
    public String plan() {
        Stripper s = stripper;
        if (s != null) {
            return s.describe();
        }
        String missing = TypeScriptPlatform.current().unavailableReason(TypeScriptStripper.class.getClassLoader());
        return switch (choice) {
            case TYPESCRIPT -> "the TypeScript compiler " + CompilerTypeScript.VERSION
                    + " in GraalJS (" + VARIABLE + "=typescript; loaded with the first .ts file)";
            case SWC -> missing == null ? "swc (native, " + TypeScriptPlatform.current().label() + ")"
                    : "none (" + VARIABLE + "=swc, but " + missing + ")";
            case AUTO -> missing == null ? "swc (native, " + TypeScriptPlatform.current().label() + ")"
                    : "the TypeScript compiler " + CompilerTypeScript.VERSION + " in GraalJS (portable, slower; "
                    + "loaded with the first .ts file), because " + missing;
        };
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
        // what the output depends on: the source, how .ts/.mts/.cts reads, and the strippers' versions
        String diskKey = ScriptDiskCache.key("typescript 1", choice.word(), TypeScriptPlatform.SWC4J_VERSION,
                CompilerTypeScript.VERSION, extension(file), source);
        String code = disk.stripped(diskKey);
        if (code == null) {
            code = stripper(file).strip(file, source);
            disk.storeStripped(diskKey, code);
        }
        stripped.put(key, code);
        return code;
    }

    private static String extension(Path file) {
        String name = file.getFileName().toString();
        return name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    }

    /** True for the file names this stripper handles ({@code .ts}, {@code .mts}, {@code .cts}). */
    public static boolean isTypeScript(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".ts") || name.endsWith(".mts") || name.endsWith(".cts");
    }

    /**
     * Decided on the first file, so projects without TypeScript load neither swc's native library
     * nor the compiler. With {@link Choice#SWC} on a platform without the library, every file
     * fails with the reason and what to do.
     */
    private Stripper stripper(Path file) throws ScriptLoadException {
        Stripper s = stripper;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (stripper != null) {
                return stripper;
            }
            if (swcUnavailable != null) {
                throw new ScriptLoadException(file, 0, 0, swcUnavailable);
            }
            if (choice == Choice.TYPESCRIPT) {
                stripper = new CompilerTypeScript(engine.get());
                return stripper;
            }
            StringBuilder why = new StringBuilder();
            SwcTypeScript swc = SwcTypeScript.load(why);
            if (swc != null) {
                stripper = swc;
                return stripper;
            }
            if (choice == Choice.SWC) {
                swcUnavailable = why + "; remove " + VARIABLE + "=swc (or --typescript swc) to use the portable "
                        + "TypeScript compiler instead";
                throw new ScriptLoadException(file, 0, 0, swcUnavailable);
            }
            // the start-up log (plan()) said so already when swc was never an option here; not when it
            // should have loaded
            boolean planned = TypeScriptPlatform.current().unavailableReason(TypeScriptStripper.class.getClassLoader())
                    != null;
            String message = "scripts: TypeScript is stripped by the TypeScript compiler " + CompilerTypeScript.VERSION
                    + " in GraalJS (portable, slower) because " + why;
            if (planned) {
                LOG.debug(message);
            } else {
                LOG.warn(message);
            }
            stripper = new CompilerTypeScript(engine.get());
            return stripper;
        }
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
