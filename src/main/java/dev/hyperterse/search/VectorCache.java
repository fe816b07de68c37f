package dev.hyperterse.search;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tool vectors kept on disk between starts and reloads, one file per model, each vector under the
 * SHA-256 of the text it was computed from: a tool whose text is unchanged is never embedded
 * twice. The file is replaced whole (written aside, then moved), so a reader never sees half of
 * one; a file that cannot be read is ignored and rewritten.
 */
final class VectorCache {

    private static final int MAGIC = 0x48545631; // "HTV1"
    /**
     * Entries kept: the latest snapshot's first, then earlier ones up to this many in all. A tool has up to
     * four texts a model embeds (its whole text and three parts): 12,500 tools' worth at least, some 150 MB of
     * file with two models' vectors.
     */
    static final int MAX_ENTRIES = 50_000;

    private final Path file;
    private final String model;

    VectorCache(Path dir, String model) {
        this.model = model;
        this.file = dir.resolve(model.replaceAll("[^A-Za-z0-9._-]", "_") + ".vectors");
    }

    Path file() {
        return file;
    }

    /** The key a text's vector is stored under. */
    static String key(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The stored vectors by key, in file order; empty when there is no file. */
    Map<String, float[]> load() throws IOException {
        Map<String, float[]> vectors = new LinkedHashMap<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            if (in.readInt() != MAGIC || !in.readUTF().equals(model)) {
                return vectors;
            }
            int dimensions = in.readInt();
            int count = in.readInt();
            if (dimensions <= 0 || dimensions > 65_536 || count < 0 || count > MAX_ENTRIES) {
                throw new IOException(file + ": not a vector cache (" + count + " vectors of " + dimensions + ")");
            }
            for (int i = 0; i < count; i++) {
                String key = in.readUTF();
                float[] vector = new float[dimensions];
                for (int d = 0; d < dimensions; d++) {
                    vector[d] = in.readFloat();
                }
                vectors.put(key, vector);
            }
        } catch (NoSuchFileException e) {
            return vectors;
        }
        return vectors;
    }

    /**
     * Writes {@code current} and then as many of {@code earlier} (not already in current) as fit
     * under {@link #MAX_ENTRIES} (of a snapshot with more texts than that, its first ones: a file
     * {@link #load} would refuse is never written); all vectors have the same length.
     */
    void save(Map<String, float[]> current, Map<String, float[]> earlier) throws IOException {
        Map<String, float[]> kept = new LinkedHashMap<>();
        for (Map<String, float[]> vectors : List.of(current, earlier)) {
            for (Map.Entry<String, float[]> e : vectors.entrySet()) {
                if (kept.size() >= MAX_ENTRIES) {
                    break;
                }
                kept.putIfAbsent(e.getKey(), e.getValue());
            }
        }
        if (kept.isEmpty()) {
            return;
        }
        int dimensions = kept.values().iterator().next().length;
        Files.createDirectories(file.getParent());
        Path aside = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(aside)))) {
                out.writeInt(MAGIC);
                out.writeUTF(model);
                out.writeInt(dimensions);
                int count = (int) kept.values().stream().filter(v -> v.length == dimensions).count();
                out.writeInt(count);
                for (Map.Entry<String, float[]> e : kept.entrySet()) {
                    if (e.getValue().length != dimensions) {
                        continue;
                    }
                    out.writeUTF(e.getKey());
                    for (float f : e.getValue()) {
                        out.writeFloat(f);
                    }
                }
            }
            try {
                Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(aside);
        }
    }
}
