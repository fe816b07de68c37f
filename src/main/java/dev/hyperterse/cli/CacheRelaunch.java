package dev.hyperterse.cli;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code start} whose JVM was given no start-up cache, while one lies where {@code aot-cache}
 * puts it, becomes a start with it: this JVM replaces itself ({@code execv}: the same process id,
 * the same arguments and environment, the cache's flag added in front), before it has done any of
 * the work the cache spares. A JVM reads a cache only from its command line, so this is the one
 * way {@code java -jar hyperterse.jar start} can use one without the user writing the flag.
 *
 * <p>Only on Linux and macOS (where {@code execv} replaces the process in place) and JDK 22 and
 * later (where the JDK calls C functions itself; the jar's manifest grants it native access).
 * {@code HYPERTERSE_AOT_CACHE=off} turns it off; {@code HYPERTERSE_AOT_CACHE=FILE} names the cache
 * to use. A JVM started with any cache, archive or AOT option of its own is left as it is, and so
 * is one whose command line cannot be read back. Should the cache be stale (made for another jar
 * or JVM), the new JVM says so and starts without it, and {@code start} tells how to make it again.
 */
final class CacheRelaunch {
    /** The environment variable that turns this off ({@code off}) or names the cache. */
    static final String VARIABLE = "HYPERTERSE_AOT_CACHE";

    /** Why the last attempt to start again with a cache failed, for start's log; null when none failed. */
    private static volatile String failure;

    private CacheRelaunch() {
    }

    /**
     * Replaces this JVM by one started with the start-up cache found for the {@code start} command
     * line {@code args}, when there is one and nothing above rules it out; returns when this JVM is
     * to start as it is (then {@link #failure()} says why, when an attempt failed). Never throws.
     */
    static void withCacheWhenPresent(String[] args) {
        try {
            int jdk = Runtime.version().feature();
            if (jdk < 22 || !replacesInPlace(System.getProperty("os.name", "")) || !isStart(args)) {
                return;
            }
            Path jar = Main.jarFile();
            if (jar == null) {
                return; // a class cache holds classes from jar files only (and tests run this in-process)
            }
            ProcessHandle.Info self = ProcessHandle.current().info();
            Optional<String> command = self.command();
            Optional<String[]> arguments = self.arguments();
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            if (command.isEmpty() || arguments.isEmpty() || !Files.isSameFile(Path.of(command.get()), java)
                    || !readBackWhole(List.of(arguments.get()), List.of(args))) {
                return;
            }
            List<String> argv = command(command.get(), List.of(arguments.get()), System.getenv(), projectFolders(args),
                    jar, jdk);
            if (argv != null) {
                execv(argv);
                failure = "could not start again with the start-up cache (execv failed): " + String.join(" ", argv);
            }
        } catch (Throwable e) {
            failure = "could not start again with the start-up cache: " + e;
        }
    }

    /** Why the last attempt to start again with a start-up cache failed, or null. */
    static String failure() {
        return failure;
    }

    /**
     * Whether the command line read back from the system ({@code arguments}: the JVM's options,
     * {@code -jar JAR} or a class path and main class, then the program's) is the whole line: it
     * ends with the program's arguments {@code main} got (a line cut short, as Linux's
     * {@code /proc/PID/cmdline} read back in one page may be, does not), and names a jar or class
     * path before them (a launcher that embeds the JVM has no such part).
     */
    static boolean readBackWhole(List<String> arguments, List<String> programArgs) {
        int jvmPart = arguments.size() - programArgs.size();
        if (jvmPart < 1 || !arguments.subList(jvmPart, arguments.size()).equals(programArgs)) {
            return false;
        }
        List<String> options = arguments.subList(0, jvmPart);
        return options.contains("-jar") || options.contains("-cp") || options.contains("-classpath")
                || options.contains("--class-path");
    }

    /** Whether {@code args} start a server (not only print its settings, help or version). */
    static boolean isStart(String[] args) {
        if (args.length == 0 || !args[0].equals("start")) {
            return false;
        }
        for (String a : args) {
            if (a.equals("--print-config") || a.equals("--help") || a.equals("-h") || a.equals("--version")
                    || a.equals("-V") || a.startsWith("@")) {
                return false;
            }
        }
        return true;
    }

    /**
     * The folders a project named on the {@code start} line {@code args} may lie in: each word after
     * {@code start} that names a folder (the project's {@code PATH}), and the folder of the file
     * {@code -f}/{@code --file} gives. Read before the line is parsed, so the cache is used before
     * parsing costs anything; another option's value that happens to name a folder only adds a
     * place to look.
     */
    static List<Path> projectFolders(String[] args) {
        List<Path> folders = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String file = (a.equals("-f") || a.equals("--file")) && i + 1 < args.length ? args[++i]
                    : a.startsWith("--file=") ? a.substring("--file=".length())
                    : a.startsWith("-f=") ? a.substring(3)
                    : a.startsWith("-f") && a.length() > 2 && !a.startsWith("--") ? a.substring(2) : null;
            if (file != null) {
                Path parent = Path.of(file).toAbsolutePath().getParent();
                if (parent != null) {
                    folders.add(parent);
                }
            } else if (!a.startsWith("-") && Files.isDirectory(Path.of(a))) {
                folders.add(Path.of(a));
            }
        }
        return folders;
    }

    /** Whether {@code execv} on this operating system replaces the process in place (not on Windows, where it spawns another). */
    static boolean replacesInPlace(String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        return os.startsWith("linux") || os.startsWith("mac");
    }

    /**
     * The command line that starts this JVM again with the cache: {@code java}, the cache's flag,
     * then every argument as given; null when there is no cache to use or the JVM is not to be
     * started again.
     *
     * @param java        the running {@code java} executable
     * @param arguments   its arguments (JVM options, {@code -jar JAR} or the main class, the program's)
     * @param environment the process environment
     * @param projects    the folders the project named on the command line may lie in
     * @param jar         the jar this runs from (its folder is one place a cache may lie), or null
     * @param jdk         the running JDK's feature release
     */
    static List<String> command(String java, List<String> arguments, Map<String, String> environment,
                                List<Path> projects, Path jar, int jdk) {
        String setting = setting(environment);
        if (off(setting) || optionsOfItsOwn(arguments)) {
            return null;
        }
        for (String variable : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")) {
            // every word: a variable's value has no program part, and a quoted value may hold spaces
            for (String word : environment.getOrDefault(variable, "").trim().split("\\s+")) {
                if (word.startsWith("@") || ownOption(word)) {
                    return null;
                }
            }
        }
        AotCacheCommand.Flags flags = AotCacheCommand.Flags.forJdk(jdk);
        Path cache = cache(setting, flags, cacheCandidates(projects, jar));
        if (cache == null || olderThan(cache, jar)) {
            return null;
        }
        List<String> argv = new ArrayList<>();
        argv.add(java);
        argv.add(flags.use() + cache.toAbsolutePath());
        argv.addAll(arguments);
        return argv;
    }

    /**
     * Whether {@code cache} was written before {@code jar} was: made for an earlier build, which the
     * JVM would refuse (starting again for it would only cost time); start says to make it again.
     */
    static boolean olderThan(Path cache, Path jar) {
        try {
            return jar != null && Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(jar)) < 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * Where {@code aot-cache} leaves a cache by default, or an operator puts one: the current
     * folder, the project's folders, the jar's folder.
     */
    static List<Path> cacheCandidates(List<Path> projects, Path jar) {
        List<Path> folders = new ArrayList<>(List.of(Path.of("").toAbsolutePath()));
        projects.forEach(p -> folders.add(p.toAbsolutePath()));
        if (jar != null) {
            folders.add(jar.toAbsolutePath().getParent());
        }
        return folders.stream().filter(java.util.Objects::nonNull).distinct().toList();
    }

    /** {@link #VARIABLE} as set ({@code off}, a file, or "" when unset). */
    static String setting(Map<String, String> environment) {
        String value = environment.get(VARIABLE);
        return value == null ? "" : value.trim();
    }

    /** Whether the setting turns the start-up cache's use off. */
    static boolean off(String setting) {
        return setting.equalsIgnoreCase("off");
    }

    /**
     * The start-up cache a start would use: the file the setting names, else the first of
     * {@code folders} holding the file {@code aot-cache} writes by default; null when there is none
     * (or the setting is {@code off}, or names no file).
     */
    static Path cache(String setting, AotCacheCommand.Flags flags, List<Path> folders) {
        if (off(setting)) {
            return null;
        }
        if (setting.isEmpty()) {
            for (Path folder : folders) {
                Path cache = folder.resolve(flags.defaultFile());
                if (Files.isRegularFile(cache)) {
                    return cache;
                }
            }
            return null;
        }
        try {
            Path named = Path.of(setting);
            return Files.isRegularFile(named) ? named : null;
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /**
     * Whether the JVM options before the main class or {@code -jar} already choose about class
     * caches or AOT (a cache, an archive, training, sharing off), or set up something that would
     * run or listen twice (an agent, remote JMX, a recording), or come from an argument file: such a
     * JVM is left as it is.
     */
    static boolean optionsOfItsOwn(List<String> arguments) {
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            if (a.startsWith("@")) {
                return true; // an argument file, not read here
            }
            if (a.equals("-jar") || !a.startsWith("-")) {
                return false; // what follows is the program's
            }
            if (ownOption(a)) {
                return true;
            }
            if (SEPARATE_VALUE.contains(a)) {
                i++;
            }
        }
        return false;
    }

    /** One JVM option that chooses about class caches, sharing or AOT, or sets up what would run twice. */
    private static boolean ownOption(String a) {
        return a.startsWith("-XX:AOT") || a.startsWith("-XX:+AOT") || a.startsWith("-XX:-AOT")
                || a.startsWith("-XX:SharedArchiveFile") || a.startsWith("-XX:ArchiveClassesAtExit")
                || a.startsWith("-XX:+AutoCreateSharedArchive") || a.startsWith("-XX:SharedClassListFile")
                || a.startsWith("-XX:DumpLoadedClassList") || a.startsWith("-Xshare")
                || a.startsWith("-XX:+UseSharedSpaces") || a.startsWith("-XX:-UseSharedSpaces")
                // a JVM given this maps no class cache at all
                || a.startsWith("--upgrade-module-path")
                // options files may choose, and they are not read here
                || a.startsWith("-XX:Flags=") || a.startsWith("-XX:VMOptionsFile=")
                // an agent would run twice (and one that listens, as a debugger's, would hold its port),
                // and so would a recording
                || a.startsWith("-javaagent") || a.startsWith("-agentlib") || a.startsWith("-agentpath")
                || a.startsWith("-Dcom.sun.management.jmxremote") || a.startsWith("-XX:StartFlightRecording");
    }

    /** The launcher's options whose value is the next word. */
    private static final java.util.Set<String> SEPARATE_VALUE = java.util.Set.of("-cp", "-classpath", "--class-path",
            "-p", "--module-path", "--add-modules", "--limit-modules", "--add-reads", "--add-exports", "--add-opens",
            "--patch-module", "--enable-native-access", "-m", "--module");

    /**
     * {@code execv(argv[0], argv)} through the JDK's foreign function interface, reached by
     * reflection (this code is compiled for Java 17). Returns only when the call fails.
     */
    private static void execv(List<String> argv) throws Throwable {
        Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
        Class<?> lookupType = Class.forName("java.lang.foreign.SymbolLookup");
        Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayoutType = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> addressLayoutType = Class.forName("java.lang.foreign.AddressLayout");
        Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
        Class<?> allocatorType = Class.forName("java.lang.foreign.SegmentAllocator");
        Class<?> arenaType = Class.forName("java.lang.foreign.Arena");

        Object linker = linkerType.getMethod("nativeLinker").invoke(null);
        Object libc = linkerType.getMethod("defaultLookup").invoke(linker);
        Optional<?> symbol = (Optional<?>) lookupType.getMethod("find", String.class).invoke(libc, "execv");
        if (symbol.isEmpty()) {
            return;
        }
        Object address = valueLayoutType.getField("ADDRESS").get(null);
        Object integer = valueLayoutType.getField("JAVA_INT").get(null);
        Object[] parameters = (Object[]) Array.newInstance(layoutType, 2);
        parameters[0] = address;
        parameters[1] = address;
        Object descriptor = descriptorType.getMethod("of", layoutType, parameters.getClass())
                .invoke(null, integer, parameters);
        MethodHandle execv = (MethodHandle) linkerType
                .getMethod("downcallHandle", segmentType, descriptorType, Array.newInstance(optionType, 0).getClass())
                .invoke(linker, symbol.get(), descriptor, Array.newInstance(optionType, 0));

        // global: the memory must outlive the call, which on success is this process's last
        Object arena = arenaType.getMethod("global").invoke(null);
        // in the encoding the JDK read the command line with
        java.nio.charset.Charset encoding = java.nio.charset.Charset.forName(
                System.getProperty("sun.jnu.encoding", "UTF-8"));
        Method string = allocatorType.getMethod("allocateFrom", String.class, java.nio.charset.Charset.class);
        Method allocate = allocatorType.getMethod("allocate", layoutType, long.class);
        Method setAt = segmentType.getMethod("setAtIndex", addressLayoutType, long.class, segmentType);
        Object vector = allocate.invoke(arena, address, (long) argv.size() + 1); // zeroed: ends with NULL
        for (int i = 0; i < argv.size(); i++) {
            setAt.invoke(vector, address, (long) i, string.invoke(arena, argv.get(i), encoding));
        }
        execv.invokeWithArguments(string.invoke(arena, argv.get(0), encoding), vector);
    }
}
