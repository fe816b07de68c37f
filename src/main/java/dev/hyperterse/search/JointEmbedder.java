package dev.hyperterse.search;

import java.util.List;

/**
 * Several models reading the same text: its vector is each model's unit vector scaled by
 * {@code 1/√n} (n models), one after another, so that it is unit length too and its cosine with
 * another text's is the mean of the models' cosines; each model's own cosine is read back from its
 * part ({@link #models()}). The models' vectors are of one length. Safe to call from several threads
 * at once, as its models are.
 */
final class JointEmbedder implements TextEmbedder {

    private final List<TextEmbedder> parts;
    private final List<String> names;
    private final String model;
    private final float scale;

    JointEmbedder(List<TextEmbedder> parts) {
        if (parts.size() < 2) {
            throw new IllegalArgumentException("a joint embedding needs two models or more, not " + parts.size());
        }
        this.parts = List.copyOf(parts);
        this.names = this.parts.stream().map(TextEmbedder::model).toList();
        this.model = String.join(" + ", names);
        this.scale = (float) (1 / Math.sqrt(parts.size()));
    }

    /** The models read together, in order. */
    List<TextEmbedder> parts() {
        return parts;
    }

    @Override
    public String model() {
        return model;
    }

    @Override
    public List<String> models() {
        return names;
    }

    @Override
    public float[] embed(String text) {
        return embed(text, parts.size());
    }

    /**
     * The joint vector ({@link #embed}) and each model's token vectors, from one run of each model; null when
     * a model gives no token vectors.
     */
    @Override
    public TokenVectors embedTokens(String text) {
        float[][] own = new float[parts.size()][];
        float[][] tokens = new float[parts.size()][];
        for (int p = 0; p < parts.size(); p++) {
            TokenVectors vectors = parts.get(p).embedTokens(text);
            if (vectors == null) {
                return null;
            }
            own[p] = SemanticRanking.unit(vectors.vector());
            tokens[p] = vectors.tokens()[0];
        }
        return new TokenVectors(joined(own), tokens);
    }

    /** The first model's part alone; the others' zeros: no other model runs. */
    @Override
    public float[] embedFirst(String text) {
        return embed(text, 1);
    }

    /** The vector with the first {@code read} models' parts filled in, the rest zeros. */
    private float[] embed(String text, int read) {
        float[][] own = new float[read][];
        for (int p = 0; p < read; p++) {
            own[p] = SemanticRanking.unit(parts.get(p).embed(text));
        }
        return joined(own);
    }

    /** The joint vector of the models' unit vectors {@code own} (the first ones; the rest zeros). */
    private float[] joined(float[][] own) {
        int width = own[0].length;
        float[] out = new float[width * parts.size()];
        for (int p = 0; p < own.length; p++) {
            if (own[p].length != width) {
                throw new IllegalStateException("the models " + names.get(0) + " and " + names.get(p)
                        + " give vectors of " + width + " and " + own[p].length + " numbers: they cannot be read together");
            }
            for (int d = 0; d < width; d++) {
                out[p * width + d] = own[p][d] * scale;
            }
        }
        return out;
    }

    @Override
    public String degraded() {
        String all = parts.stream().map(TextEmbedder::degraded).filter(java.util.Objects::nonNull)
                .collect(java.util.stream.Collectors.joining("; "));
        return all.isEmpty() ? null : all;
    }

    @Override
    public void load() {
        for (TextEmbedder part : parts) {
            part.load();
        }
    }
}
