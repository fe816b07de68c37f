package dev.hyperterse.project;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The size and modification time of every file of a project that a compile reads: root and
 * adapter/tool configs, env files, scripts and package manifests, and the files of resources. Two fingerprints differ when
 * any such file was added, removed or rewritten. Plain directory walking (symbolic links
 * followed), so it works where change notifications do not: NFS, and Kubernetes ConfigMap
 * volumes whose files are links that are re-pointed on update. Database files, logs and
 * dependency folders are not part of it, so a SQLite write never looks like an edit.
 */
public record ProjectFingerprint(Map<String, Stamp> files) {
    /** Folders never walked: dependencies and version control, large and not project config. */
    private static final Set<String> SKIPPED_FOLDERS = Set.of("node_modules", ".git", ".hg", ".svn", "target");
    private static final Set<String> EXTENSIONS = Set.of("terse", "hyperterse", "ts", "mts", "cts", "js", "mjs",
            "cjs", "json", "yaml", "yml");

    /** One file's size and last modification, in milliseconds. */
    public record Stamp(long size, long modified) {
    }

    public ProjectFingerprint {
        files = java.util.Collections.unmodifiableMap(new TreeMap<>(files));
    }

    /**
     * Walks {@code projectDir}. Blocking file I/O: call it on a worker thread.
     *
     * @throws UncheckedIOException when the folder cannot be read at all
     */
    public static ProjectFingerprint scan(Path projectDir) {
        Map<String, Stamp> files = new TreeMap<>();
        try {
            Files.walkFileTree(projectDir, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                            return !dir.equals(projectDir) && SKIPPED_FOLDERS.contains(name(dir))
                                    ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            if (attrs.isRegularFile() && (relevant(name(file)) || servedAsResource(projectDir, file))) {
                                files.put(projectDir.relativize(file).toString(),
                                        new Stamp(attrs.size(), attrs.lastModifiedTime().toMillis()));
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                            // a file removed mid-walk, a link loop or a dangling link is not an error
                            if (e instanceof NoSuchFileException || e instanceof FileSystemLoopException
                                    || !file.equals(projectDir)) {
                                return FileVisitResult.CONTINUE;
                            }
                            throw e;
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + projectDir + ": " + e.getMessage(), e);
        }
        return new ProjectFingerprint(files);
    }

    /** Whether a file of this name can change what the project compiles to. */
    static boolean relevant(String fileName) {
        if (fileName.equals(ProjectCompiler.ROOT_FILE) || fileName.startsWith(".env")) {
            return true;
        }
        int dot = fileName.lastIndexOf('.');
        return dot >= 0 && EXTENSIONS.contains(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /**
     * Files below a {@code resources} folder are served as they are (a resource's {@code file}),
     * so an edit to one is a change whatever its extension.
     */
    static boolean servedAsResource(Path projectDir, Path file) {
        for (Path part : projectDir.relativize(file)) {
            if (part.toString().equals("resources")) {
                return true;
            }
        }
        return false;
    }

    /** What changed since {@code earlier}, one entry per file ({@code changed x}, {@code added y}, {@code removed z}). */
    public List<String> changesSince(ProjectFingerprint earlier) {
        List<String> out = new ArrayList<>();
        files.forEach((path, stamp) -> {
            Stamp before = earlier.files.get(path);
            if (before == null) {
                out.add("added " + path);
            } else if (!Objects.equals(before, stamp)) {
                out.add("changed " + path);
            }
        });
        earlier.files.keySet().stream().filter(p -> !files.containsKey(p)).forEach(p -> out.add("removed " + p));
        return out;
    }

    private static String name(Path p) {
        Path n = p.getFileName();
        return n == null ? "" : n.toString();
    }
}
