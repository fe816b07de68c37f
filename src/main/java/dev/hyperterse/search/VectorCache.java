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
 * SHA-256 of the text it was computed from (the token vectors of a text, {@link #tokensKey}, beside
 * it): a tool whose text is unchanged is never embedded twice. The file is replaced whole (written
 * aside, then moved), so a reader never sees half of one; a file that cannot be read is ignored and
 * rewritten. Vectors may differ in length (a text's token vectors are as many as its tokens); a file of
 * the first format, whose vectors all had one length, is read too.
 */
final class VectorCache {

    private static final int MAGIC = 0x48545631; // "HTV1": vectors of one length
    private static final int MAGIC2 = 0x48545632; // "HTV2": each vector with its length
    /** The longest vector a file may hold: the token vectors of the longest text a model reads (512 × 768). */
    static final int MAX_LENGTH = 512 * 768;
    /**
     * Entries kept: the latest snapshot's first, then earlier ones up to this many in all, and up to
     * {@link #MAX_FLOATS} numbers. A tool has up to four texts a model embeds (its whole text and three parts)
     * and the token vectors of its lead and its whole text, one entry per model each.
     */
    static final int MAX_ENTRIES = 50_000;
    /**
     * The numbers kept in all, four bytes each: 160 MB of file at most. A tool's vectors by the two models of
     * the add-on are some 75 KB with a description of a hundred words (its token vectors, 64 numbers a token, most
     * of it): some 2,000 such tools' worth.
     */
    static final long MAX_FLOATS = 40_000_000;

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

    /**
     * The key the token vectors of a text (its {@link #key}) by the {@code model}th of the embedder's models
     * are stored under, mapped by the {@link TokenBasis} of that {@link TokenBasis#tag} (null: as the model gives them).
     */
    static String tokensKey(String key, int model, String basis) {
        return key + ":tokens:" + model + (basis == null ? "" : ":" + basis);
    }

    /** The stored vectors by key, in file order; empty when there is no file. */
    Map<String, float[]> load() throws IOException {
        Map<String, float[]> vectors = new LinkedHashMap<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            int magic = in.readInt();
            if (magic != MAGIC && magic != MAGIC2 || !in.readUTF().equals(model)) {
                return vectors;
            }
            int dimensions = magic == MAGIC ? in.readInt() : -1;
            int count = in.readInt();
            if (magic == MAGIC && (dimensions <= 0 || dimensions > 65_536) || count < 0 || count > MAX_ENTRIES) {
                throw new IOException(file + ": not a vector cache (" + count + " vectors of " + dimensions + ")");
            }
            long total = 0;
            for (int i = 0; i < count; i++) {
                String key = in.readUTF();
                int length = magic == MAGIC ? dimensions : in.readInt();
                total += length;
                if (length < 0 || length > MAX_LENGTH || total > MAX_FLOATS) {
                    throw new IOException(file + ": not a vector cache (a vector of " + length + " numbers, "
                            + total + " in all)");
                }
                float[] vector = new float[length];
                for (int d = 0; d < length; d++) {
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
     * {@link #load} would refuse is never written); a vector longer than {@link #MAX_LENGTH} is not kept.
     */
    void save(Map<String, float[]> current, Map<String, float[]> earlier) throws IOException {
        Map<String, float[]> kept = new LinkedHashMap<>();
        long floats = 0;
        for (Map<String, float[]> vectors : List.of(current, earlier)) {
            for (Map.Entry<String, float[]> e : vectors.entrySet()) {
                if (kept.size() >= MAX_ENTRIES || floats + e.getValue().length > MAX_FLOATS) {
                    break;
                }
                if (e.getValue().length <= MAX_LENGTH && kept.putIfAbsent(e.getKey(), e.getValue()) == null) {
                    floats += e.getValue().length;
                }
            }
        }
        if (kept.isEmpty()) {
            return;
        }
        Files.createDirectories(file.getParent());
        Path aside = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(aside)))) {
                out.writeInt(MAGIC2);
                out.writeUTF(model);
                out.writeInt(kept.size());
                for (Map.Entry<String, float[]> e : kept.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeInt(e.getValue().length);
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
