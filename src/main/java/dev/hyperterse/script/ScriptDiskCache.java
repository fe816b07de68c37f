package dev.hyperterse.script;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What preparing scripts produced at an earlier start, kept on disk so that an unchanged script
 * costs milliseconds at the next one: the JavaScript stripped from each TypeScript source, and the
 * scripts whose check passed. Everything is stored under the SHA-256 of what it was made from
 * (see {@link #key}); a passed check also lists the module files its load read with the hash of
 * each, and counts only while every one of them still hashes the same. A failed check is never
 * stored: it runs again, and reports again, at every start until fixed.
 *
 * <p>Files are written aside and moved into place, so a reader never sees half of one, and a
 * file that cannot be read or written is a miss, never an error (the cache only saves time:
 * the server's own warm-up still loads every script it serves). The first write that fails is
 * logged once.
 */
public final class ScriptDiskCache {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptDiskCache.class);
    /** No disk cache: every lookup misses, nothing is written. */
    public static final ScriptDiskCache NONE = new ScriptDiskCache(null);

    private final Path dir;
    private final AtomicBoolean warned = new AtomicBoolean();

    /** @param dir the folder to keep entries in (created when first written); null for {@link #NONE} */
    public ScriptDiskCache(Path dir) {
        this.dir = dir;
    }

    /** The folder entries are kept in; null for {@link #NONE}. */
    public Path dir() {
        return dir;
    }

    /** The SHA-256 of the parts, each ended by a NUL so that no two lists of parts share a key. */
    static String key(Collection<String> parts) {
        MessageDigest digest = sha256();
        for (String part : parts) {
            digest.update(part.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static String key(String... parts) {
        return key(List.of(parts));
    }

    /** The stripped JavaScript stored under {@code key}; null when there is none. */
    String stripped(String key) {
        if (dir == null) {
            return null;
        }
        try {
            return Files.readString(dir.resolve("typescript").resolve(key + ".js"), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    void storeStripped(String key, String javaScript) {
        write(dir == null ? null : dir.resolve("typescript").resolve(key + ".js"), javaScript);
    }

    /**
     * True when a check stored under {@code key} passed and every file its load read still has
     * the content it had then.
     */
    boolean passed(String key) {
        if (dir == null) {
            return false;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(dir.resolve("checks").resolve(key), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (lines.isEmpty()) {
            return false;
        }
        for (String line : lines) {
            int space = line.indexOf(' ');
            if (space != 64) {
                return false;
            }
            try {
                if (!line.substring(0, space).equals(fileHash(Path.of(line.substring(space + 1))))) {
                    return false;
                }
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /** Stores that the check under {@code key} passed, having read {@code files}. */
    void storePassed(String key, Collection<Path> files) {
        if (dir == null) {
            return;
        }
        StringBuilder text = new StringBuilder();
        try {
            for (Path file : files) {
                text.append(fileHash(file)).append(' ').append(file).append('\n');
            }
        } catch (IOException e) {
            // a file that went away since the load: store nothing, check again next time
            return;
        }
        write(dir.resolve("checks").resolve(key), text.toString());
    }

    private void write(Path file, String text) {
        if (file == null) {
            return;
        }
        try {
            Files.createDirectories(file.getParent());
            Path aside = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            try {
                Files.writeString(aside, text, StandardCharsets.UTF_8);
                try {
                    Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(aside);
            }
        } catch (IOException | RuntimeException e) {
            if (warned.compareAndSet(false, true)) {
                LOG.warn("scripts: not cached on disk in {} ({}); every start prepares them again", dir, e.toString());
            }
        }
    }

    static String fileHash(Path file) throws IOException {
        return HexFormat.of().formatHex(sha256().digest(Files.readAllBytes(file)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    @Override
    public String toString() {
        return dir == null ? "no disk cache" : dir.toString();
    }
}
