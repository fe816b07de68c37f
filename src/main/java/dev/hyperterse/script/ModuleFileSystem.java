package dev.hyperterse.script;

import dev.hyperterse.model.ConfinedPaths;

import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.io.FileSystem;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The only file system scripts see: read-only, and there only to load module files. A file is
 * served only when its name and its real name (after following symbolic links) are module names
 * ({@code .ts .mts .cts .js .mjs .cjs .json}, not hidden), and its real path lies inside the
 * project folder, in one of the module folders (the project's script folders and
 * {@code node_modules}), outside hidden folders other than those {@code node_modules} keeps
 * (pnpm's {@code .pnpm}). So {@code .env} files, {@code .hyperterse} and {@code *.terse} files can
 * never be read, however a script asks. It also makes the module world work:
 * <ul>
 *   <li>TypeScript files are served type-stripped, and a relative import may leave out the
 *   extension or say {@code .js} for a {@code .ts} file, as TypeScript allows;</li>
 *   <li>bare imports ({@code dayjs}) resolve from the project's {@code node_modules};</li>
 *   <li>a bare import of a CommonJS package is served an ES module facade over it.</li>
 * </ul>
 * Listing folders, writing and anything else are refused.
 */
final class ModuleFileSystem implements FileSystem {
    private static final Set<? extends OpenOption> READ_ONLY = Set.of(StandardOpenOption.READ);
    private static final List<String> TS_FOR_JS = List.of(".js", ".ts", ".mjs", ".mts", ".cjs", ".cts");
    private static final List<String> PROBES = List.of(".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".json",
            "/index.ts", "/index.js", "/index.mjs");

    /** What a module file's name ends with (compared lower-cased). */
    private static final List<String> MODULE_EXTENSIONS = List.of(".ts", ".mts", ".cts", ".js", ".mjs", ".cjs",
            ".json");
    static final String REFUSED = "scripts can only load module files (.ts, .js, .mjs, .cjs, .json) from the "
            + "project's script folders and node_modules";

    private final Path root;
    private final List<Path> moduleFolders;
    private final TypeScriptStripper typescript;
    private final PackageResolver packages;
    private final Map<String, Source> commonJsSources = new ConcurrentHashMap<>();
    /**
     * Bare imports no package matched, by the absolute path GraalJS then looks for (and names in
     * its error): so the error can name the package and say how to install it instead.
     */
    private final Map<String, String> missingPackages = new ConcurrentHashMap<>();
    /**
     * The module files read on this thread while {@link #recordingReads} runs: what a script's
     * check depends on (a load reads its whole module graph on the thread that evaluates it).
     */
    private final ThreadLocal<java.util.Set<Path>> reads = new ThreadLocal<>();

    /**
     * @param moduleFolders the folders module files may come from besides the project's
     *                      {@code node_modules}; ones that do not exist or lie outside the project are left out
     */
    ModuleFileSystem(Path projectDir, Collection<Path> moduleFolders, TypeScriptStripper typescript)
            throws IOException {
        this.root = projectDir.toRealPath();
        List<Path> folders = new ArrayList<>();
        for (Path folder : moduleFolders) {
            addFolder(folders, folder);
        }
        addFolder(folders, root.resolve("node_modules"));
        this.moduleFolders = List.copyOf(folders);
        this.typescript = typescript;
        this.packages = new PackageResolver(root);
    }

    private void addFolder(List<Path> folders, Path folder) {
        try {
            Path real = folder.toRealPath();
            if (real.startsWith(root) && Files.isDirectory(real) && !folders.contains(real)) {
                folders.add(real);
            }
        } catch (IOException missing) {
            // a folder that does not exist holds no modules
        }
    }

    Path root() {
        return root;
    }

    @Override
    public Path parsePath(URI uri) {
        if (!"file".equals(uri.getScheme())) {
            throw new UnsupportedOperationException("only project files can be imported, not " + uri);
        }
        return Path.of(uri);
    }

    /**
     * GraalJS resolves relative imports itself and hands bare specifiers here unchanged, so this
     * is where {@code node_modules} resolution happens.
     */
    @Override
    public Path parsePath(String path) {
        if (isBare(path)) {
            PackageResolver.Resolved resolved = packages.resolve(path);
            if (resolved != null) {
                return resolved.commonJs() ? CommonJsFacade.facadeFor(resolved.file()) : resolved.file();
            }
            if (missingPackages.size() < 1000) {
                missingPackages.put(root.resolve(path).toString(), path);
            }
        }
        return Path.of(path);
    }

    /**
     * A load error that names a package GraalJS could not find by the path it looked for
     * ({@code Cannot find module '/project/dayjs'}) reworded to name the package and the fix;
     * any other message unchanged.
     */
    String withPackageNamed(String message) {
        for (Map.Entry<String, String> missing : missingPackages.entrySet()) {
            String quoted = "Cannot find module '" + missing.getKey() + "'";
            if (message.contains(quoted)) {
                return message.replace(quoted, "Cannot find package '" + missing.getValue() + "'"
                        + notInstalled(missing.getValue()));
            }
        }
        return message;
    }

    /**
     * {@link #withPackageNamed(String)} for a load failure, placed at the import that names the
     * package: the importing file (the message's "imported from"), line and column, so the
     * problem reads {@code file:line:column} like a syntax error. Where the import cannot be found
     * in that file's text, the failure keeps its place and says which file imported the package.
     */
    ScriptLoadException withPackageNamed(ScriptLoadException failure) {
        String message = failure.getMessage();
        String named = withPackageNamed(message);
        if (named.equals(message)) {
            return failure;
        }
        int from = named.lastIndexOf(IMPORTED_FROM);
        if (from < 0) {
            return failure.withMessage(named);
        }
        String importer = named.substring(from + IMPORTED_FROM.length()).strip();
        String specifier = missingPackages.values().stream()
                .filter(p -> named.contains("Cannot find package '" + p + "'")).findFirst().orElse(null);
        int[] at = specifier == null ? null : importLine(Path.of(importer), specifier);
        if (at == null) {
            return failure.withMessage(named);
        }
        return new ScriptLoadException(Path.of(importer), at[0], at[1], named.substring(0, from));
    }

    private static final String IMPORTED_FROM = " imported from ";
    /** An import, export or require naming a module: its quoted specifier. */
    private static final java.util.regex.Pattern IMPORTS = java.util.regex.Pattern.compile(
            "(?:\\bfrom|\\bimport|\\brequire)\\s*\\(?\\s*(['\"`])([^'\"`]+)\\1");

    /** The line and column (1-based) of the import of {@code specifier} in {@code file}; null when not found. */
    private static int[] importLine(Path file, String specifier) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        String[] lines = text.split("\r?\n|\r", -1);
        for (int i = 0; i < lines.length; i++) {
            java.util.regex.Matcher m = IMPORTS.matcher(lines[i]);
            while (m.find()) {
                if (m.group(2).equals(specifier)) {
                    return new int[] {i + 1, m.start(1) + 1};
                }
            }
        }
        return null;
    }

    private String notInstalled(String specifier) {
        return " (it is not in " + root.resolve("node_modules") + ": run npm install in " + root
                + "; Node's built-in modules are not available to scripts)";
    }

    private static boolean isBare(String specifier) {
        return !specifier.isEmpty() && !specifier.startsWith("/") && !specifier.startsWith(".")
                && !specifier.contains("\\") && !specifier.contains(":");
    }

    @Override
    public void checkAccess(Path path, Set<? extends AccessMode> modes, LinkOption... linkOptions) throws IOException {
        if (modes.contains(AccessMode.WRITE) || modes.contains(AccessMode.EXECUTE)) {
            throw new AccessDeniedException(path.toString(), null, "scripts cannot write or execute files");
        }
        Path mapped = map(path);
        Path facadeOf = CommonJsFacade.underlying(mapped);
        Path target = facadeOf != null ? facadeOf : mapped;
        if (Files.isDirectory(target)) {
            real(target);
        } else {
            moduleFile(target);
        }
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        throw readOnly(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        throw readOnly(path);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        for (OpenOption option : options) {
            if (!READ_ONLY.contains(option) && option != LinkOption.NOFOLLOW_LINKS) {
                throw readOnly(path);
            }
        }
        return new ReadOnlyChannel(content(path));
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        throw new AccessDeniedException(dir.toString(), null, "scripts cannot list folders");
    }

    @Override
    public Path toAbsolutePath(Path path) {
        return path.isAbsolute() ? path : root.resolve(path);
    }

    @Override
    public Path toRealPath(Path path, LinkOption... linkOptions) throws IOException {
        Path mapped = map(path);
        Path facadeOf = CommonJsFacade.underlying(mapped);
        if (facadeOf != null) {
            return CommonJsFacade.facadeFor(moduleFile(facadeOf));
        }
        return Files.isDirectory(mapped) ? real(mapped) : moduleFile(mapped);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        Path mapped = map(path);
        Path facadeOf = CommonJsFacade.underlying(mapped);
        Path target = facadeOf != null ? facadeOf : mapped;
        return Files.readAttributes(Files.isDirectory(target) ? real(target) : moduleFile(target), attributes);
    }

    @Override
    public void setCurrentWorkingDirectory(Path currentWorkingDirectory) {
        throw new UnsupportedOperationException("scripts cannot change the working folder");
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        throw readOnly(link);
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        throw readOnly(link);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        throw readOnly(path);
    }

    @Override
    public void copy(Path source, Path target, java.nio.file.CopyOption... options) throws IOException {
        throw readOnly(target);
    }

    @Override
    public void move(Path source, Path target, java.nio.file.CopyOption... options) throws IOException {
        throw readOnly(target);
    }

    @Override
    public Path getTempDirectory() {
        throw new UnsupportedOperationException("scripts have no temporary folder");
    }

    /**
     * The file a CommonJS {@code require(specifier)} in {@code fromFile} loads: relative to
     * it, or a package from {@code node_modules}.
     *
     * @throws NoSuchFileException when nothing matches (the message names the specifier)
     */
    Path resolveRequire(String specifier, Path fromFile) throws IOException {
        Path found;
        if (specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/")
                || specifier.equals(".") || specifier.equals("..")) {
            Path base = specifier.startsWith("/") ? Path.of(specifier) : fromFile.resolveSibling(specifier);
            Path normalized = toAbsolutePath(base).normalize();
            if (!normalized.startsWith(root)) {
                throw refused(normalized);
            }
            found = PackageResolver.probeRequire(normalized);
        } else {
            found = isBare(specifier) ? packages.resolveRequire(specifier) : null;
        }
        if (found == null) {
            throw new NoSuchFileException(specifier, null, isBare(specifier)
                    ? "Cannot find package '" + specifier + "'" + notInstalled(specifier)
                    : "Cannot find module '" + specifier + "'");
        }
        return moduleFile(found);
    }

    /**
     * A CommonJS module or JSON file compiled once per file and content and shared by every
     * context (the engine shares parsed code between equal sources): a function of
     * {@code (exports, require, module, __filename, __dirname, parse)}, where {@code parse} is
     * the {@code JSON.parse} taken before any script ran. Which of the two a file is, is decided
     * here from its real name, and a JSON file is checked here, so a script can neither make a
     * file count as JSON nor see a JSON parser quote it.
     *
     * @param file a real path {@link #moduleFile} accepted
     * @throws IOException naming the file and the position of invalid JSON, never its content
     */
    Source commonJsSource(Path file) throws IOException {
        String code = new String(content(file), StandardCharsets.UTF_8);
        boolean json = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
        if (json) {
            JsonText.check(code, file.getFileName().toString());
        }
        return commonJsSources.computeIfAbsent(file + "\n" + code, k -> Source.newBuilder("js", file.toFile())
                .content(json
                        ? "(function (exports, require, module, __filename, __dirname, parse) { module.exports = parse("
                                + io.vertx.core.json.Json.encode(code) + "); })"
                        : "(function (exports, require, module, __filename, __dirname) {" + code + "\n})")
                .buildLiteral());
    }

    /** Loading a script: the work whose module file reads {@link #recordingReads} collects. */
    interface Load {
        void run() throws ScriptLoadException;
    }

    /**
     * Runs {@code load} on this thread and returns every module file it read (real paths), in
     * the order first read.
     */
    java.util.Set<Path> recordingReads(Load load) throws ScriptLoadException {
        java.util.Set<Path> seen = new java.util.LinkedHashSet<>();
        java.util.Set<Path> outer = reads.get();
        reads.set(seen);
        try {
            load.run();
        } finally {
            if (outer == null) {
                reads.remove();
            } else {
                reads.set(outer);
                outer.addAll(seen);
            }
        }
        return seen;
    }

    private void noteRead(Path file) {
        java.util.Set<Path> seen = reads.get();
        if (seen != null) {
            seen.add(file);
        }
    }

    /** A module's text as GraalJS should see it: stripped TypeScript, a facade, or the file itself. */
    byte[] content(Path path) throws IOException {
        Path mapped = map(path);
        Path facadeOf = CommonJsFacade.underlying(mapped);
        if (facadeOf != null) {
            Path file = moduleFile(facadeOf);
            noteRead(file);
            return CommonJsFacade.source(file, Files.readString(file, StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
        }
        Path file = moduleFile(mapped);
        noteRead(file);
        if (TypeScriptStripper.isTypeScript(file)) {
            try {
                return typescript.strip(file, Files.readString(file, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8);
            } catch (ScriptLoadException e) {
                throw new IOException(file + ":" + e.line() + ":" + e.column() + ": " + e.getMessage());
            }
        }
        return Files.readAllBytes(file);
    }

    /**
     * Where a path GraalJS asks for really is: the path itself when it exists, else the
     * TypeScript file an extension-less or {@code .js} import means.
     */
    private Path map(Path path) throws IOException {
        Path p = toAbsolutePath(path).normalize();
        if (!p.startsWith(root)) {
            throw refused(path);
        }
        if (CommonJsFacade.underlying(p) != null || Files.exists(p)) {
            return p;
        }
        String name = p.getFileName().toString();
        for (int i = 0; i < TS_FOR_JS.size(); i += 2) {
            String js = TS_FOR_JS.get(i);
            if (name.endsWith(js)) {
                Path ts = p.resolveSibling(name.substring(0, name.length() - js.length()) + TS_FOR_JS.get(i + 1));
                return Files.isRegularFile(ts) ? ts : p;
            }
        }
        for (String probe : PROBES) {
            Path candidate = Path.of(p + probe);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return p;
    }

    /** The real path, refused when a link leads out of the project folder. */
    private Path real(Path p) throws IOException {
        Path real = p.toRealPath();
        if (!real.startsWith(root)) {
            throw refused(p);
        }
        return real;
    }

    /**
     * The real path of a module file scripts may load, or a refusal. Hidden names ({@code .env*},
     * {@code .hyperterse}) and {@code *.terse} are refused whether they exist or not.
     */
    Path moduleFile(Path file) throws IOException {
        Path absolute = toAbsolutePath(file).normalize();
        if (isHiddenOrConfig(absolute) || !absolute.startsWith(root)) {
            throw refused(file);
        }
        Path real;
        try {
            real = absolute.toRealPath();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString());
        }
        if (!isModuleName(absolute)) {
            throw refused(file);
        }
        if (!isModuleName(real) || !Files.isRegularFile(real) || !inModuleFolder(real)) {
            throw refused(file);
        }
        return real;
    }

    /** Names refused before anything is asked of the disk, so a script cannot even learn they exist. */
    private static boolean isHiddenOrConfig(Path file) {
        Path name = file.getFileName();
        return name != null && ConfinedPaths.isHiddenOrConfig(name.toString());
    }

    /** True for a name ending in a module extension and not hidden ({@code .env.js} is no module). */
    static boolean isModuleName(Path file) {
        Path name = file.getFileName();
        if (name == null) {
            return false;
        }
        String text = name.toString().toLowerCase(Locale.ROOT);
        if (text.startsWith(".")) {
            return false;
        }
        for (String extension : MODULE_EXTENSIONS) {
            if (text.endsWith(extension) && text.length() > extension.length()) {
                return true;
            }
        }
        return false;
    }

    /** Inside a module folder, and inside no hidden folder except below {@code node_modules}. */
    private boolean inModuleFolder(Path real) {
        boolean inFolder = false;
        for (Path folder : moduleFolders) {
            if (real.startsWith(folder)) {
                inFolder = true;
                break;
            }
        }
        if (!inFolder || !real.startsWith(root)) {
            return false;
        }
        Path relative = root.relativize(real);
        for (int i = 0; i < relative.getNameCount() - 1; i++) {
            String segment = relative.getName(i).toString();
            if (segment.equals("node_modules")) {
                return true;
            }
            if (segment.startsWith(".")) {
                return false;
            }
        }
        return true;
    }

    private static AccessDeniedException refused(Path path) {
        return new AccessDeniedException(path.toString(), null, REFUSED);
    }

    private static AccessDeniedException readOnly(Path path) {
        return new AccessDeniedException(path.toString(), null, "scripts cannot change files");
    }
}
