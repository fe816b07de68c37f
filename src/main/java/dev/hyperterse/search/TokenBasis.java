package dev.hyperterse.search;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * Per model, a linear map of its token vectors onto fewer dimensions: the directions in which tool texts' token
 * vectors vary most (the leading eigenvectors of their second moment), so that a token vector's dot product with
 * another's is kept as far as so few numbers can keep it. {@link LateInteraction} reads a tool's texts token by
 * token; mapped so, the hundred or so tokens of a whole text cost a fraction of the memory and the arithmetic of the
 * models' own vectors. Learned once from tool texts ({@link #learn}) and shipped in the jar ({@value #RESOURCE});
 * a map is meant for the models it names. Immutable; safe to share between threads.
 */
final class TokenBasis {

    /** The jar's maps, for the {@code semantic} ranking's models. */
    static final String RESOURCE = "token-basis.bin";
    private static final int MAGIC = 0x48544231; // "HTB1"

    private final List<String> models;
    private final int width;
    private final int dims;
    /** Per model, {@link #dims} rows of {@link #width} numbers, each row a unit vector, the rows orthogonal. */
    private final float[][] rows;
    /** The same maps by column: per model and input dimension, what it adds to each of the {@link #dims}. */
    private final float[][][] columns;
    private final String tag;

    TokenBasis(List<String> models, int width, int dims, float[][] rows) {
        if (models.isEmpty() || rows.length != models.size() || width < 1 || dims < 1 || dims > width) {
            throw new IllegalArgumentException("a token basis of " + rows.length + " maps for " + models.size()
                    + " models, " + dims + " of " + width + " dimensions");
        }
        for (float[] r : rows) {
            if (r.length != dims * width) {
                throw new IllegalArgumentException("a token basis map of " + r.length + " numbers, not " + dims * width);
            }
        }
        this.models = List.copyOf(models);
        this.width = width;
        this.dims = dims;
        this.rows = rows;
        this.columns = new float[rows.length][][];
        for (int m = 0; m < rows.length; m++) {
            // the rows are dims vectors of width numbers: held a dimension at a time, width columns of dims
            columns[m] = LateInteraction.byDimension(rows[m], width);
        }
        this.tag = HexFormat.of().formatHex(digest(bytes()), 0, 6);
    }

    /** The models the maps are for, in order. */
    List<String> models() {
        return models;
    }

    /** How many numbers a model's token vector has. */
    int width() {
        return width;
    }

    /** How many numbers a mapped token vector has. */
    int dims() {
        return dims;
    }

    /** A short name of these maps' numbers: token vectors mapped by others are never taken for theirs. */
    String tag() {
        return tag;
    }

    /** {@code tokens} (model {@code model}'s token vectors, {@link #width} numbers each) mapped: {@link #dims} numbers each. */
    float[] project(int model, float[] tokens) {
        if (tokens.length % width != 0) {
            throw new IllegalArgumentException(tokens.length + " numbers are no token vectors of " + width);
        }
        int n = tokens.length / width;
        float[] out = new float[n * dims];
        float[] sums = new float[dims];
        for (int t = 0; t < n; t++) {
            LateInteraction.times(tokens, t * width, columns[model], sums);
            System.arraycopy(sums, 0, out, t * dims, dims);
        }
        return out;
    }

    /**
     * The maps onto {@code dims} dimensions of the token vectors {@code samples[model]} (each model's, {@code width}
     * numbers a token, one after another, every sample array of one text): the leading eigenvectors of their second
     * moment, by subspace iteration from a seeded start (the same samples give the same maps).
     */
    static TokenBasis learn(List<String> models, int width, int dims, List<List<float[]>> samples) {
        float[][] rows = new float[models.size()][];
        for (int m = 0; m < models.size(); m++) {
            double[] moment = new double[width * width];
            long count = 0;
            for (float[] tokens : samples.get(m)) {
                for (int t = 0; t + width <= tokens.length; t += width) {
                    for (int i = 0; i < width; i++) {
                        double x = tokens[t + i];
                        int row = i * width;
                        for (int j = i; j < width; j++) {
                            moment[row + j] += x * tokens[t + j];
                        }
                    }
                    count++;
                }
            }
            if (count == 0) {
                throw new IllegalArgumentException("no token vectors of " + models.get(m) + " to learn a basis from");
            }
            for (int i = 0; i < width; i++) {
                for (int j = i; j < width; j++) {
                    moment[i * width + j] /= count;
                    moment[j * width + i] = moment[i * width + j];
                }
            }
            rows[m] = leadingEigenvectors(moment, width, dims);
        }
        return new TokenBasis(models, width, dims, rows);
    }

    /** The {@code dims} leading eigenvectors of the symmetric {@code n}×{@code n} matrix {@code a}, one row each. */
    private static float[] leadingEigenvectors(double[] a, int n, int dims) {
        Random random = new Random(42);
        double[][] v = new double[dims][n];
        for (double[] row : v) {
            for (int i = 0; i < n; i++) {
                row[i] = random.nextGaussian();
            }
        }
        orthonormalize(v);
        for (int iteration = 0; iteration < 300; iteration++) {
            double[][] next = new double[dims][n];
            for (int k = 0; k < dims; k++) {
                for (int i = 0; i < n; i++) {
                    double s = 0;
                    for (int j = 0; j < n; j++) {
                        s += a[i * n + j] * v[k][j];
                    }
                    next[k][i] = s;
                }
            }
            orthonormalize(next);
            v = next;
        }
        float[] out = new float[dims * n];
        for (int k = 0; k < dims; k++) {
            for (int i = 0; i < n; i++) {
                out[k * n + i] = (float) v[k][i];
            }
        }
        return out;
    }

    /** Gram–Schmidt, twice over: the rows made orthonormal, in order. */
    private static void orthonormalize(double[][] v) {
        for (int k = 0; k < v.length; k++) {
            for (int pass = 0; pass < 2; pass++) {
                for (int p = 0; p < k; p++) {
                    double s = 0;
                    for (int i = 0; i < v[k].length; i++) {
                        s += v[k][i] * v[p][i];
                    }
                    for (int i = 0; i < v[k].length; i++) {
                        v[k][i] -= s * v[p][i];
                    }
                }
            }
            double norm = 0;
            for (double x : v[k]) {
                norm += x * x;
            }
            norm = Math.sqrt(norm);
            for (int i = 0; i < v[k].length; i++) {
                v[k][i] /= norm;
            }
        }
    }

    /** The maps as {@link #read} reads them. */
    void write(OutputStream stream) throws IOException {
        stream.write(bytes());
    }

    private byte[] bytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(models.size());
            out.writeInt(width);
            out.writeInt(dims);
            for (int m = 0; m < models.size(); m++) {
                out.writeUTF(models.get(m));
                for (float x : rows[m]) {
                    out.writeFloat(x);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** Maps as {@link #write} writes them. */
    static TokenBasis read(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        if (in.readInt() != MAGIC) {
            throw new IOException("not a token basis (its first bytes)");
        }
        int count = in.readInt();
        int width = in.readInt();
        int dims = in.readInt();
        // a model's token vectors are some hundreds of numbers: bounds that keep a damaged header from asking for
        // more memory than a real map takes (8 models of 2,048 numbers onto 256: 16 MB)
        if (count < 1 || count > 8 || width < 1 || width > 2048 || dims < 1 || dims > Math.min(width, 256)) {
            throw new IOException("a token basis of " + count + " models, " + dims + " of " + width + " dimensions");
        }
        String[] models = new String[count];
        float[][] rows = new float[count][];
        for (int m = 0; m < count; m++) {
            models[m] = in.readUTF();
            rows[m] = new float[dims * width];
            for (int i = 0; i < rows[m].length; i++) {
                rows[m][i] = in.readFloat();
                if (!Float.isFinite(rows[m][i])) {
                    throw new IOException("a token basis with a number that is not finite");
                }
            }
        }
        if (in.read() != -1) {
            throw new IOException("a token basis with more after its last map");
        }
        return new TokenBasis(List.of(models), width, dims, rows);
    }

    /**
     * The jar's maps ({@value #RESOURCE}) when they are for {@code models} (in that order); else null: the token
     * vectors are read as the models give them.
     */
    static TokenBasis bundledFor(List<String> models) {
        Bundled bundled = Holder.BUNDLED;
        if (bundled.failure() != null) {
            throw bundled.failure();
        }
        return bundled.basis() != null && bundled.basis().models.equals(models) ? bundled.basis() : null;
    }

    /** The jar's maps, read once per JVM (null: the jar holds none), or why they cannot be read. */
    private record Bundled(TokenBasis basis, IllegalStateException failure) {
        static Bundled read() {
            try (InputStream in = TokenBasis.class.getResourceAsStream(RESOURCE)) {
                return new Bundled(in == null ? null : TokenBasis.read(in), null);
            } catch (IOException e) {
                return new Bundled(null, new IllegalStateException("the jar's " + RESOURCE + " cannot be read: "
                        + e.getMessage(), e));
            }
        }
    }

    private static final class Holder {
        static final Bundled BUNDLED = Bundled.read();
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
