package dev.hyperterse.search;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A static embedding distilled from all-MiniLM-L6-v2: one vector per WordPiece vocabulary token,
 * fitted so that the mean of a sentence's token vectors comes close to the model's own embedding of
 * the sentence (over 430,000 sentences of software descriptions and dictionary definitions, starting
 * from the model's output for each token alone), stored as bytes (bench/search/distill/ makes the
 * table). A text's vector is the mean of its tokens' vectors, scaled to unit length: tokenizing and
 * adding up, a few microseconds, in plain Java. Word order is lost, which the transformer would see;
 * what the model reads from words in company ("how far behind" and "lag") is partly kept.
 *
 * <p>The table (a few MB) is read on first use or {@link #load}; after that instances are
 * immutable and safe to share between threads.
 */
public final class StaticEmbedder implements TextEmbedder {

    /** The table shipped with the server. */
    static final String RESOURCE = "static-embedding.bin";
    private static final byte[] MAGIC = {'H', 'T', 'S', 'E'};

    private static final StaticEmbedder BUNDLED = new StaticEmbedder("bundled",
            () -> {
                InputStream in = StaticEmbedder.class.getResourceAsStream(RESOURCE);
                if (in == null) {
                    throw new IOException("resource " + RESOURCE + " is missing from the server's jar");
                }
                return in;
            });

    private final String source;
    private final Callable<InputStream> opener;
    private volatile Table table;

    /**
     * The tokenizer, then per token a scale and {@code dims} bytes: vector = scale × bytes; per token the
     * length of its bytes as a vector (for the cosine of two tokens, in which the scales cancel) and
     * whether it says something ({@link #contentToken}).
     */
    private record Table(WordPieceTokenizer tokenizer, int dims, float[] scales, byte[] vectors, String model,
                         double harmonic, float[] norms, boolean[] content) {}

    private StaticEmbedder(String source, Callable<InputStream> opener) {
        this.source = source;
        this.opener = opener;
    }

    /** The table this server ships with. */
    public static StaticEmbedder bundled() {
        return BUNDLED;
    }

    /** A table from a file, as bench/search/distill/table.py writes one. */
    public static StaticEmbedder fromFile(Path file) {
        return new StaticEmbedder(file.toString(), () -> Files.newInputStream(file));
    }

    @Override
    public String model() {
        return table().model;
    }

    /** How many dimensions a vector has (reads the table). */
    public int dimensions() {
        return table().dims;
    }

    @Override
    public void load() {
        table();
    }

    @Override
    public float[] embed(String text) {
        return embed(text, null);
    }

    /**
     * The text's vector with each token's vector scaled by {@code weight} of its id (null: 1),
     * unit length; zeros for a text with no known token.
     */
    float[] embed(String text, java.util.function.IntToDoubleFunction weight) {
        return embed(table().tokenizer.encode(text), weight, 0);
    }

    /**
     * The vector of a text's token ids (as {@link #tokenIds} reads them), each token's vector scaled
     * by {@code weight} of its id (null: 1), unit length; with {@code maxShare} above 0 that share
     * of it is the per-dimension maximum over the weighted token vectors (unit length) instead of
     * their mean. Zeros for a text with no known token.
     */
    float[] embed(int[] ids, java.util.function.IntToDoubleFunction weight, double maxShare) {
        Table t = table();
        int dims = t.dims;
        float[] sum = new float[dims];
        float[] max = maxShare > 0 ? new float[dims] : null;
        if (max != null) {
            Arrays.fill(max, Float.NEGATIVE_INFINITY);
        }
        int unknown = t.tokenizer.unknownId();
        byte[] v = t.vectors;
        for (int id : ids) {
            if (id == unknown) {
                continue;
            }
            float scale = weight == null ? t.scales[id] : (float) (t.scales[id] * weight.applyAsDouble(id));
            if (scale == 0) {
                continue;
            }
            int base = id * dims;
            for (int d = 0; d < dims; d++) {
                sum[d] += scale * v[base + d];
            }
            if (max != null) {
                for (int d = 0; d < dims; d++) {
                    max[d] = Math.max(max[d], scale * v[base + d]);
                }
            }
        }
        normalize(sum);
        if (max != null && max[0] != Float.NEGATIVE_INFINITY) {
            normalize(max);
            for (int d = 0; d < dims; d++) {
                sum[d] = (float) ((1 - maxShare) * sum[d] + maxShare * max[d]);
            }
            normalize(sum);
        }
        return sum;
    }

    private static void normalize(float[] vector) {
        double norm = 0;
        for (float x : vector) {
            norm += x * x;
        }
        if (norm > 0) {
            float inverse = (float) (1 / Math.sqrt(norm));
            for (int d = 0; d < vector.length; d++) {
                vector[d] *= inverse;
            }
        }
    }

    /**
     * A general prior on how much a token says, from its rank alone: {@code a / (a + p)}, p its
     * probability by Zipf's law, proportional to {@code 1 / (id + 2)} (the vocabulary lists tokens
     * roughly by frequency), as the table's own weights are made with a = 1e-4.
     */
    double rankPrior(int id, double a) {
        Table t = table();
        double p = 1.0 / (id + 2) / t.harmonic;
        return a / (a + p);
    }

    /**
     * Writes a token's vector, scaled to unit length (zeros when it has none), into the first
     * {@link #dimensions()} floats of {@code into}.
     */
    void unitTokenVector(int id, float[] into) {
        Table t = table();
        int dims = t.dims;
        float norm = t.norms[id];
        float inverse = norm == 0 ? 0 : 1 / norm;
        int from = id * dims;
        for (int d = 0; d < dims; d++) {
            into[d] = t.vectors[from + d] * inverse;
        }
    }

    /**
     * Whether a token says something of a text: it holds a letter or a digit, and is neither an English
     * stop word (Lucene's list: "the", "of", "to", …) nor the unknown token.
     */
    boolean contentToken(int id) {
        return table().content[id];
    }

    /** Whether a text holds a letter or a digit (a plain loop: it runs once per token as the table is read). */
    private static boolean hasLetterOrDigit(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                return true;
            }
            i += Character.charCount(cp);
        }
        return false;
    }

    /** The token ids of a text, as the table's tokenizer reads it (reads the table). */
    int[] tokenIds(String text) {
        return table().tokenizer.encode(text);
    }

    private Table table() {
        Table t = table;
        if (t != null) {
            return t;
        }
        synchronized (this) {
            if (table == null) {
                try (InputStream in = opener.call()) {
                    table = read(in);
                } catch (IOException e) {
                    throw new UncheckedIOException("static embedding table " + source + ": " + e.getMessage(), e);
                } catch (Exception e) {
                    throw new IllegalStateException("static embedding table " + source + ": " + e, e);
                }
            }
            return table;
        }
    }

    private static Table read(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(stream, 1 << 16));
        byte[] magic = new byte[4];
        in.readFully(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IOException("not a static embedding table");
        }
        int version = in.readInt();
        if (version != 1) {
            throw new IOException("table version " + version + " is not supported");
        }
        int tokens = in.readInt();
        int dims = in.readInt();
        byte[] text = new byte[in.readInt()];
        in.readFully(text);
        List<String> vocabulary = List.of(new String(text, StandardCharsets.UTF_8).split("\n", -1))
                .subList(0, tokens);
        float[] scales = new float[tokens];
        for (int i = 0; i < tokens; i++) {
            scales[i] = in.readFloat();
        }
        byte[] vectors = new byte[tokens * dims];
        in.readFully(vectors);
        if (in.read() != -1) {
            throw new IOException("trailing bytes after the table");
        }
        // the table's shape and content tell one table from another wherever vectors are kept
        long hash = 1125899906842597L;
        for (int i = 0; i < vectors.length; i += 97) {
            hash = 31 * hash + vectors[i];
        }
        String model = "all-MiniLM-L6-v2-static-" + dims + "-" + Long.toHexString(hash);
        // the sum of 1 / (id + 2) over the vocabulary: Zipf's law's normalizer, for rankPrior
        double harmonic = 0;
        for (int i = tokens - 1; i >= 0; i--) {
            harmonic += 1.0 / (i + 2);
        }
        float[] norms = new float[tokens];
        boolean[] content = new boolean[tokens];
        java.util.Set<String> stop = new java.util.HashSet<>();
        for (Object word : org.apache.lucene.analysis.en.EnglishAnalyzer.ENGLISH_STOP_WORDS_SET) {
            stop.add(new String((char[]) word));
        }
        for (int i = 0; i < tokens; i++) {
            long sum = 0;
            for (int d = 0; d < dims; d++) {
                int b = vectors[i * dims + d];
                sum += b * b;
            }
            norms[i] = (float) Math.sqrt(sum);
            String token = vocabulary.get(i);
            content[i] = !stop.contains(token) && !token.equals(WordPieceTokenizer.UNKNOWN) && hasLetterOrDigit(token);
        }
        return new Table(new WordPieceTokenizer(vocabulary), dims, scales, vectors, model, harmonic, norms, content);
    }
}
