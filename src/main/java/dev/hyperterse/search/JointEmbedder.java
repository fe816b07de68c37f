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

    /** The first model's part alone; the others' zeros: no other model runs. */
    @Override
    public float[] embedFirst(String text) {
        return embed(text, 1);
    }

    /** The vector with the first {@code read} models' parts filled in, the rest zeros. */
    private float[] embed(String text, int read) {
        float[] out = null;
        int width = 0;
        for (int p = 0; p < read; p++) {
            float[] own = SemanticRanking.unit(parts.get(p).embed(text));
            if (out == null) {
                width = own.length;
                out = new float[width * parts.size()];
            } else if (own.length != width) {
                throw new IllegalStateException("the models " + names.get(0) + " and " + names.get(p)
                        + " give vectors of " + width + " and " + own.length + " numbers: they cannot be read together");
            }
            for (int d = 0; d < width; d++) {
                out[p * width + d] = own[d] * scale;
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
