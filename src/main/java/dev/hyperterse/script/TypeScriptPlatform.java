package dev.hyperterse.script;

import java.util.List;
import java.util.Locale;

/**
 * The platform as swc4j names it when it looks for its native library, and whether swc4j publishes
 * that library at all (where it does not, TypeScript is stripped by the portable stripper: see
 * {@link TypeScriptStripper}). swc4j looks for the class-path resource
 * {@code /libswc4j-<os>-<arch>.v.<version>.<so|dylib|dll>}; the jar holds the ones the build's
 * Maven profiles added (the building machine's, or all with {@code -Pall-platforms}).
 *
 * @param os   {@code linux}, {@code macos} or {@code windows}; another system's {@code os.name}, lower case
 * @param arch {@code x86_64} or {@code arm64}; another architecture's {@code os.arch}, lower case
 */
public record TypeScriptPlatform(String os, String arch) {
    /** The swc4j version whose native libraries the pom bundles (the pom's {@code swc4j.version}). */
    public static final String SWC4J_VERSION = "2.2.0";

    /** The platforms swc4j 2.2.0 publishes a native artifact for on Maven Central. */
    public static final List<TypeScriptPlatform> PUBLISHED = List.of(
            new TypeScriptPlatform("linux", "x86_64"),
            new TypeScriptPlatform("macos", "arm64"),
            new TypeScriptPlatform("windows", "x86_64"));

    /** This JVM's platform. */
    public static TypeScriptPlatform current() {
        return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /** From the {@code os.name} and {@code os.arch} system properties' values. */
    public static TypeScriptPlatform of(String osName, String osArch) {
        String name = osName.toLowerCase(Locale.ROOT);
        String os = name.startsWith("linux") ? "linux"
                : name.startsWith("mac") || name.startsWith("darwin") ? "macos"
                : name.startsWith("windows") ? "windows" : name.replace(' ', '_');
        String a = osArch.toLowerCase(Locale.ROOT);
        String arch = a.matches("x86_64|amd64|x64|em64t") ? "x86_64"
                : a.matches("aarch64|arm64|armv8") ? "arm64" : a;
        return new TypeScriptPlatform(os, arch);
    }

    /** As swc4j writes it: {@code linux-x86_64}. */
    public String label() {
        return os + "-" + arch;
    }

    /** True when swc4j publishes a native library for this platform. */
    public boolean published() {
        return PUBLISHED.contains(this);
    }

    /** The class-path resource swc4j loads on this platform (meaningful when {@link #published()}). */
    public String nativeResource() {
        String extension = "windows".equals(os) ? "dll" : "macos".equals(os) ? "dylib" : "so";
        return "libswc4j-" + os + "-" + arch + ".v." + SWC4J_VERSION + "." + extension;
    }

    /** Whether the class path (the jar) holds this platform's native library. */
    public boolean bundled(ClassLoader loader) {
        return published() && loader.getResource(nativeResource()) != null;
    }

    /**
     * Why swc cannot strip TypeScript here, for the log (the portable stripper is used instead)
     * and for the error when swc is required; null when it can.
     */
    public String unavailableReason(ClassLoader loader) {
        if (bundled(loader)) {
            return null;
        }
        String platforms = String.join(", ", PUBLISHED.stream().map(TypeScriptPlatform::label).toList());
        if (!published()) {
            return "swc4j " + SWC4J_VERSION + " has no native library for " + label() + " (only for " + platforms + ")";
        }
        return "this jar has no swc4j library for " + label() + " (" + nativeResource() + "); build the jar on "
                + "this platform or with 'mvn -Pall-platforms package' to use it";
    }
}
